/**
 * Counterexamples come from well-formed states when one exists (enum cells
 * hold members, counts within the kernel's limits, small arguments), and say
 * so when none does. Real Z3, real kernel, real task variants.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { findTask } from '../../src/core/tasks/load.ts';
import { ENUMS } from '../../src/core/kernel/constants.ts';
import { NOT_WELL_FORMED } from '../../src/core/verify/counterexample.ts';
import { verify } from '../../src/core/verify/index.ts';
import type { Counterexample } from '../../src/core/verify/verdict.ts';

const oracle = (h: string) => readFileSync(`tasks/hv6/specs/${h}.py`, 'utf8');
const STATE_NAMES = Object.keys(ENUMS.proc_state).filter((n) => !n.endsWith('FORCE_WIDTH'));

async function cexOf(handler: string, spec: string, implSource = ''): Promise<Counterexample> {
  const v = await verify({ handler, spec, implSource }, await nodeEnv());
  expect(v.status).toBe('refuted');
  if (v.status !== 'refuted' || !v.counterexample) throw new Error('no counterexample');
  return v.counterexample;
}

/** The values of context facts `leaf[...] = value`. */
const contextValues = (c: Counterexample, leaf: string) =>
  c.context.filter((x) => x.startsWith(`${leaf}[`)).map((x) => x.slice(x.indexOf(' = ') + 3));

describe('well-formed counterexamples', () => {
  it('a buggy sys_kill is shown from a state whose process states are members of the enum', async () => {
    const task = await findTask('sys_kill-v3');
    const c = await cexOf('sys_kill', oracle('sys_kill'), task!.impl_override);
    expect(c.wellFormed).toBe(true);
    const states = contextValues(c, 'proc_table.state');
    expect(states.length).toBeGreaterThan(0);
    for (const s of states) expect(STATE_NAMES).toContain(s);
    for (const r of c.rows.filter((x) => x.field === 'procs.state')) {
      for (const v of [r.old, r.spec, r.impl]) expect(STATE_NAMES).toContain(v);
    }
    // Small arguments, printed in decimal.
    for (const a of c.args) expect(a.value).toMatch(/^-?\d+$/);
  });

  it('counts stay within the kernel limits and arguments are small', async () => {
    const c = await cexOf('sys_reclaim_vector', readFileSync('test/cases/refute/sys_reclaim_vector/count_on_caller.py', 'utf8'));
    expect(c.wellFormed).toBe(true);
    for (const a of c.args) expect(Number(a.value)).toBeLessThan(4096);
    const row = c.rows.find((r) => r.field === 'procs.nr_vectors' && r.differs);
    expect(row).toBeDefined();
    for (const v of [row!.old, row!.spec, row!.impl]) {
      expect(v).toMatch(/^\d+$/);
      expect(Number(v)).toBeLessThanOrEqual(256);
    }
  });

  it('falls back to the raw model, and says so, when only an ill-formed state shows the failure', async () => {
    // The spec refuses a process state of 6, which no well-formed state has: the only disagreement is there.
    const spec = oracle('sys_kill').replace(
      '        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,\n',
      '        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,\n        old.procs[pid].state != 6,\n',
    );
    expect(spec).toContain('!= 6');
    const c = await cexOf('sys_kill', spec);
    expect(c.wellFormed).toBe(false);
    expect(c.summary).toContain(NOT_WELL_FORMED);
    // Old and new values of an enum field print the same way, member or not.
    const row = c.rows.find((r) => r.field === 'procs.state')!;
    expect(row.old).toBe('6 (not a member)');
    expect(row.impl).toBe('PROC_ZOMBIE');
  });

  it('names the pre-state scalars the condition reads, such as current', async () => {
    // Missing is_pid_valid: the condition reads old.current, a scalar, not a map.
    const spec = oracle('sys_set_runnable').replace(/\n\s*is_pid_valid\(pid\),/, '');
    expect(spec).not.toContain('is_pid_valid(pid),');
    const c = await cexOf('sys_set_runnable', spec);
    expect(c.context.some((x) => /^current = \d+$/.test(x))).toBe(true);
  });
});
