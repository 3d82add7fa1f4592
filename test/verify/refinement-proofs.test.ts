/**
 * The committed refinement proofs (src/core/verify/refinement-proofs.ts)
 * and the goals a worker knows to hold (proved-goals.ts): every oracle has
 * both proofs under the key it gets today; with them, a fresh worker
 * verifies an oracle of the kernel as shipped without a solver query, and
 * an answer that states the oracle's goals asks only for the goals it
 * changes; what differs is still refuted, on the kernel and on a buggy
 * implementation (which no stored proof is about); and the key follows
 * every obligation. The engine is the real one, counted by a wrapper.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import type { SmtEngine } from '../../src/core/smt/solver.ts';
import { buildSteps, oracleRefinementKeys } from '../../src/core/verify/driver.ts';
import { VerifierCaches, verify } from '../../src/core/verify/index.ts';
import { implObligations } from '../../src/core/verify/refinement.ts';
import { refinementProofKey, storedRefinementProof } from '../../src/core/verify/refinement-proofs.ts';

/** The real engine, with its checks counted. */
async function counted(): Promise<{ engine: SmtEngine; checks: () => number }> {
  const real = await nodeEngine();
  let n = 0;
  const engine: SmtEngine = { ...real, check: (a, o) => (n++, real.check(a, o)) };
  return { engine, checks: () => n };
}

const HANDLER = 'sys_set_runnable';
const oracle = oracleSpec(HANDLER)!;
/** The oracle that also marks the process killed: one field differs. */
const wrongField = oracle.replace(/return cond, util\.If\(cond, new, old\)/, 'new.procs[pid].killed = z3.BoolVal(True)\n    return cond, util.If(cond, new, old)');
const unsafe = readFileSync('test/cases/mutants/sys_set_runnable/unchecked-pid.c', 'utf8');

describe('committed refinement proofs', () => {
  it('cover both sides of every oracle under the key it gets today', async () => {
    const env = { engine: await nodeEngine(), caches: new VerifierCaches() };
    const missing: string[] = [];
    for (const h of HANDLERS) {
      const keys = oracleRefinementKeys(h.name, env);
      for (const side of ['impl', 'spec'] as const) if (!keys?.[side] || !storedRefinementProof(h.name, side, keys[side]!)) missing.push(`${h.name} ${side}`);
    }
    // If this fails: npx tsx scripts/gen-lemma-proofs.ts (it makes these proofs too).
    expect(missing).toEqual([]);
  }, 120_000);

  it('let a fresh worker verify an oracle without a query, and an answer with one changed field ask only for that field', async () => {
    const { engine, checks } = await counted();
    const env = { engine, caches: new VerifierCaches() };
    expect((await verify({ handler: HANDLER, spec: oracle }, env)).status).toBe('verified');
    expect(checks()).toBe(0);

    // A wrong answer in a fresh worker: refuted on the field it changes, and on nothing else.
    const fresh = { engine, caches: new VerifierCaches() };
    const v = await verify({ handler: HANDLER, spec: wrongField }, fresh);
    expect(v.status === 'refuted' && v.failed).toEqual(['procs.killed']);
    expect(v.status === 'refuted' && v.counterexample?.replayed).toBe(true);
    // A reachable state found the failure (refuted by running, docs/design.md §3), and every other goal was the
    // oracle's: no query at all.
    expect(v.status === 'refuted' && v.foundBy).toBe('run');
    expect(checks()).toBe(0);
    // Without the run, one query finds it.
    const solverOnly = await verify({ handler: HANDLER, spec: wrongField, run: false }, { engine, caches: new VerifierCaches() });
    expect(solverOnly.status === 'refuted' && solverOnly.failed).toEqual(['procs.killed']);
    expect(solverOnly.status === 'refuted' && solverOnly.foundBy).toBe('solver');
    expect(checks()).toBeGreaterThanOrEqual(1);
    expect(checks()).toBeLessThanOrEqual(2);
  }, 120_000);

  it('are not used for another implementation: a buggy one is still refuted', async () => {
    const { engine, checks } = await counted();
    const env = { engine, caches: new VerifierCaches() };
    const v = await verify({ handler: HANDLER, spec: oracle, implSource: unsafe }, env);
    expect(v.status === 'refuted' && v.failed).toContain('safety');
    expect(checks()).toBeGreaterThan(0);
  }, 120_000);

  it('are keyed by every obligation: another goal or part gives another key', async () => {
    const env = { engine: await nodeEngine(), caches: new VerifierCaches() };
    const steps = buildSteps({ handler: HANDLER, spec: oracle }, env);
    if (!steps.ok) throw new Error('the oracle does not run');
    const obligations = implObligations(steps.step);
    const key = refinementProofKey(HANDLER, 'impl', steps.step, obligations);
    expect(storedRefinementProof(HANDLER, 'impl', key)).toBeDefined();
    const safety = obligations[0];
    const weaker = [{ ...safety, parts: safety.parts!.slice(1) }, obligations[1]];
    const otherGoal = [{ ...safety, goal: obligations[1].goal }, obligations[1]];
    for (const changed of [weaker, otherGoal]) expect(refinementProofKey(HANDLER, 'impl', steps.step, changed)).not.toBe(key);
    // The same obligations as the other side, or of another handler, are other proofs.
    expect(refinementProofKey(HANDLER, 'spec', steps.step, obligations)).not.toBe(key);
    expect(refinementProofKey('sys_kill', 'impl', steps.step, obligations)).not.toBe(key);
  }, 60_000);
});
