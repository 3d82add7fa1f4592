/**
 * Reusing the oracle's proof (docs/lemmas.md, "Reusing the oracle's proof"):
 * a step shown to be the oracle's gets the oracle's proof; any other step,
 * harmless or not, gets the full check; a stored proof applies only under
 * exactly the key it was made with.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../../src/z3/node.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { CHECKED_LEMMAS } from '../../../src/core/kernel/lemmas/index.ts';
import { proveSpecLemmas, oracleProofKey } from '../../../src/core/verify/declarative.ts';
import { verify } from '../../../src/core/verify/index.ts';
import { STORED_PROOFS, storedProof } from '../../../src/core/verify/proof-cache.ts';
import { PROOF_VERSION } from '../../../src/core/version.ts';
import { oracleHandlers } from './oracle.ts';

const T = 300_000;

/** The oracle of `handler` with `from` replaced by `to` (which must occur). */
function edited(handler: string, from: string, to: string): string {
  const src = oracleSpec(handler)!;
  expect(src).toContain(from);
  return src.replace(from, to);
}

describe("reusing the oracle's proof", () => {
  it('the committed proofs are current: one per oracle, under the key it would get now', () => {
    const stale = oracleHandlers().filter((h) => STORED_PROOFS.entries[h]?.key !== oracleProofKey(nodeCaches(), h));
    expect(stale, 'stale oracle lemma proofs: regenerate them with `npx tsx scripts/gen-lemma-proofs.ts` (about 35 min)').toEqual([]);
    expect(STORED_PROOFS.verifier).toBe(PROOF_VERSION);
  });

  it('a stored proof is tied to the lemma set, the verifier version and the step', () => {
    const h = 'sys_reclaim_page';
    expect(storedProof(h, oracleProofKey(nodeCaches(), h)!)).toBeDefined();
    expect(storedProof(h, oracleProofKey(nodeCaches(), h, ['isolation'])!)).toBeUndefined();
    expect(storedProof(h, oracleProofKey(nodeCaches(), h, [...CHECKED_LEMMAS].reverse())!)).toBeUndefined();
    expect(storedProof(h, oracleProofKey(nodeCaches(), h, CHECKED_LEMMAS, `${PROOF_VERSION}-next`)!)).toBeUndefined();
    // Another handler's proof does not apply either.
    expect(storedProof('sys_reclaim_port', oracleProofKey(nodeCaches(), h)!)).toBeUndefined();
  });

  it("an answer that is the oracle's step (term for term, or by one query) reuses the stored proof", async () => {
    const engine = await nodeEngine();
    const same = await proveSpecLemmas('sys_reclaim_page', `${oracleSpec('sys_reclaim_page')}\n# an answer`, { engine, caches: nodeCaches() });
    expect(same).toMatchObject({ status: 'proved', reused: { same: 'identical', proof: 'stored' } });
    // The same owner, written differently (the case split is settled by the
    // condition): not the same terms, but the same step.
    const spec = edited('sys_reclaim_page', 'new.pages[pn].owner = z3.BitVecVal(0, dt.pid_t)', 'new.pages[pn].owner = z3.If(old.pages[pn].type != dt.page_type.PAGE_TYPE_FREE, z3.BitVecVal(0, dt.pid_t), owner)');
    const equivalent = await proveSpecLemmas('sys_reclaim_page', spec, { engine, caches: nodeCaches() });
    expect(equivalent).toMatchObject({ status: 'proved', reused: { same: 'equivalent', proof: 'stored' } });
  }, T);

  it("a map that is the oracle's only where the invariants hold is checked where it differs, and passes", async () => {
    const engine = await nodeEngine();
    // The current process is RUNNING in every state of the invariants, so
    // this is the oracle's step there; in a state that breaks them it is not,
    // and the comparison, which asks without the invariants first, counts
    // the state map as different: that costs the reuse, never the result.
    const spec = edited(
      'sys_set_runnable',
      'new.procs[pid].state = dt.proc_state.PROC_RUNNABLE',
      'new.procs[pid].state = z3.If(old.procs[old.current].state == dt.proc_state.PROC_RUNNING, dt.proc_state.PROC_RUNNABLE, dt.proc_state.PROC_ZOMBIE)',
    );
    const r = await proveSpecLemmas('sys_set_runnable', spec, { engine, caches: nodeCaches() }, { timeoutMs: 120_000 });
    expect(r).toMatchObject({ status: 'proved', path: 'partial' });
    expect(r).not.toHaveProperty('reused');
    const full = await proveSpecLemmas('sys_set_runnable', spec, { engine, caches: nodeCaches() }, { timeoutMs: 120_000, reuse: false });
    expect(full.status).toBe('proved');
    // Written so that it is the oracle's in every state, it is shown the same.
    const anyState = edited('sys_set_runnable', 'new.procs[pid].state = dt.proc_state.PROC_RUNNABLE', 'new.procs[pid].state = (old.procs[pid].state | dt.proc_state.PROC_RUNNABLE) & dt.proc_state.PROC_RUNNABLE');
    const same = await proveSpecLemmas('sys_set_runnable', anyState, { engine, caches: nodeCaches() });
    expect(same).toMatchObject({ status: 'proved', path: 'equivalent', reused: { same: 'equivalent' } });
  }, T);

  it('a harmless ghost difference from the oracle is checked where it differs, and passes', async () => {
    const engine = await nodeEngine();
    // The freed page's shadow entry kinds are reset: no lemma reads the
    // shadow of a page that is not a page table.
    const spec = edited(
      'sys_reclaim_page',
      'new.pages[pn].type = dt.page_type.PAGE_TYPE_FREE',
      'new.pages[pn].type = dt.page_type.PAGE_TYPE_FREE\n    new.pages[pn].pgtable_type = dt.PGTYPE_NONE',
    );
    expect((await verify({ handler: 'sys_reclaim_page', spec }, { engine, caches: nodeCaches() })).status).toBe('verified');
    const r = await proveSpecLemmas('sys_reclaim_page', spec, { engine, caches: nodeCaches() }, { timeoutMs: 120_000 });
    expect(r.status).toBe('proved');
    expect(r).not.toHaveProperty('reused');
    // A reused proof names the same checks as the full one.
    const reused = await proveSpecLemmas('sys_reclaim_page', oracleSpec('sys_reclaim_page')!, { engine, caches: nodeCaches() });
    if (r.status === 'spec-error' || reused.status === 'spec-error') throw new Error('spec error');
    expect(reused.reused).toBeDefined();
    expect(reused.results.map((x) => x.name)).toEqual(r.results.map((x) => x.name));
  }, T);
});
