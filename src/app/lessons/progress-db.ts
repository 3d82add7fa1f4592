/**
 * The course's records in the page's one database (lib/storage.ts, which
 * declares the rows): one per exercise (the learner's answer, attempts, hints
 * opened, whether it passed), the attempts a teacher has imported and the
 * exercises a teacher made or opened.
 */
import { type AuthoredExercise, type ExerciseProgress, type ImportedAttempt, openStorage } from '../lib/storage.ts';

export const exerciseProgress = {
  get: async (key: string) => (await openStorage()).exercises.get(key),
  put: async (p: ExerciseProgress) => (await openStorage()).exercises.put(p),
  all: async () => (await openStorage()).exercises.toArray(),
};

export const importedAttempts = {
  put: async (a: ImportedAttempt) => (await openStorage()).imports.put(a),
  all: async () => (await openStorage()).imports.orderBy('importedAt').reverse().toArray(),
  remove: async (id: string) => (await openStorage()).imports.delete(id),
};

export const authoredExercises = {
  put: async (a: AuthoredExercise) => (await openStorage()).authored.put(a),
  get: async (id: string) => (await openStorage()).authored.get(id),
  all: async () => (await openStorage()).authored.toArray(),
};
