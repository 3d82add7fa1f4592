/**
 * Quantifiers and user-chosen z3 names in a syscall spec, through verify()
 * on the kernel. A quantified spec the solver proves verifies; one it
 * refutes is refuted, as upstream (hv6 + z3py gets `sat` and the test
 * fails): the solver's counterexample, marked as not replayed (a quantifier
 * has no concrete evaluation here), with the SPEC031 warning at the
 * quantifier; never a spec error or an internal error. Names a spec
 * declares never collide with the verifier's own (`arg.pid`, `procs.state`).
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine, nodeEnv } from '../../src/z3/node.ts';
import { verify } from '../../src/core/verify/index.ts';

const kill = (extra: string, cond = 'is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE') => `def sys_kill(old, pid):
${extra}    cond = z3.And(${cond})
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state == dt.proc_state.PROC_RUNNING, old.procs[pid].state, dt.proc_state.PROC_ZOMBIE)
    return cond, util.If(cond, new, old)
`;
const Q = "    q = z3.BitVec('q', 64)\n";

describe('quantifiers and declared names in verify()', () => {
  it('verifies a quantified spec the solver proves', async () => {
    const v = await verify({ handler: 'sys_kill', spec: kill(Q, 'is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE, z3.ForAll([q], z3.Implies(z3.ULT(q, pid), z3.ULE(q, pid)))') }, await nodeEnv());
    expect(v.status).toBe('verified');
  }, 120_000);

  it.each(['ForAll', 'Exists'])('a refuted spec with %s is refuted on the solver\'s word, with SPEC031 as a warning at the quantifier', async (kind) => {
    const spec = kill(Q, `is_pid_valid(pid), z3.${kind}([q], z3.ULE(q, pid))`);
    const v = await verify({ handler: 'sys_kill', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.failed).toContain('cond');
    const c = v.counterexample!;
    expect(c.replayed).toBe(false);
    expect(c.quantified).toBe(true);
    // The condition is under the quantifier; the arguments and the return value are shown.
    expect(c.specCond).toBeNull();
    expect(c.args[0].value).toMatch(/^\d+$/);
    expect(c.implRet).toMatch(/^-?\d+$/);
    const w = v.warnings ?? [];
    expect(w.map((d) => [d.code, d.severity])).toEqual([['SPEC031', 'warning']]);
    expect(w[0].span.line).toBe(3);
    expect(spec.slice(w[0].span.offset, w[0].span.endOffset)).toBe(kind);
  }, 120_000);

  it('a quantifier in a written field, refuted, is refuted too, with the warning', async () => {
    const spec = `def sys_kill(old, pid):
    q = z3.BitVec('q', 64)
    new = old.copy()
    new.procs[pid].state = util.If(z3.ForAll([q], z3.ULE(q, pid)), util.i64(1), util.i64(2))
    return z3.BoolVal(True), new
`;
    const v = await verify({ handler: 'sys_kill', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    expect(v.status === 'refuted' && v.failed).toContain('procs.state');
    expect(v.warnings?.map((d) => d.code)).toEqual(['SPEC031']);
  }, 120_000);

  it("names a spec declares never meet the verifier's", async () => {
    const engine = await nodeEngine();
    const clash = kill(
      "    a = z3.BitVec('arg.pid', 32)\n    b = z3.BitVec('arg.pid', 64)\n    f = z3.Function('procs.state', dt.pid_t, dt.uint64_t)\n",
      'is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE, z3.Implies(a == 5, a != 6), z3.Implies(f(b) == 1, f(b) != 2)',
    );
    expect((await verify({ handler: 'sys_kill', spec: clash }, { engine, caches: nodeCaches() })).status).toBe('verified');
    // Were b the verifier's arg.pid, this would verify; it is a constant of the spec's own, so the claim b == pid fails.
    const same = kill("    b = z3.BitVec('arg.pid', 64)\n", 'is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE, b == pid');
    expect((await verify({ handler: 'sys_kill', spec: same }, { engine, caches: nodeCaches() })).status).toBe('refuted');
  }, 120_000);
});
