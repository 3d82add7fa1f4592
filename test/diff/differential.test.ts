/**
 * Differential test of our C front end and symbolic executor against gcc on
 * the real kernel (docs/differential.md): for every handler, hundreds of
 * random concrete states are run natively (gcc, test/diff/driver.c) and
 * through our executor's terms evaluated on the same state; the return
 * value, whether an assert or panic fires, the TLB/IOTLB flags and the
 * post-state must agree exactly.
 *
 * OSV_DIFF_CASES (default 300) sets the cases per handler, OSV_DIFF_SEED
 * (default 0) the first seed. A failing case prints the command that
 * reproduces it (scripts/diff-case.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import type { Term } from '../../src/core/smt/term.ts';
import { buildModel } from './compare.ts';
import { HAS_GCC, ROOT, runNative } from './native.ts';
import { type CaseResult, type Setup, cleanup, handlerIndex, report, runCases, setup, withOverrides } from './run.ts';

const CASES = Number(process.env.OSV_DIFF_CASES ?? 300);
const SEED = Number(process.env.OSV_DIFF_SEED ?? 0);

if (!HAS_GCC) console.warn('gcc is not installed: skipping the differential test of the symbolic executor against gcc');

/** The constant return values a handler's code can produce (the leaves of our return term). */
function returnValues(t: Term, out = new Set<string>(), seen = new Set<number>()): Set<string> {
  if (seen.has(t.id)) return out;
  seen.add(t.id);
  if (t.op === 'ite') {
    returnValues(t.args[1], out, seen);
    returnValues(t.args[2], out, seen);
  } else if (t.op === 'const') out.add(`ok ${BigInt.asIntN(32, t.value as bigint)}`);
  return out;
}

/** Return values only a state that breaks an invariant reaches (current is not a valid pid, yet owns the object). */
const ONLY_FROM_BROKEN: Record<string, string[]> = {
  sys_map_pcipage: ['ok -3'],
  sys_map_iommu_frame: ['ok -3'],
};

describe.skipIf(!HAS_GCC)('the symbolic executor computes what gcc computes, on the kernel', () => {
  let s: Setup;
  const seeds = Array.from({ length: CASES }, (_, i) => SEED + i);
  const stats: string[] = [];
  beforeAll(() => {
    s = setup();
  });
  afterAll(() => {
    if (s) cleanup(s);
    // How the cases of each handler ended, for the record.
    if (stats.length) console.log(`differential: ${CASES} cases per handler from seed ${SEED}\n${stats.join('\n')}`);
  });

  for (const handler of HANDLERS) {
    it(`${handler.name}: ${CASES} random states agree`, () => {
      const h = handlerIndex(handler.name);
      const model = buildModel(s.program, handler);
      const results = runCases(s, h, seeds, model);
      const bad = results.filter((r) => r.outcome.mismatches.length > 0);
      const kinds = new Map<string, number>();
      for (const r of results) kinds.set(r.outcome.kind, (kinds.get(r.outcome.kind) ?? 0) + 1);
      stats.push(`${handler.name}: ${[...kinds].sort().map(([k, n]) => `${k} x${n}`).join(', ')}`);

      expect(bad.slice(0, 5).map((r) => report(r)).join('\n\n'), `${bad.length} of ${results.length} cases disagree`).toBe('');

      // The states must reach every return value the code has (checked when there are enough cases).
      if (CASES >= 200) {
        const skip = new Set(ONLY_FROM_BROKEN[handler.name] ?? []);
        const missing = [...returnValues(model.ret)].filter((v) => !kinds.has(v) && !skip.has(v));
        expect(missing, `return values no case produced (seen: ${[...kinds.keys()].join(', ')})`).toEqual([]);
      }
      // Most cases keep the invariants and get past the safety checks.
      const ok = results.filter((r) => r.outcome.kind.startsWith('ok')).length;
      expect(ok).toBeGreaterThan(results.length * 0.8);
    });
  }

  it('reports a kernel change on one side as a disagreement (a mutant linked into our executor only)', () => {
    const mutant = join(ROOT, 'test/cases/mutants/sys_kill/kill-running.c');
    const m = withOverrides(s, [{ path: mutant, text: readFileSync(mutant, 'utf8') }]);
    const results: CaseResult[] = runCases(m, handlerIndex('sys_kill'), Array.from({ length: 60 }, (_, i) => i));
    const bad = results.filter((r) => r.outcome.mismatches.length > 0);
    expect(bad.length).toBeGreaterThan(0);
    // The mutant turns a RUNNING process into a ZOMBIE at once: exactly the cases that kill one disagree.
    for (const r of results) {
      const killsRunning = r.outcome.kind === 'ok 0' && r.c.state.get('proc_table.state', [r.c.args[0]]) === 3n;
      expect(r.outcome.mismatches.length > 0, report(r)).toBe(killsRunning);
    }
    expect(bad[0].outcome.mismatches.join('\n')).toMatch(/^proc_table\.state\[\d+\]: ours 0x5, gcc 0x3/m);
  });

  it('the driver reports asserts and faults, then runs the next case from a clean state', () => {
    const L = s.layout;
    const cell = (key: string, idx: number[], value: bigint) => {
      const l = L.leaf(key);
      return { g: l.g, off: L.offset(l, idx), size: l.size, value };
    };
    const kill = handlerIndex('sys_kill');
    const name = handlerIndex('sys_set_proc_name');
    const out = runNative(s.driver, [
      // current = 0: get_proc(current) asserts.
      { cells: [], handler: name, args: [1n, 2n] },
      // A RUNNABLE pid whose ready.prev is out of range: the unlink indexes proc_table[1000].
      { cells: [cell('proc_table.state', [5], 2n), cell('proc_table.ready.prev', [5], 1000n)], handler: kill, args: [5n] },
      // current = 3: both names change.
      { cells: [cell('current', [], 3n)], handler: name, args: [0x1122n, 0x3344n] },
      // Nothing left over: pid 5 is UNUSED again, so the kill fails and changes nothing.
      { cells: [], handler: kill, args: [5n] },
    ]);
    expect(out.map((r) => r.status)).toEqual(['assert', 'trap-ill', 'ok', 'ok']);
    const nameLeaf = L.leaf('proc_table.name');
    expect(out[2].ret).toBe(0n);
    expect(out[2].changes).toEqual([
      { g: nameLeaf.g, off: L.offset(nameLeaf, [3, 0]), bytes: Uint8Array.from([0x22, 0x11]) },
      { g: nameLeaf.g, off: L.offset(nameLeaf, [3, 1]), bytes: Uint8Array.from([0x44, 0x33]) },
    ]);
    expect(out[3].ret).toBe(0xffffffean); // -EINVAL
    expect(out[3].changes).toEqual([]);
  });
});
