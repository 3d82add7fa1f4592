// The agent mode's `run` tool (execution feedback): a spec and the implementation run side by side
// on one concrete state, by the project's own interpreter and evaluator (no solver), answered
// through answerCall as the loop answers it; each bad input gets its coded error.
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_DEFAULTS, type ToolContext, agentTools, answerCall } from '../../../src/core/eval/agent/tools.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import type { ToolCall } from '../../../src/core/llm/types.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { answerRun } from '../../../src/core/eval/agent/run-tool.ts';
import { VerifierCaches } from '../../../src/core/verify/caches.ts';

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});
const task = (id: string) => tasks.find((t) => t.id === id)!;

const caches = new VerifierCaches();
const ctx = (over: Partial<ToolContext['settings']> = {}, names: (s: string) => string = (s) => s, back: (s: string) => string = (s) => s): ToolContext => ({
  settings: { ...AGENT_DEFAULTS, ...over },
  check: () => Promise.reject(new Error('run must not reach the solver')),
  toKernelNames: back,
  toModelNames: names,
  now: () => 0,
  // On this thread, as a verifier worker answers it (serve.ts `agentRun`).
  run: async (req) => answerRun(req, caches, () => 0),
});
const call = (args: unknown, raw?: string): ToolCall => ({ id: 'c1', name: 'run', arguments: raw ?? JSON.stringify(args) });

const ORACLE = () => oracleSpec('sys_set_runnable')!;
const WRONG = () =>
  ORACLE().replace(
    'new.procs[pid].state = dt.proc_state.PROC_RUNNABLE',
    'new.procs[pid].state = dt.proc_state.PROC_RUNNING\n    new.procs[old.current].ipc_val = z3.BitVecVal(5, 64)',
  );

describe('the run tool', () => {
  it('is offered with its inputs beside verify and submit', () => {
    const run = agentTools('shown').find((t) => t.name === 'run')!;
    expect(agentTools('shown').map((t) => t.name)).toEqual(['verify', 'run', 'submit']);
    expect(Object.keys((run.parameters as { properties: object }).properties)).toEqual(['spec', 'case', 'cells', 'args']);
    expect(run.description).toMatch(/reachable cases/);
  });

  it('a refuting state: the cells where the spec and the implementation differ', async () => {
    const r = await answerCall(task('sys_set_runnable-v0'), call({ spec: WRONG(), case: 0 }), ctx(), false);
    expect(r.error).toBeUndefined();
    expect(r.text).toBe(
      [
        'Ran your spec and the implementation shown in the task on reachable case 0 of sys_set_runnable, with pid=2.',
        "The spec's condition is True; the implementation returns 0.",
        'The new states differ in 2 cells:',
        'procs.state[pid=2]: was PROC_EMBRYO, the spec makes it PROC_RUNNING, the implementation makes it PROC_RUNNABLE.',
        'procs.ipc_val[pid=1]: was 0, the spec makes it 5, the implementation makes it 0.',
      ].join('\n'),
    );
  });

  it('an agreeing state, and the model\'s own state: boot plus cells, with its own arguments', async () => {
    const agree = await answerCall(task('sys_set_runnable-v0'), call({ spec: ORACLE(), case: 1 }), ctx(), false);
    expect(agree.text).toMatch(/^Ran your spec .* on reachable case 1 of sys_set_runnable, with pid=\d+\.\nThe spec's condition is True; the implementation returns 0\.\nThe new states agree in every cell the two write\.$/);
    const cells = [
      { field: 'procs.state', index: [3], value: 'PROC_EMBRYO' },
      { field: 'procs.ppid', index: ['0x3'], value: 1 },
    ];
    const own = await answerCall(task('sys_set_runnable-v0'), call({ spec: WRONG(), cells, args: [3] }), ctx(), false);
    expect(own.text).toMatch(/on the boot state with 2 cells set, with pid=3\./);
    expect(own.text).toMatch(/procs\.state\[pid=3\]: was PROC_EMBRYO, the spec makes it PROC_RUNNING, the implementation makes it PROC_RUNNABLE\./);
    const refused = await answerCall(task('sys_set_runnable-v0'), call({ spec: ORACLE(), args: [3] }), ctx(), false);
    expect(refused.text).toMatch(/The spec's condition is False; the implementation returns -\d+\.\nThe new states agree/);
  });

  it('finds a cell the implementation writes through an extended index (procs.ofile, C indexes it by a sign-extended fd)', async () => {
    const spec = oracleSpec('sys_close')!.replace('    new.procs[pid].ofile[fd] = z3.BitVecVal(0, dt.fn_t)\n', '');
    const r = await answerCall(task('sys_close-v0'), call({ spec, case: 0 }), ctx(), false);
    expect(r.text).toMatch(/with pid=1, fd=1\.\n.*\nThe new states differ in 1 cell:\nprocs\.ofile\[pid=1, fd=1\]: was \d+, the spec makes it \d+, the implementation makes it 0\.$/);
  });

  it('checks against the shown buggy code by default, the reference with --verify-against reference', async () => {
    const shown = await answerCall(task('sys_set_runnable-v1'), call({ spec: ORACLE(), case: 0 }), ctx(), false);
    expect(shown.text).toMatch(/^Ran your spec and the implementation shown in the task .*\nThe spec's condition is True; the implementation returns -13 \(they disagree: the spec must succeed exactly when the implementation returns 0\)\.\n/);
    const reference = await answerCall(task('sys_set_runnable-v1'), call({ spec: ORACLE(), case: 0 }), ctx({ verifyAgainst: 'reference' }), false);
    expect(reference.text).toMatch(/^Ran your spec and the kernel's correct implementation .*\nThe spec's condition is True; the implementation returns 0\.\n/);
  });

  it('a spec error comes with its code, line, column and frame', async () => {
    const r = await answerCall(task('sys_set_runnable-v0'), call({ spec: ORACLE().replace('new = old.copy()', 'new = old.copy(('), case: 0 }), ctx(), false);
    expect(r.error).toBeUndefined();
    expect(r.text).toMatch(/\nThe spec could not be evaluated: error SPEC\d{3} at line \d+, column \d+: .*\n.*\|/);
  });

  it('each bad input gets its coded error', async () => {
    const t = task('sys_set_runnable-v0');
    const cases: [ToolCall, string, RegExp][] = [
      [call(null, '{"spec": '), 'AGENT001', /not JSON/],
      [call({ case: 0 }), 'AGENT003', /needs "spec"/],
      [call({ spec: 'x'.repeat(100_001), case: 0 }), 'AGENT004', /at most 100000/],
      [call({ spec: ORACLE(), case: 7 }), 'AGENT008', /there is no case 7 of sys_set_runnable; its cases are 0 to 3/],
      [call({ spec: ORACLE(), case: 'one' }), 'AGENT008', /"case" must be an integer/],
      [call({ spec: ORACLE() }), 'AGENT009', /give "args" \(pid\) or a "case"/],
      [call({ spec: ORACLE(), args: [1, 2] }), 'AGENT009', /takes 1 arguments \(pid: 64 bits\)/],
      [call({ spec: ORACLE(), args: ['0x1' + '0'.repeat(16)] }), 'AGENT009', /argument pid must be an integer/],
      [call({ spec: ORACLE(), args: [-1e30] }), 'AGENT009', /argument pid must be an integer/],
      [call({ spec: ORACLE(), case: 0, cells: [{ field: 'procs.state', index: [64], value: 1 }] }), 'AGENT010', /procs\.state\[64\] is outside the kernel's table/],
      [call({ spec: ORACLE(), case: 0, cells: [{ field: 'procs.state', index: [2], value: 77 }] }), 'AGENT010', /77 is not a member of procs\.state's enum/],
      [call({ spec: ORACLE(), case: 0, cells: [{ field: 'procs.nope', index: [2], value: 1 }] }), 'AGENT010', /no field "procs\.nope"/],
      [call({ spec: ORACLE(), case: 0, cells: [{ field: 'procs.ppid', index: [2, 3], value: 1 }] }), 'AGENT010', /takes 1 indices, got 2/],
      [call({ spec: ORACLE(), case: 0, cells: {} }), 'AGENT010', /"cells" must be an array/],
      [call({ spec: ORACLE(), case: 0, cells: [{ field: 'procs.ppid', index: [2], value: 'many' }] }), 'AGENT010', /cell 1's value must be an integer/],
      [call({ spec: ORACLE(), case: 0, cells: Array.from({ length: 65 }, () => ({ field: 'procs.ppid', index: [2], value: 1 })) }), 'AGENT010', /at most 64 cells/],
    ];
    for (const [c, code, words] of cases) {
      const r = await answerCall(t, c, ctx(), false);
      expect(r.error, c.arguments.slice(0, 80)).toBe(code);
      expect(r.text).toMatch(new RegExp(`^Error ${code}: `));
      expect(r.text).toMatch(words);
    }
  });

  it('a renamed run writes cells and reads the result in its own names', async () => {
    const renamed = ctx({}, (s) => s.replaceAll('procs', 'tasks'), (s) => s.replaceAll('tasks', 'procs'));
    const r = await answerCall(task('sys_set_runnable-v0'), call({ spec: WRONG(), case: 0, cells: [{ field: 'tasks.ipc_val', index: [1], value: 9 }] }), renamed, false);
    expect(r.text).toMatch(/tasks\.ipc_val\[pid=1\]: was 9, the spec makes it 5, the implementation makes it 9\./);
    expect(r.text).toMatch(/tasks\.state\[pid=2\]: was PROC_EMBRYO/);
  });
});
