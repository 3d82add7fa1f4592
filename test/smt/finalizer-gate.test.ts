import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nodeZ3 } from '../../src/z3/node.ts';
import { finalizerGate } from '../../src/core/smt/finalizer-gate.ts';

describe('finalizer gate', () => {
  it('defers native frees while a check runs and drains them after', async () => {
    const z3 = await nodeZ3();
    const gate = finalizerGate(z3.Z3);
    expect(finalizerGate(z3.Z3)).toBe(gate);
    const ctx = z3.Context('gate');
    const x = ctx.BitVec.const('x', 32);
    const solver = new ctx.Solver();
    solver.add(x.mul(x).eq(ctx.BitVec.val(0x10000, 32)));
    const status = await gate.hold(async () => {
      const s = await solver.check();
      // A release issued now (as a finalizer would) must wait.
      (z3.Z3 as unknown as { dec_ref(c: unknown, a: unknown): void }).dec_ref(ctx.ptr, ctx.BitVec.val(5, 32).ast);
      expect(gate.pending).toBe(1);
      return s;
    });
    expect(status).toBe('sat');
    expect(gate.pending).toBe(0);
  });

  it('keeps verification sound under constant garbage collection', () => {
    // Without the gate this process dies within the first check
    // ("memory access out of bounds" or a stack overflow inside Z3).
    const handlers = ['sys_dup2', 'sys_kill'];
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/smt/fixtures/gc-pressure.mts', ...handlers],
      { encoding: 'utf8', timeout: 240_000 },
    );
    expect(run.stderr).not.toMatch(/memory access out of bounds|Maximum call stack/);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toEqual([...handlers.flatMap((h) => [`${h} verified`]), 'done']);
  }, 300_000);
});
