/**
 * Writes that raise only when read (docs/spec-errors.md, "Read or unread"),
 * through the real grade path. Upstream (hv6's util.partial_update and
 * stored lambdas) defers the error to a read, and OSVBench's check reads
 * only the fields state_equiv compares: a bad write into a ghost field
 * grades on the rest (SPEC204 warning), into a compared field it is a
 * syntax failure, as before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine, nodeEnv } from '../../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask, strictChecker } from '../../src/core/eval/grade/grade.ts';

// The golden case without its header comments (as an answer would hold it).
const ghost = readFileSync(new URL('../cases/spec-warnings/ghost-write-width.py', import.meta.url), 'utf8').replace(/^#.*\n/gm, '');
const task = handlerOnlyTask('sys_map_proc');

describe('a write that raises when read', () => {
  it('into an unread ghost field: pass, with the SPEC204 warning in the grade and the repair diagnosis', async () => {
    // Upstream: the 32-bit value meets the 64-bit pgtable_perm map only in the
    // closure, which state_equiv never calls; the refinement proof passes.
    const engine = await nodeEngine();
    const g = await gradeResponse(task, ghost, { engine, caches: nodeCaches() });
    expect(g.category, g.diagnosis).toBe('pass');
    expect(g.warnings?.map((w) => [w.code, w.span.line, w.span.column])).toEqual([['SPEC204', 22, 5]]);
    expect(g.diagnosis).toMatch(/- SPEC204 at line 22, column 5: this write would raise when pages.pgtable_perm is read/);
    // hv6's own lemmas read the shadow table: the declarative layer raises.
    expect(await strictChecker({ engine, caches: nodeCaches() })('sys_map_proc', ghost)).toBe(false);
  }, 180_000);

  it('into a compared field: syntax, the SPEC011 error at the write', async () => {
    // Upstream: state_equiv reads pages.data, the closure's z3.If raises a sort mismatch.
    const compared = ghost
      .replace('new.pages[frm].pgtable_perm[index] = z3.Extract(31, 0, perm)', 'new.pages[frm].pgtable_perm[index] = perm')
      .replace(') | perm\n', ') | z3.ZeroExt(32, z3.Extract(31, 0, perm))\n    new.pages[frm].data[index] = z3.Extract(31, 0, perm)\n');
    expect(compared).not.toBe(ghost);
    const g = await gradeResponse(task, compared, await nodeEnv());
    expect(g.category).toBe('syntax');
    expect(g.verdict?.status).toBe('spec-error');
    if (g.verdict?.status !== 'spec-error') return;
    expect([g.verdict.error.code, g.verdict.error.span.line, g.verdict.error.message]).toEqual([
      'SPEC011',
      21,
      'pages.data holds 64-bit bit-vector values but a 32-bit bit-vector was written',
    ]);
    expect(g.warnings ?? []).toEqual([]);
  }, 180_000);
});
