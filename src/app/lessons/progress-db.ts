/**
 * The course's own IndexedDB store (Dexie): one record per exercise (the
 * learner's answer, attempts, hints opened, whether it passed) and the
 * attempts a teacher has imported. Separate from the app's db.ts so the
 * course can change its records without touching the playground's.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { AttemptFile } from './attempt-file.ts';

export interface ExerciseProgress {
  /** `<lesson>/<exercise>` for the course, `t/<id>` for a teacher exercise. */
  readonly key: string;
  /** The learner's current answer: a spec, or the chosen field. */
  readonly answer: string;
  readonly passed: boolean;
  /** Graded checks so far; the solution opens after the first. */
  readonly attempts: number;
  readonly hintsOpened: number;
  /** The last grade, one sentence. */
  readonly lastMessage?: string;
  /** The answer came from "Put it in the editor" (cleared by Start over). */
  readonly usedSolution?: boolean;
  /** How it was passed: with an answer of the learner's own, or only with the solution put in. */
  readonly passedWith?: 'own' | 'solution';
  readonly updatedAt: number;
}

export interface ImportedAttempt {
  /** Content hash of the file: importing the same file twice keeps one row. */
  readonly id: string;
  readonly importedAt: number;
  readonly file: AttemptFile;
}

class CourseDb extends Dexie {
  exercises!: EntityTable<ExerciseProgress, 'key'>;
  imports!: EntityTable<ImportedAttempt, 'id'>;

  constructor() {
    super('osvlab-course');
    this.version(1).stores({ exercises: 'key', imports: 'id, importedAt' });
  }
}

let db: CourseDb | undefined;
const open = () => (db ??= new CourseDb());

export const exerciseProgress = {
  get: (key: string) => open().exercises.get(key),
  put: (p: ExerciseProgress) => open().exercises.put(p),
  all: () => open().exercises.toArray(),
};

export const importedAttempts = {
  put: (a: ImportedAttempt) => open().imports.put(a),
  all: () => open().imports.orderBy('importedAt').reverse().toArray(),
  remove: (id: string) => open().imports.delete(id),
};
