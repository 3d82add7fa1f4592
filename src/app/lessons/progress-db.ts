/**
 * The course's records in the page's one database (lib/storage.ts, which
 * declares the rows): one per exercise (the learner's answer, attempts, hints
 * opened, whether it passed), the attempts a teacher has imported and the
 * exercises a teacher made or opened. While the database's one-time upgrade
 * waits for another tab, these wait with it (the shell says why).
 */
import { type AuthoredExercise, type ExerciseProgress, type ImportedAttempt, storage } from '../lib/storage.ts';

export const exerciseProgress = {
  get: (key: string) => storage().exercises.get(key),
  put: (p: ExerciseProgress) => storage().exercises.put(p),
  all: () => storage().exercises.toArray(),
};

export const importedAttempts = {
  put: (a: ImportedAttempt) => storage().imports.put(a),
  all: () => storage().imports.orderBy('importedAt').reverse().toArray(),
  remove: (id: string) => storage().imports.delete(id),
};

export const authoredExercises = {
  put: (a: AuthoredExercise) => storage().authored.put(a),
  get: (id: string) => storage().authored.get(id),
  all: () => storage().authored.toArray(),
};
