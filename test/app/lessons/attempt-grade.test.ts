/**
 * The teacher's grade of an imported attempt (issue 57 item 2), with the real
 * verifier (Node Z3): a version 1 file carries its own copy of the exercise,
 * and a learner who edits that copy must not get a pass. The answer here is a
 * correct spec of the buggy sys_alloc_vector-v2 (it takes a vector without
 * checking its owner); the forged copy asks for exactly that.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import { findTask } from '../../../src/core/tasks/load.ts';
import { verify } from '../../../src/core/verify/index.ts';
import { parseAttemptFile } from '../../../src/app/lessons/attempt-file.ts';
import { type ExerciseLookup, exerciseDifferences, gradeAttempt } from '../../../src/app/lessons/attempt-grade.ts';
import { type GradeRequest, gradeSpec } from '../../../src/app/lessons/exercise.ts';
import { type TeacherExercise, asExercise, exerciseId } from '../../../src/app/lessons/teacher-link.ts';
import { ALLOC_VECTOR_ANSWER } from '../../e2e/teacher-answer.ts';

const OWN: TeacherExercise = {
  v: 1,
  kind: 'osvlab-exercise',
  title: 'Vectors: catch v2',
  prompt: 'Write the spec of sys_alloc_vector.',
  handler: 'sys_alloc_vector',
  starter: 'def sys_alloc_vector(old, vector):\n    pass\n',
  refuteOn: ['sys_alloc_vector-v2'],
  strict: false,
  hideChecks: true,
  hints: [],
  app: '1',
  kernel: 'k',
};
/** The learner's edit of the carried exercise: verify against v2, refute nothing. */
const FORGED: TeacherExercise = { ...OWN, variant: 'sys_alloc_vector-v2', refuteOn: [] };
const WRONG = ALLOC_VECTOR_ANSWER.replace('    cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)\n', '    cond = z3.BoolVal(True)\n');

async function verifyNode(req: GradeRequest) {
  const implSource = req.variant ? (await findTask(req.variant))!.impl_override : undefined;
  return verify({ handler: req.handler, spec: req.spec, implSource, strict: req.strict }, await nodeEnv());
}

function lookup(exercises: TeacherExercise[]): ExerciseLookup {
  return {
    byId: async (id) => {
      for (const e of exercises) if ((await exerciseId(e)) === id) return e;
      return undefined;
    },
    all: async () => exercises,
  };
}

function v1File(exercise: TeacherExercise, answer: string): string {
  return JSON.stringify({ format: 'osvlab-attempt', v: 1, exercise, learner: 'Mallory', answer, passed: true, checks: [], app: '1' });
}

describe('grading an imported attempt', () => {
  it('flags a version 1 file whose carried exercise was edited, and never passes it', async () => {
    const [read] = await parseAttemptFile(v1File(FORGED, WRONG));
    // What the page used to do: grade against the file's own copy, which this answer passes.
    expect((await gradeSpec(asExercise(read.exercise!), WRONG, verifyNode)).passed).toBe(true);
    const g = await gradeAttempt(read.file, read.exercise, lookup([OWN]), verifyNode);
    expect(g.kind).toBe('flagged');
    expect(g.passed).toBe(false);
    expect(g.message).toContain('differs from yours in the implementation it must verify against, the "must be refuted on" checks');
    expect(g.message).toContain('not accepted. Against your exercise: Not yet:');
  }, 120_000);

  it('grades an unedited version 1 file against the teacher\u2019s own exercise', async () => {
    const [good] = await parseAttemptFile(v1File(OWN, ALLOC_VECTOR_ANSWER));
    expect(await gradeAttempt(good.file, good.exercise, lookup([OWN]), verifyNode)).toEqual({ kind: 'done', passed: true, message: 'Passed: every check holds.' });
    const [bad] = await parseAttemptFile(v1File(OWN, WRONG));
    const g = await gradeAttempt(bad.file, bad.exercise, lookup([OWN]), verifyNode);
    expect(g).toMatchObject({ kind: 'done', passed: false });
  }, 120_000);

  it('refuses to grade a carried exercise the teacher does not have', async () => {
    const [read] = await parseAttemptFile(v1File({ ...FORGED, title: 'Another title' }, WRONG));
    await expect(gradeAttempt(read.file, read.exercise, lookup([OWN]), verifyNode)).rejects.toThrow('add its link');
    await expect(gradeAttempt(read.file, read.exercise, lookup([]), verifyNode)).rejects.toThrow('add its link');
  });

  it('names every graded field that differs', () => {
    expect(exerciseDifferences(OWN, OWN)).toEqual([]);
    expect(exerciseDifferences(OWN, { ...OWN, strict: true, solution: 's' })).toEqual(['the lemma checks', 'the solution']);
  });
});
