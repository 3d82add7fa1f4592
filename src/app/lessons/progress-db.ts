/**
 * The course's own IndexedDB store (Dexie): one record per exercise (the
 * learner's answer, attempts, hints opened, whether it passed) and the
 * attempts a teacher has imported. Separate from the app's db.ts so the
 * course can change its records without touching the playground's.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { AttemptFile } from './attempt-file.ts';
import type { TeacherExercise } from './teacher-link.ts';

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
  /** The last graded attempt, as a teacher's exercise hands it in after a reload. */
  readonly lastGraded?: GradedAttempt;
  readonly updatedAt: number;
}

/** A graded answer with what the grading said: what "Download my attempt" puts in the file. */
export interface GradedAttempt {
  readonly answer: string;
  readonly passed: boolean;
  readonly withSolution: boolean;
  readonly message: string;
  readonly checks: readonly { readonly label: string; readonly status: 'passed' | 'failed' | 'not-run' }[];
}

export interface ImportedAttempt {
  /** Content hash of the file: importing the same file twice keeps one row. */
  readonly id: string;
  readonly importedAt: number;
  readonly file: AttemptFile;
  /** The whole exercise, from a version 1 file that carried it. */
  readonly exercise?: TeacherExercise;
  /** This page's own grade of the answer (never the file's claim), with the app version that graded it. */
  readonly graded?: { readonly passed: boolean; readonly message: string; readonly app: string; readonly flagged?: boolean };
}

/** An exercise the teacher made here or opened by its link: what imported attempts are graded against. */
export interface AuthoredExercise {
  /** teacher-link.ts `exerciseId`. */
  readonly id: string;
  readonly exercise: TeacherExercise;
  readonly savedAt: number;
}

class CourseDb extends Dexie {
  exercises!: EntityTable<ExerciseProgress, 'key'>;
  imports!: EntityTable<ImportedAttempt, 'id'>;
  authored!: EntityTable<AuthoredExercise, 'id'>;

  constructor() {
    super('osvlab-course');
    this.version(1).stores({ exercises: 'key', imports: 'id, importedAt' });
    // Version 2: attempt files no longer carry the exercise; imported version 1 files keep theirs beside the file.
    this.version(2)
      .stores({ exercises: 'key', imports: 'id, importedAt', authored: 'id' })
      .upgrade((tx) =>
        tx
          .table('imports')
          .toCollection()
          .modify((rec: { file: Record<string, unknown> & { exercise: unknown }; exercise?: TeacherExercise }) => {
            if (rec.file.v !== 1) return;
            const ex = rec.file.exercise as TeacherExercise;
            rec.exercise = ex;
            rec.file = { ...rec.file, v: 2, exercise: { title: ex.title, handler: ex.handler }, withSolution: false };
          }),
      );
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

export const authoredExercises = {
  put: (a: AuthoredExercise) => open().authored.put(a),
  get: (id: string) => open().authored.get(id),
  all: () => open().authored.toArray(),
};
