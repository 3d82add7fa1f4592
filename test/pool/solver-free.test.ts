/**
 * A verifier worker's verification before Z3 has loaded
 * (src/core/service/serve.ts `verifyWithoutSolver`, src/core/service/solver-free.ts):
 * it answers exactly what `verify` answers when the verification takes no
 * query (a refutation a concrete state finds included), null when it would
 * take one, and it waits for a Z3 job running on the same caches.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { serveVerifier } from '../../src/core/service/serve.ts';
import type { Verdict } from '../../src/core/verify/verdict.ts';

/** A verdict without its times, which differ from run to run. */
function untimed(v: Verdict | null): unknown {
  return JSON.parse(JSON.stringify(v, (k, x) => (k === 'ms' ? undefined : x)));
}

const HANDLERS = ['sys_dup2', 'sys_alloc_pdpt', 'sys_kill'];
/** sys_kill that leaves the process's killed flag clear: refuted by running, in a reachable state (no query). */
const WRONG = oracleSpec('sys_kill')!.replace('killed = z3.BoolVal(True)', 'killed = z3.BoolVal(False)');
/** sys_map_pcipage without its bound on the entry index: refuted, but no state of the bank shows it, so it takes a query. */
const NEEDS_QUERY = oracleSpec('sys_map_pcipage')!.replace('        z3.ULT(index, 512),\n', '');

describe('verifying without the solver', () => {
  it('answers what verify answers when no query is needed, null when one is, and never loads Z3 for it', async () => {
    let loads = 0;
    const waiting = serveVerifier({ loadEngine: () => (loads++, new Promise(() => undefined)), isolated: () => true });
    const z3 = serveVerifier({ loadEngine: nodeEngine, isolated: () => true });
    for (const handler of HANDLERS) {
      for (const strict of [false, true]) {
        const req = { handler, spec: oracleSpec(handler)!, strict };
        const quick = await waiting.verifyWithoutSolver(req);
        expect(quick?.status).toBe('verified');
        expect(untimed(quick)).toEqual(untimed(await z3.verify(req)));
      }
    }
    const broken = { handler: 'sys_kill', spec: WRONG.replace('def sys_kill(old, pid):', 'def sys_kill(old, pid:') };
    const error = await waiting.verifyWithoutSolver(broken);
    expect(error?.status).toBe('spec-error');
    expect(untimed(error)).toEqual(untimed(await z3.verify(broken)));
    // A refutation a reachable state shows is answered as verify answers it, found by running.
    const run = await waiting.verifyWithoutSolver({ handler: 'sys_kill', spec: WRONG });
    expect(run).toMatchObject({ status: 'refuted', foundBy: 'run' });
    expect(await z3.verify({ handler: 'sys_kill', spec: WRONG })).toMatchObject({ status: 'refuted', foundBy: 'run' });
    // One that needs Z3's model is not; an implementation of the user's own needs its proofs.
    expect(NEEDS_QUERY).not.toBe(oracleSpec('sys_map_pcipage'));
    expect(await waiting.verifyWithoutSolver({ handler: 'sys_map_pcipage', spec: NEEDS_QUERY })).toBeNull();
    expect(await z3.verify({ handler: 'sys_map_pcipage', spec: NEEDS_QUERY })).toMatchObject({ status: 'refuted' });
    expect(await waiting.verifyWithoutSolver({ handler: 'sys_kill', spec: oracleSpec('sys_kill')!, implSource: 'int x;' })).toBeNull();
    // A handler the kernel does not have fails verify; here it is null, and verify says why.
    expect(await waiting.verifyWithoutSolver({ handler: 'sys_nothing', spec: WRONG })).toBeNull();
    expect(loads).toBe(0);
  }, 120_000);

  it("answers a foreseen request with the verification foresee began, once, and any other request afresh", async () => {
    const api = serveVerifier({ loadEngine: () => new Promise(() => undefined), isolated: () => true });
    const req = { handler: 'sys_kill', spec: WRONG, timeoutMs: 30_000, strict: false };
    await api.foresee(req);
    const span = (await api.timings()).withoutSolver;
    expect(span).toBeDefined();
    // The page's request: the same fields (one given as undefined, as the playground builds it), in another order.
    const first = await api.verifyWithoutSolver({ strict: false, implSource: undefined, spec: WRONG, handler: 'sys_kill', timeoutMs: 30_000 });
    expect(first).toMatchObject({ status: 'refuted', foundBy: 'run' });
    // No second verification ran for it.
    expect((await api.timings()).withoutSolver).toEqual(span);
    // Asked again: verified again (a new span), with the same answer.
    const again = await api.verifyWithoutSolver(req);
    expect((await api.timings()).withoutSolver).not.toEqual(span);
    expect(untimed(again)).toEqual(untimed(first));
    // Not the same request (another limit): not the foreseen verdict.
    void api.foresee({ ...req, spec: oracleSpec('sys_kill')! });
    const other = await api.verifyWithoutSolver({ ...req, spec: oracleSpec('sys_kill')!, timeoutMs: 29_000 });
    expect(other?.status).toBe('verified');
    expect(other).not.toBe(await api.verifyWithoutSolver({ ...req, spec: oracleSpec('sys_kill')! }));
  }, 60_000);

  it('waits for a Z3 job running on the same caches', async () => {
    // Z3's first check waits until the test lets it go, so the Z3 job is surely running meanwhile.
    let entered!: () => void;
    const inCheck = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const api = serveVerifier({
      loadEngine: async () => {
        const real = await nodeEngine();
        return { ...real, check: async (...args: Parameters<typeof real.check>) => (entered(), await released, real.check(...args)), exclusive: real.exclusive };
      },
      isolated: () => true,
    });
    expect(NEEDS_QUERY).not.toBe(oracleSpec('sys_map_pcipage'));
    const order: string[] = [];
    const z3Job = api.verify({ handler: 'sys_map_pcipage', spec: NEEDS_QUERY }).then((v) => order.push(`z3 ${v.status}`));
    await inCheck;
    const quick = api.verifyWithoutSolver({ handler: 'sys_dup2', spec: oracleSpec('sys_dup2')! }).then((v) => order.push(`quick ${v?.status}`));
    await new Promise((r) => setTimeout(r, 300));
    expect(order).toEqual([]);
    release();
    await Promise.all([z3Job, quick]);
    expect(order).toEqual(['z3 refuted', 'quick verified']);
  }, 120_000);
});
