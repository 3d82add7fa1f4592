/**
 * The app's own small IndexedDB store (Dexie): playground drafts per handler
 * and UI preferences. Runs and attempts of the benchmark harness live in
 * `src/store/`, the course's progress in `lessons/progress-db.ts`: separate
 * databases.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface Draft {
  /** Handler C name: one draft per handler. */
  readonly handler: string;
  readonly spec: string;
  readonly variant?: string;
  readonly updatedAt: number;
}

export interface Setting {
  readonly key: string;
  readonly value: unknown;
}

class AppDb extends Dexie {
  drafts!: EntityTable<Draft, 'handler'>;
  settings!: EntityTable<Setting, 'key'>;

  constructor() {
    super('osvlab-app');
    this.version(1).stores({ drafts: 'handler, updatedAt', lessons: 'lesson', settings: 'key' });
    // Version 2 drops the `lessons` table of the first course, which nothing
    // has read since the course keeps its progress in its own database;
    // drafts and settings are kept as they are.
    this.version(2).stores({ lessons: null });
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

export const settings = {
  async get<T>(key: string, fallback: T): Promise<T> {
    const s = await open().settings.get(key);
    return s === undefined ? fallback : (s.value as T);
  },
  put: (key: string, value: unknown) => open().settings.put({ key, value }),
};
