/**
 * The app's own small IndexedDB store (Dexie): playground drafts per handler,
 * lesson progress and UI preferences. Runs and attempts of the benchmark
 * harness live in `src/store/`, a separate database.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface Draft {
  /** Handler C name: one draft per handler. */
  readonly handler: string;
  readonly spec: string;
  readonly variant?: string;
  readonly updatedAt: number;
}

export interface LessonProgress {
  readonly lesson: string;
  /** The exercise was graded as passed. */
  readonly passed: boolean;
  /** The learner's current answer. */
  readonly spec: string;
  readonly updatedAt: number;
}

export interface Setting {
  readonly key: string;
  readonly value: unknown;
}

class AppDb extends Dexie {
  drafts!: EntityTable<Draft, 'handler'>;
  lessons!: EntityTable<LessonProgress, 'lesson'>;
  settings!: EntityTable<Setting, 'key'>;

  constructor() {
    super('osvlab-app');
    this.version(1).stores({ drafts: 'handler, updatedAt', lessons: 'lesson', settings: 'key' });
  }
}

let db: AppDb | undefined;
const open = () => (db ??= new AppDb());

export const drafts = {
  get: (handler: string) => open().drafts.get(handler),
  put: (d: Draft) => open().drafts.put(d),
  remove: (handler: string) => open().drafts.delete(handler),
  all: () => open().drafts.orderBy('updatedAt').reverse().toArray(),
};

export const lessonProgress = {
  get: (lesson: string) => open().lessons.get(lesson),
  put: (p: LessonProgress) => open().lessons.put(p),
  all: () => open().lessons.toArray(),
};

export const settings = {
  async get<T>(key: string, fallback: T): Promise<T> {
    const s = await open().settings.get(key);
    return s === undefined ? fallback : (s.value as T);
  },
  put: (key: string, value: unknown) => open().settings.put({ key, value }),
};
