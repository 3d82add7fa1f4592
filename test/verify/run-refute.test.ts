import { beforeAll, describe, expect, it } from 'vitest';
import { jsonVerdict } from '../../src/cli/commands/verify.ts';
import { nodeEnv } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { serial } from '../../src/core/pool/serial.ts';
import { solverFreeEngine } from '../../src/core/service/solver-free.ts';
import { buildSteps, refuteOnce } from '../../src/core/verify/driver.ts';
import { VerifierCaches, type VerifyEnv, verify } from '../../src/core/verify/index.ts';
import { specObligations } from '../../src/core/verify/refinement.ts';
import { refuteByRunning } from '../../src/core/verify/run-refute.ts';
import { specMutants } from './spec-mutants.ts';

/** sys_kill without "which is not already dead": only a zombie's pid tells it from the oracle. */
const KILL_ZOMBIE = `def sys_kill(old, pid):
    cond = z3.And(is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED)
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING, dt.proc_state.PROC_ZOMBIE, old.procs[pid].state)
    return cond, util.If(cond, new, old)
`;

/** sys_alloc_pd without "the entry is not present yet": only a state where the entry is in use (after a first call) tells it from the oracle. */
function allocPdAgain(): string {
  const oracle = oracleSpec('sys_alloc_pd')!;
  const check = '        # the entry is not present yet\n        old.pages[frm].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),\n';
  if (!oracle.includes(check)) throw new Error("sys_alloc_pd's oracle no longer checks the entry as this test expects");
  return oracle.replace(check, '');
}

/** sys_free_frame that also zeroes the freed frame: the kernel leaves its words, which only a frame holding data shows. */
const FREE_FRAME_ZEROED = `def sys_free_frame(old, frm, index, to):
    cur = old.current
    pfn = z3.UDiv(old.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + to
    entry = old.pages[frm].data(index)
    cond = z3.And(
        is_pn_valid(frm),
        old.pages[frm].type == dt.page_type.PAGE_TYPE_X86_PT,
        old.pages[frm].owner == cur,
        z3.ULT(index, 512),
        is_pn_valid(to),
        old.pages[to].type == dt.page_type.PAGE_TYPE_FRAME,
        old.pages[to].owner == cur,
        entry & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        z3.Extract(63, 40, pfn) == z3.BitVecVal(0, 24),
        z3.Extract(39, 0, pfn) == z3.Extract(51, 12, entry),
    )
    new = old.copy()
    new.pages[frm].data[index] = z3.BitVecVal(0, dt.pte_t)
    new.pages[to].owner = z3.BitVecVal(0, dt.pid_t)
    new.pages[to].type = dt.page_type.PAGE_TYPE_FREE
    new.pages[to].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[cur].nr_pages[to] -= 1
    new.flush_tlb(cur)
    return cond, util.If(cond, new, old)
`;

/** sys_alloc_iommu_pdpt that rebuilds the entry's address from a page number: the kernel adds to the region's start, which only a region not on a page boundary shows. */
const IOMMU_PDPT_BY_PAGE = `def sys_alloc_iommu_pdpt(old, frm, index, to, perm):
    cur = old.current
    cond = z3.And(
        is_pn_valid(to),
        old.pages[to].type == dt.page_type.PAGE_TYPE_FREE,
        is_pn_valid(frm),
        old.pages[frm].type == dt.page_type.PAGE_TYPE_IOMMU_PML4,
        old.pages[frm].owner == cur,
        z3.ULT(index, 512),
        perm & (dt.MAX_INT64 ^ (dt.DMAR_PTE_R | dt.DMAR_PTE_W)) == z3.BitVecVal(0, dt.dmar_pte_t),
        old.pages[frm].data(index) == z3.BitVecVal(0, dt.uint64_t),
    )
    new = old.copy()
    new.pages[frm].data[index] = ((z3.UDiv(new.pages_ptr_to_int, util.i64(dt.PAGE_SIZE)) + to) << dt.PTE_PFN_SHIFT) | perm
    new.pages[frm].pgtable_pn[index] = to
    new.pages[frm].pgtable_perm[index] = perm
    new.pages[to].type = dt.page_type.PAGE_TYPE_IOMMU_PDPT
    new.pages[to].owner = cur
    new.pages[to].data = z3.BitVecVal(0, dt.uint64_t)
    new.procs[cur].nr_pages[to] += 1
    new.flush_iotlb()
    return cond, util.If(cond, new, old)
`;

/** sys_alloc_intremap that also flushes the IOTLB: the kernel writes no flag, which only a state with the flag clear shows. */
function intremapFlushed(): string {
  const oracle = oracleSpec('sys_alloc_intremap')!;
  const ret = '    return cond, util.If(cond, new, old)';
  if (!oracle.includes(ret)) throw new Error("sys_alloc_intremap's oracle no longer ends as this test expects");
  return oracle.replace(ret, `    new.flush_iotlb()\n\n${ret}`);
}

/** Ten handlers whose oracles' mutants are compared with the solver's verdicts. */
const MUTATED = ['sys_kill', 'sys_dup', 'sys_close', 'sys_set_runnable', 'sys_alloc_port', 'sys_reclaim_port', 'sys_alloc_vector', 'sys_lseek', 'sys_reap', 'sys_map_proc'];

describe('refutation by running (docs/design.md §3, "Refuted by running")', () => {
  let z3: VerifyEnv;
  // One worker's caches for every solver-free verification here (the kernel is parsed once).
  const shared: VerifyEnv = { engine: solverFreeEngine(serial()), caches: new VerifierCaches(), solverFree: true };
  const solverFree = () => shared;
  beforeAll(async () => {
    z3 = await nodeEnv();
  });

  it('refutes a spec without the solver where a reachable state shows it wrong, and the solver agrees', async () => {
    const v = await verify({ handler: 'sys_kill', spec: KILL_ZOMBIE }, solverFree());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.foundBy).toBe('run');
    expect((jsonVerdict('sys_kill', v, v.ms) as { verdict: { found_by?: string } }).verdict.found_by).toBe('run');
    expect(v.failed).toEqual(['cond']);
    expect(v.counterexample?.replayed).toBe(true);
    // The pid is a zombie's: the kernel refuses (-ESRCH or the like), the spec lets the call succeed.
    expect(v.counterexample?.specCond).toBe(true);
    expect(v.counterexample?.implRet).not.toBe('0');
    const solver = await verify({ handler: 'sys_kill', spec: KILL_ZOMBIE, run: false }, z3);
    expect(solver.status === 'refuted' && solver.foundBy).toBe('solver');
    expect(solver.status === 'refuted' && solver.failed).toContain('cond');
  });

  it('calls the handler a second time, in the state after its own call: an entry the first call filled', async () => {
    const spec = allocPdAgain();
    const v = await verify({ handler: 'sys_alloc_pd', spec }, solverFree());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.foundBy).toBe('run');
    expect(v.failed).toContain('cond');
    expect(v.counterexample?.replayed).toBe(true);
    // The spec lets the second call succeed; the kernel refuses it (the entry is present).
    expect(v.counterexample?.specCond).toBe(true);
    expect(v.counterexample?.implRet).not.toBe('0');
    const solver = await verify({ handler: 'sys_alloc_pd', spec, run: false }, z3);
    expect(solver.status === 'refuted' && solver.failed).toContain('cond');
  });

  it.each([
    ['a freed frame that holds data', 'sys_free_frame', () => FREE_FRAME_ZEROED, 'pages.data'],
    ['an IOMMU flag that is clear', 'sys_alloc_intremap', intremapFlushed, 'iotlbinv'],
    ['a page region not on a page boundary', 'sys_alloc_iommu_pdpt', () => IOMMU_PDPT_BY_PAGE, 'pages.data'],
  ])('changes a cell the goal reads: %s', async (_what, handler, spec, field) => {
    const v = await verify({ handler, spec: spec() }, solverFree());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.foundBy).toBe('run');
    expect(v.failed).toEqual([field]);
    expect(v.counterexample?.replayed).toBe(true);
    const solver = await verify({ handler, spec: spec(), run: false }, z3);
    expect(solver.status === 'refuted' && solver.failed).toContain(field);
  });

  it('changes no cell into a refutation of the oracles of those handlers', () => {
    const env = solverFree();
    for (const h of ['sys_free_frame', 'sys_alloc_intremap', 'sys_alloc_iommu_pdpt', 'sys_free_pd', 'sys_reclaim_intremap']) {
      const steps = buildSteps({ handler: h, spec: oracleSpec(h)! }, env);
      if (!steps.ok) throw new Error(h);
      expect(refuteByRunning(h, steps.step, specObligations(steps.step), steps.assume, env.caches), h).toBeUndefined();
    }
  });

  it('finds nothing in the oracles (no state refutes a spec the committed proofs prove)', () => {
    const env = solverFree();
    for (const h of MUTATED) {
      const steps = buildSteps({ handler: h, spec: oracleSpec(h)! }, env);
      if (!steps.ok) throw new Error(h);
      expect(refuteByRunning(h, steps.step, specObligations(steps.step), steps.assume, env.caches), h).toBeUndefined();
    }
  });

  it("agrees with the solver on mutants of ten handlers' oracles: every refutation by running is one of the solver's", async () => {
    const env = solverFree();
    const refutedByRun = new Set<string>();
    for (const h of MUTATED) {
      for (const m of specMutants(oracleSpec(h)!).slice(0, 4)) {
        const steps = buildSteps({ handler: h, spec: m.text }, env);
        if (!steps.ok) continue;
        const run = refuteByRunning(h, steps.step, specObligations(steps.step), steps.assume, env.caches);
        if (!run) continue;
        refutedByRun.add(h);
        const z3Steps = buildSteps({ handler: h, spec: m.text }, z3);
        if (!z3Steps.ok) throw new Error(`${h} ${m.how}`);
        expect(await refuteOnce(z3Steps, z3, 30_000), `${h} ${m.how}`).toBe('refuted');
        // One per handler here; perf/run-refute.ts compares every mutant.
        break;
      }
    }
    expect([...refutedByRun].sort()).toEqual([...MUTATED].sort());
  }, 120_000);
});
