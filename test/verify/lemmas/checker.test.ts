import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../../src/z3/node.ts';
import { freshState } from '../../../src/core/kernel/state.ts';
import { variable } from '../../../src/core/smt/term.ts';
import type { QueryInfo } from '../../../src/core/verify/fact-prover.ts';
import { proveStepLemmas, footprint } from '../../../src/core/verify/step-lemmas.ts';
import { Step, o, u64 } from './steps.ts';

describe('the checker', () => {
  it('a step that leaves every field a lemma reads alone needs no solver query', async () => {
    const pre = freshState();
    const v = variable('arg.v', 64);
    // Only a file's offset changes: no invariant or lemma reads it.
    const post = new Step(pre).set('files.offset', [u64(3)], v).commit(o.ult(v, u64(10)), pre);
    const queries: QueryInfo[] = [];
    const r = await proveStepLemmas({ pre, cond: o.TRUE, post, handler: 'sys_lseek' }, await nodeEngine(), { onQuery: (q) => queries.push(q) });
    expect(queries).toEqual([]);
    for (const x of [...r.lemmas, ...r.invariants]) expect(x.status).toBe('proved');
  });

  it('a step that changes a field some facts read queries exactly those facts', async () => {
    const pre = freshState();
    const pid = variable('arg.pid', 64);
    const fd = variable('arg.fd', 32);
    // Only ipc_fd changes, arbitrarily: only the invariant about a sleeping
    // process's receiving fd reads it, and it is broken (from the invariants
    // alone, and again with the first lemma assumed, which settles it).
    const post = new Step(pre).set('procs.ipc_fd', [pid], fd).commit(o.TRUE, pre);
    const queries: QueryInfo[] = [];
    const r = await proveStepLemmas({ pre, cond: o.TRUE, post, handler: 'x' }, await nodeEngine(), { onQuery: (q) => queries.push(q) });
    expect(queries.map((q) => q.tag)).toEqual(['inv/sleeping_ipc_fd_empty', 'inv.isolation/sleeping_ipc_fd_empty']);
    expect(r.invariants.filter((x) => x.status !== 'proved')).toEqual([expect.objectContaining({ name: 'sleeping_ipc_fd_empty', status: 'failed' })]);
    for (const x of r.lemmas) expect(x.status).toBe('proved');
  });

  it("the footprint holds the step's update points and no probe", () => {
    const pre = freshState();
    const pid = variable('arg.pid', 64);
    const to = variable('arg.to', 64);
    const post = new Step(pre).inc('procs.nr_pages', pid, [to]).commit(o.TRUE, pre);
    const names = footprint(post).map((t) => t.toString());
    expect(names).toContain('old.procs.nr_pages.perm_inv(arg.pid, arg.to)');
    expect(names).toContain('old.procs.nr_pages.perm(arg.pid, old.procs.nr_pages(arg.pid))');
    expect(names.some((n) => n.includes('probe.'))).toBe(false);
  });
});
