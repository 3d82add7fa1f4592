// The agent's `run` tool off the loop's thread: a verifier worker answers the call (serve.ts
// `agentRun`) through the service's client, and the model reads the same text as when the call is
// answered on this thread, for a refuting case, the model's own state, a spec that does not run and
// a bad input. The job carries the call's limit: the evaluator's deadline is the soft limit, and the
// pool's hard limit (limits.ts) is a verify call's: twice the call's limit and half a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeVerifier } from '../../../src/cli/node-pool.ts';
import { answerRun } from '../../../src/core/eval/agent/run-tool.ts';
import { AGENT_DEFAULTS, type ToolContext, answerCall } from '../../../src/core/eval/agent/tools.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import type { ToolCall } from '../../../src/core/llm/types.ts';
import type { VerifierClient } from '../../../src/core/service/client.ts';
import { hardLimitMs } from '../../../src/core/service/limits.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { VerifierCaches } from '../../../src/core/verify/caches.ts';

let pool: VerifierClient;
let tasks: readonly Task[];
beforeAll(async () => {
  pool = nodeVerifier({ size: 1 });
  tasks = await loadTasks();
});
afterAll(() => pool.dispose());
const task = (id: string) => tasks.find((t) => t.id === id)!;

const caches = new VerifierCaches();
const ctx = (where: 'worker' | 'here'): ToolContext => ({
  settings: AGENT_DEFAULTS,
  check: () => Promise.reject(new Error('run must not reach the solver')),
  toKernelNames: (s) => s,
  toModelNames: (s) => s,
  now: () => performance.now(),
  run: where === 'worker' ? (req) => pool.agentRun(req) : async (req) => answerRun(req, caches, () => performance.now()),
});
const call = (args: unknown): ToolCall => ({ id: 'c1', name: 'run', arguments: JSON.stringify(args) });

const ORACLE = () => oracleSpec('sys_set_runnable')!;
const WRONG = () => ORACLE().replace('new.procs[pid].state = dt.proc_state.PROC_RUNNABLE', 'new.procs[pid].state = dt.proc_state.PROC_RUNNING');

describe('the run tool on a verifier worker', () => {
  it('answers each call with the text this thread gives', async () => {
    const calls: [string, unknown][] = [
      ['sys_set_runnable-v0', { spec: WRONG(), case: 0 }],
      ['sys_set_runnable-v1', { spec: ORACLE(), case: 0 }],
      ['sys_set_runnable-v0', { spec: WRONG(), cells: [{ field: 'procs.state', index: [3], value: 'PROC_EMBRYO' }], args: [3] }],
      ['sys_set_runnable-v0', { spec: ORACLE().replace('new = old.copy()', 'new = old.copy(('), case: 0 }],
      ['sys_set_runnable-v0', { spec: ORACLE(), case: 999 }],
      ['sys_set_runnable-v0', { spec: ORACLE(), cells: [{ field: 'procs.nope', index: [1], value: 1 }], args: [1] }],
    ];
    for (const [id, args] of calls) {
      const there = await answerCall(task(id), call(args), ctx('worker'), false);
      const here = await answerCall(task(id), call(args), ctx('here'), false);
      expect(there.text).toBe(here.text);
      expect(there.error).toBe(here.error);
    }
    const refuting = await answerCall(task('sys_set_runnable-v0'), call(calls[0][1]), ctx('worker'), false);
    expect(refuting.text).toMatch(/^Ran your spec and the implementation shown in the task on reachable case 0 of sys_set_runnable, with pid=2\.\n.*\nThe new states differ in 1 cell:\nprocs\.state\[pid=2\]/);
    const bad = await answerCall(task('sys_set_runnable-v0'), call(calls[4][1]), ctx('worker'), false);
    expect(bad.error).toBe('AGENT008');
  }, 300_000);

  it("the job's hard limit is a verify call's: twice the call's limit and half a minute", () => {
    expect(hardLimitMs({ kind: 'tool', limitMs: 20_000 })).toBe(70_000);
  });
});
