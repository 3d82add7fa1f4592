/**
 * The teacher's grade of an imported attempt: always against the teacher's
 * own copy of the exercise (made on this page or added by its link), never
 * against a copy the file brings. A version 1 file carries a whole exercise,
 * and a learner can edit it (drop the lemma check or a "must be refuted
 * on"); such a file is flagged, and its answer is never shown as passed.
 */
import type { AttemptFile } from './attempt-file.ts';
import { gradeSpec, type VerifyFn } from './exercise.ts';
import { type TeacherExercise, asExercise } from './teacher-link.ts';

/** The teacher's exercises, as the course db keeps them. */
export interface ExerciseLookup {
  /** The exercise with this content id (teacher-link.ts `exerciseId`). */
  byId(id: string): Promise<TeacherExercise | undefined>;
  /** Every exercise kept here. */
  all(): Promise<readonly TeacherExercise[]>;
}

/** What the teacher's page says of an imported attempt. */
export type AttemptGrade =
  | { readonly kind: 'done'; readonly passed: boolean; readonly message: string }
  /** The file's copy of the exercise is not the teacher's: never a pass, whatever the answer does. */
  | { readonly kind: 'flagged'; readonly passed: false; readonly message: string };

/** The fields of an exercise that decide a grade, in the words the page shows. */
const GRADED_FIELDS: readonly { key: keyof TeacherExercise; label: string }[] = [
  { key: 'handler', label: 'the handler' },
  { key: 'variant', label: 'the implementation it must verify against' },
  { key: 'refuteOn', label: 'the "must be refuted on" checks' },
  { key: 'strict', label: 'the lemma checks' },
  { key: 'starter', label: 'the starter' },
  { key: 'solution', label: 'the solution' },
  { key: 'prompt', label: 'the task' },
  { key: 'hints', label: 'the hints' },
  { key: 'hideChecks', label: 'whether the checks are hidden' },
  { key: 'showBugs', label: 'whether the bugs are shown' },
];

/** The labels of the fields in which `carried` differs from `own`. */
export function exerciseDifferences(own: TeacherExercise, carried: TeacherExercise): string[] {
  return GRADED_FIELDS.filter((f) => JSON.stringify(own[f.key]) !== JSON.stringify(carried[f.key])).map((f) => f.label);
}

/**
 * Grades an imported attempt against the teacher's exercise it names.
 * `carried` is the exercise a version 1 file brought: it is only compared,
 * never graded against. Throws (with a message for the teacher) when no
 * exercise of the teacher's matches.
 */
export async function gradeAttempt(file: AttemptFile, carried: TeacherExercise | undefined, exercises: ExerciseLookup, verify: VerifyFn): Promise<AttemptGrade> {
  const own = await exercises.byId(file.exerciseId);
  if (own) {
    const g = await gradeSpec(asExercise(own), file.answer, verify);
    return { kind: 'done', passed: g.passed, message: g.message };
  }
  if (carried) {
    // The carried exercise's id is its content's hash: no exercise of the teacher's has it, so it is not the one
    // the teacher made. One with the same title and handler is what the learner was given.
    const same = (await exercises.all()).find((e) => e.title === carried.title && e.handler === carried.handler);
    if (same) {
      const differs = exerciseDifferences(same, carried);
      const g = await gradeSpec(asExercise(same), file.answer, verify);
      return {
        kind: 'flagged',
        passed: false,
        message: `The file carries its own copy of "${same.title}", which differs from yours in ${differs.join(', ') || 'its content'}: not accepted. Against your exercise: ${g.passed ? 'the answer passes.' : g.message}`,
      };
    }
  }
  throw new Error('This attempt is for an exercise not made on this page: add its link below to grade it here.');
}
