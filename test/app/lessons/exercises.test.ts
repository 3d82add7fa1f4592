/**
 * Every exercise of the course, graded by the real verifier (Node Z3, the
 * same grading code as the browser): its solution must pass and its starter
 * must not. Field exercises: the solution must be among the fields the
 * verifier names, and at least one offered choice must not be.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import { findTask } from '../../../src/core/tasks/load.ts';
import { verify } from '../../../src/core/verify/index.ts';
import type { Verdict } from '../../../src/core/verify/verdict.ts';
import { COURSE } from '../../../src/app/lessons/catalog.ts';
import { type GradeRequest, gradeExercise, starterOf } from '../../../src/app/lessons/exercise.ts';

const memo = new Map<string, Promise<Verdict>>();

/** Grading's verify function on the Node engine; equal requests are verified once. */
function verifyNode(req: GradeRequest): Promise<Verdict> {
  const key = JSON.stringify([req.handler, req.spec, req.variant ?? '', req.strict === true]);
  let hit = memo.get(key);
  if (!hit) {
    hit = (async () => {
      let implSource: string | undefined;
      if (req.variant) {
        const task = await findTask(req.variant);
        if (!task) throw new Error(`no task ${req.variant}`);
        implSource = task.impl_override;
      }
      return verify({ handler: req.handler, spec: req.spec, implSource, strict: req.strict }, await nodeEnv());
    })();
    memo.set(key, hit);
  }
  return hit;
}

describe('course exercises', () => {
  it('has at least 12 lessons, and the catalog lists each lesson\u2019s exercises', async () => {
    expect(COURSE.length).toBeGreaterThanOrEqual(12);
    for (const entry of COURSE) {
      const l = await entry.load();
      expect(l.id).toBe(entry.id);
      expect(l.exercises.map((e) => e.id)).toEqual(entry.exercises);
      expect(l.exercises.length, entry.id).toBeGreaterThanOrEqual(2);
      for (const ex of l.exercises) expect(ex.hints.length, `${entry.id}/${ex.id}`).toBeGreaterThanOrEqual(2);
    }
  });

  for (const entry of COURSE) {
    for (const exId of entry.exercises) {
      it(`${entry.id}/${exId}`, async () => {
        const ex = (await entry.load()).exercises.find((e) => e.id === exId)!;
        expect(ex.solution, 'an exercise needs a solution').toBeDefined();
        const good = await gradeExercise(ex, ex.solution!, verifyNode);
        expect(good.passed, `solution: ${good.message}`).toBe(true);
        const bad = await gradeExercise(ex, starterOf(ex), verifyNode);
        expect(bad.passed, 'the starter must not already pass').toBe(false);
        if (ex.kind === 'field') {
          expect(ex.choices).toContain(ex.solution);
          const v = good.verdict!;
          expect(v.status).toBe('refuted');
          const failed = v.status === 'refuted' ? v.failed : [];
          expect(ex.choices.some((c) => !failed.includes(c)), `some choice must be wrong; failed: ${failed.join(', ')}`).toBe(true);
        }
      }, 120_000);
    }
  }
});
