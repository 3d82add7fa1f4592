/**
 * OSVBench-style answers (bare functions, as OSVBench's results files hold
 * them) grade exactly as the same answers with import lines, through the
 * real grading path (extraction, verify() on the kernel with Z3), and both
 * get the category hv6's Python 2 + z3py grading gives (test/dialect/osvbench-answers.ts).
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { ANSWERS, withImports } from './osvbench-answers.ts';

describe('bare-function answers grade as answers with imports', () => {
  const counts: Record<string, number> = {};
  for (const a of ANSWERS) {
    it(a.id, async () => {
      const engine = await nodeEngine();
      const task = handlerOnlyTask(a.handler);
      const bare = await gradeResponse(task, a.code, { engine, caches: nodeCaches() });
      const imported = await gradeResponse(task, withImports(a.code), { engine, caches: nodeCaches() });
      expect(bare.extracted).toBe(a.code);
      expect(bare.category, bare.diagnosis).toBe(a.osvlab ?? a.expect);
      expect(imported.category, imported.diagnosis).toBe(bare.category);
      expect(imported.verdict?.status).toBe(bare.verdict?.status);
      if (bare.verdict?.status === 'spec-error' && imported.verdict?.status === 'spec-error') {
        expect(imported.verdict.error.code).toBe(bare.verdict.error.code);
      }
      expect((imported.warnings ?? []).map((w) => w.code)).toEqual((bare.warnings ?? []).map((w) => w.code));
      counts[bare.category] = (counts[bare.category] ?? 0) + 1;
      if (a.id === ANSWERS[ANSWERS.length - 1].id) console.log(`answers graded by category: ${JSON.stringify(counts)}`);
    }, 180_000);
  }
});
