// The agent mode's `run` tool has its own time limit (--tool-timeout): a spec that loops within the
// dialect's step limit but for long is stopped at the deadline, and the model reads a coded result
// (AGENT011) saying where it stopped. The evaluation is synchronous, so the limit is a deadline the
// interpreter and the comparison read; these calls would run for many seconds without it.
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_DEFAULTS, type ToolContext, answerCall } from '../../../src/core/eval/agent/tools.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import type { ToolCall } from '../../../src/core/llm/types.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { answerRun } from '../../../src/core/eval/agent/run-tool.ts';
import { VerifierCaches } from '../../../src/core/verify/caches.ts';

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
  // The first call parses the kernel's C (about a second): warm, so the limit below meets the spec's loop.
  await answerCall(task('sys_set_runnable-v0'), call(oracleSpec('sys_set_runnable')!), ctx(60_000), false);
});
const task = (id: string) => tasks.find((t) => t.id === id)!;
const caches = new VerifierCaches();

const ctx = (toolTimeoutMs: number, now: () => number = () => performance.now()): ToolContext => ({
  settings: { ...AGENT_DEFAULTS, toolTimeoutMs },
  check: () => Promise.reject(new Error('run must not reach the solver')),
  toKernelNames: (s) => s,
  toModelNames: (s) => s,
  now,
  // On this thread, as a verifier worker answers it (serve.ts `agentRun`).
  run: async (req) => answerRun(req, caches, now),
});
const call = (spec: string): ToolCall => ({ id: 'c1', name: 'run', arguments: JSON.stringify({ spec, case: 0 }) });

// 50,000 turns of a generator (well inside the 200,000 steps; specs have no `for` statement), each
// rewriting a 100,000-character string.
const SLOW = () =>
  oracleSpec('sys_set_runnable')!.replace(
    'new.procs[pid].state = dt.proc_state.PROC_RUNNABLE',
    "new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n    s = 'x' * 99999\n    assert not any(s.replace('x', 'y') == s for i in range(50000))",
  );

describe("the run tool's time limit", () => {
  it('stops a spec that runs long inside the step limit, with a coded result, on the real clock', async () => {
    const t0 = performance.now();
    const r = await answerCall(task('sys_set_runnable-v0'), call(SLOW()), ctx(300), false);
    const took = performance.now() - t0;
    expect(r.error).toBe('AGENT011');
    expect(r.text).toMatch(/^Error AGENT011: run stopped at its time limit of 300 ms while your spec ran \(line \d+, column \d+\); nothing more was compared\./);
    // The interpreter reads the clock every 64 steps: it stops soon after the limit, not at the step limit.
    expect(took).toBeLessThan(3000);
    expect(r.ms).toBeGreaterThanOrEqual(300);
  });

  it('a clock that passes the limit while the states are compared stops the comparison too', async () => {
    // A clock that reads 0 until the spec has run, then jumps past the limit: the comparison's check stops it.
    let reads = 0;
    const wrong = oracleSpec('sys_set_runnable')!.replace('dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING');
    const calls: number[] = [];
    const probe = await answerCall(task('sys_set_runnable-v0'), call(wrong), ctx(1000, () => (calls.push(0), 0)), false);
    expect(probe.error).toBeUndefined();
    const last = calls.length; // the clock reads of a whole call; the last few are the comparison's
    const r = await answerCall(task('sys_set_runnable-v0'), call(wrong), ctx(1000, () => (++reads >= last - 2 ? 5000 : 0)), false);
    expect(r.error).toBe('AGENT011');
    expect(r.text).toMatch(/while the new states were compared/);
  });

  it('a call inside its limit is answered as before', async () => {
    const r = await answerCall(task('sys_set_runnable-v0'), call(oracleSpec('sys_set_runnable')!), ctx(AGENT_DEFAULTS.toolTimeoutMs), false);
    expect(r.error).toBeUndefined();
    expect(r.text).toMatch(/The new states agree in every cell the two write\.$/);
  });
});
