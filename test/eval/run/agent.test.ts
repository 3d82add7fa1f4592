// The agent mode end to end in one process: a run session over the fake provider (real HTTP)
// with the scripted agent, the real verifier in worker threads answering its tool calls,
// the trajectory stored turn by turn, resumed without asking again, bad calls answered with
// coded errors, turns exhausted, and a model that refuses tools.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/core/eval/stats/metrics.ts';
import { MAX_TOOL_ARGUMENT_CHARS } from '../../../src/core/eval/agent/tools.ts';
import type { AttemptRecord, RunStore } from '../../../src/core/eval/run/run-types.ts';
import { RunControl } from '../../../src/core/eval/run/run-control.ts';
import { type RunChoice, runIdOf, canonicalConfig } from '../../../src/core/eval/session/config.ts';
import type { SessionPorts } from '../../../src/core/eval/session/ports.ts';
import { RunSession } from '../../../src/core/eval/session/session.ts';
import { regradeRun, regradeText } from '../../../src/core/eval/session/regrade.ts';
import { MemoryResponseCache } from '../../../src/core/llm/cache.ts';
import { LlmClient } from '../../../src/core/llm/client.ts';
import { createProvider } from '../../../src/core/llm/provider.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { MemoryStore } from '../../../src/store/memory.ts';
import { nodeVerifier } from '../../../src/cli/node-pool.ts';
import type { VerifierClient } from '../../../src/core/service/client.ts';
import { scriptedAgent } from '../../fake-provider/agent.ts';
import { type FakeProvider, startFakeProvider } from '../../fake-provider/server.ts';

let fake: FakeProvider;
let pool: VerifierClient;
let tasks: readonly Task[];
beforeAll(async () => {
  fake = await startFakeProvider();
  pool = nodeVerifier({ size: 1 });
  tasks = await loadTasks();
});
afterAll(async () => {
  await fake.close();
  await pool.dispose();
});
beforeEach(() => fake.reset());

const choice = (over: Partial<RunChoice> = {}): RunChoice => ({
  provider: 'openai-compatible',
  baseUrl: `${fake.url}/v1`,
  model: 'scripted',
  params: {},
  tasks: ['sys_set_runnable-v0'],
  shots: 0,
  grading: { strict: false },
  agent: {},
  ...over,
});

function ports(store: RunStore, cache: MemoryResponseCache, kind: RunChoice['provider'] = 'openai-compatible'): SessionPorts {
  return {
    tasks,
    store,
    grader: (task, spec, options) => pool.grade(task, spec, options),
    // `run` calls on the worker, as the CLI's and the page's ports send them.
    runner: (req, signal) => pool.agentRun(req, { signal }),
    client: (config) => new LlmClient({ provider: createProvider({ kind, baseUrl: config.baseUrl, apiKey: 'k', timeoutMs: 20_000 }), cache, retry: { maxAttempts: 1 } }),
  };
}

async function attemptsOf(store: RunStore, id: string): Promise<AttemptRecord[]> {
  return store.listAttempts(id);
}

describe('the agent loop', () => {
  for (const kind of ['openai-compatible', 'anthropic', 'gemini'] as const) {
    it(`${kind}: verify with a buggy draft, read the counterexample, verify the fix, answer; graded pass`, async () => {
      fake.respond(scriptedAgent());
      const store = new MemoryStore();
      const session = await RunSession.open(choice({ provider: kind }), ports(store, new MemoryResponseCache(), kind));
      const outcome = await session.execute();
      expect(outcome.status).toBe('done');
      const [a] = await attemptsOf(store, session.id);
      expect(a.round).toBe(0);
      expect(a.grade?.category).toBe('pass');
      const t = a.trajectory!;
      expect(t.end).toBe('answered');
      expect(t.turns).toHaveLength(3);
      expect(t.turns[0].response.toolCalls?.map((c) => c.name)).toEqual(['verify']);
      expect(t.turns[0].results[0].category).toBe('semantic');
      expect(t.turns[0].results[0].text).toMatch(/^Not verified against the implementation shown in the task \(semantic\)\.\nThe spec does not match the kernel's behaviour\. Failing obligations: [^\n]+\nCounterexample:\n/);
      expect(t.turns[0].results[0].text).toMatch(/current/);
      expect(t.turns[1].results[0]).toMatchObject({ category: 'pass', text: 'Verified against the implementation shown in the task.\nThe verifier proved the spec correct.' });
      expect(t.turns[2].response.toolCalls).toBeUndefined();
      // Three requests, the tools offered in each, the results sent back in the wire's own form.
      expect(fake.requests).toHaveLength(3);
      const offered = (body: any) => (kind === 'gemini' ? body.tools[0].functionDeclarations : body.tools).map((t: any) => t.name ?? t.function.name);
      expect(fake.requests.map((r) => offered(r.body))).toEqual([['verify', 'run', 'submit'], ['verify', 'run', 'submit'], ['verify', 'run', 'submit']]);
      // Tokens and time of every turn are summed on the attempt.
      expect(a.response!.usage.input).toBe(t.turns.reduce((n, x) => n + x.response.usage.input, 0));
    });
  }

  it('Re-verify computes the tool results again and flags a trajectory whose stored results differ', async () => {
    fake.respond(scriptedAgent());
    const store = new MemoryStore();
    const s = await RunSession.open(choice(), ports(store, new MemoryResponseCache()));
    await s.execute();
    const [a] = await attemptsOf(store, s.id);
    const run = (await store.getRun(s.id))!;
    const p = ports(store, new MemoryResponseCache());
    const clean = await regradeRun(run, [a], p);
    expect(clean.trajectoriesChanged).toEqual([]);
    // A stored result this verifier does not give: the first call said pass.
    const t = a.trajectory!;
    const edited = { ...a, trajectory: { ...t, turns: [{ ...t.turns[0], results: [{ ...t.turns[0].results[0], category: 'pass' as const }] }, ...t.turns.slice(1)] } };
    const report = await regradeRun(run, [edited], p);
    expect(report.trajectoriesChanged).toEqual([{ attemptId: a.id, taskId: 'sys_set_runnable-v0', sample: 0, calls: ['turn 1 verify: pass -> semantic'] }]);
    expect(regradeText(report).changes).toEqual(['tool results changed in the trajectory of sys_set_runnable-v0 sample 0: turn 1 verify: pass -> semantic']);
    expect(report.unchanged).toBe(1);
  });

  it('runs a draft on a reachable state, reads the differing cells, then verifies; Re-verify flags a changed run result', async () => {
    fake.respond(scriptedAgent({ run: true }));
    const store = new MemoryStore();
    const s = await RunSession.open(choice(), ports(store, new MemoryResponseCache()));
    await s.execute();
    const [a] = await attemptsOf(store, s.id);
    expect(a.grade?.category).toBe('pass');
    const t = a.trajectory!;
    expect(t.turns.map((x) => x.response.toolCalls?.map((c) => c.name) ?? [])).toEqual([['run'], ['verify'], []]);
    expect(t.turns[0].results[0].text).toMatch(/^Ran your spec and the implementation shown in the task on reachable case 0 of sys_set_runnable, with pid=2\.\nThe spec's condition is True; the implementation returns 0\.\nThe new states differ in 1 cell:\ncurrent: was 1, the spec makes it 7, the implementation makes it 1\.$/);
    // The request offered run in the wire format (openai-compatible: tools[].function).
    const offered = fake.requests[0].body.tools.map((x: { function: { name: string } }) => x.function.name);
    expect(offered).toEqual(['verify', 'run', 'submit']);
    const run = (await store.getRun(s.id))!;
    const p = ports(store, new MemoryResponseCache());
    expect((await regradeRun(run, [a], p)).trajectoriesChanged).toEqual([]);
    const edited = { ...a, trajectory: { ...t, turns: [{ ...t.turns[0], results: [{ ...t.turns[0].results[0], text: 'stale' }] }, ...t.turns.slice(1)] } };
    expect((await regradeRun(run, [edited], p)).trajectoriesChanged?.[0].calls).toEqual(["turn 1 run: the result's text changed"]);
  });

  it('is part of the run id: agent, its settings and one answer are three runs', async () => {
    const one = await runIdOf(canonicalConfig(choice({ agent: undefined })));
    const agent = await runIdOf(canonicalConfig(choice()));
    const reference = await runIdOf(canonicalConfig(choice({ agent: { verifyAgainst: 'reference' } })));
    expect(new Set([one, agent, reference]).size).toBe(3);
    // A run without the agent keeps the id it had before the mode existed: no `agent` key.
    expect('agent' in canonicalConfig(choice({ agent: undefined }))).toBe(false);
    await expect(RunSession.open(choice({ repairRounds: 2 }), ports(new MemoryStore(), new MemoryResponseCache()))).rejects.toThrow(/SESSION003 the agent mode has no repair rounds/);
  });

  it('verifies against the code shown by default and against the reference when asked (bug-following)', async () => {
    // sys_set_runnable-v1 has a bug: the oracle is refuted against it, proved against the reference.
    fake.respond(scriptedAgent());
    const shown = new MemoryStore();
    const s1 = await RunSession.open(choice({ tasks: ['sys_set_runnable-v1'] }), ports(shown, new MemoryResponseCache()));
    await s1.execute();
    const [a] = await attemptsOf(shown, s1.id);
    expect(a.trajectory!.turns[1].results[0].text).toMatch(/^Not verified against the implementation shown in the task/);
    fake.reset();
    fake.respond(scriptedAgent());
    const ref = new MemoryStore();
    const s2 = await RunSession.open(choice({ tasks: ['sys_set_runnable-v1'], agent: { verifyAgainst: 'reference' } }), ports(ref, new MemoryResponseCache()));
    await s2.execute();
    const [b] = await attemptsOf(ref, s2.id);
    expect(b.trajectory!.turns[1].results[0].text).toMatch(/^Verified against the kernel's correct implementation\./);
    expect(b.grade?.category).toBe('pass');
  });

  it('resumes after the last stored turn and asks nothing again; a fresh store is answered from the cache', async () => {
    fake.respond(scriptedAgent());
    const store = new MemoryStore();
    const cache = new MemoryResponseCache();
    const control = new RunControl();
    // Killed after the second turn is stored.
    const killing: RunStore = Object.assign(Object.create(store), {
      putAttempt: async (x: AttemptRecord) => {
        await store.putAttempt(x);
        if (x.trajectory?.turns.length === 2 && !x.response) control.cancel();
      },
    });
    const s = await RunSession.open(choice(), ports(killing, cache));
    expect((await s.execute({ control })).status).toBe('cancelled');
    expect(fake.requests).toHaveLength(2);
    const [partial] = await attemptsOf(store, s.id);
    expect(partial.response).toBeUndefined();
    expect(partial.trajectory!.turns).toHaveLength(2);
    // Rerun: one request, the third turn.
    const again = await RunSession.open(choice(), ports(store, cache));
    expect((await again.execute()).status).toBe('done');
    expect(fake.requests).toHaveLength(3);
    // Another store, the same response cache: the whole trajectory without a request.
    const other = new MemoryStore();
    const third = await RunSession.open(choice(), ports(other, cache));
    expect((await third.execute()).status).toBe('done');
    expect(fake.requests).toHaveLength(3);
    const [c] = await attemptsOf(other, third.id);
    expect(c.grade?.category).toBe('pass');
    expect(c.cached).toBe(true);
  });

  it('answers bad calls with coded errors, counts them, and grades the last spec when the turns run out', async () => {
    const huge = JSON.stringify({ spec: 'x'.repeat(10 * 1024 * 1024) });
    expect(huge.length).toBeGreaterThan(MAX_TOOL_ARGUMENT_CHARS);
    const spec = (await import('../../../src/core/kernel/content.ts')).oracleSpec('sys_set_runnable')!;
    fake.enqueue(
      {
        kind: 'tools',
        calls: [
          { name: 'verify', arguments: '{"spec": "def broken(' },
          { name: 'rm_rf', arguments: {} },
          { name: 'verify', arguments: { code: 'x' } },
          { name: 'verify', arguments: huge },
        ],
      },
      { kind: 'tools', calls: [{ name: 'verify', arguments: { spec } }] },
    );
    const store = new MemoryStore();
    const s = await RunSession.open(choice({ agent: { maxTurns: 2 } }), ports(store, new MemoryResponseCache()));
    expect((await s.execute()).status).toBe('done');
    const [a] = await attemptsOf(store, s.id);
    const [first, second] = a.trajectory!.turns;
    expect(first.results.map((r) => r.error)).toEqual(['AGENT001', 'AGENT002', 'AGENT003', 'AGENT004']);
    expect(first.results[1].text).toBe('Error AGENT002: there is no tool "rm_rf"; the tools are verify, run and submit.');
    expect(first.results[3].text).toMatch(/^Error AGENT004: the arguments of verify are \d+ characters long; a call may carry at most 100000\.$/);
    expect(second.results[0].category).toBe('pass');
    expect(a.trajectory!.end).toBe('turns-exhausted');
    expect(a.grade?.category).toBe('pass');
    // The report's agent numbers: calls by tool, errors by code, how it ended.
    const m = computeMetrics(tasks.filter((t) => t.id === 'sys_set_runnable-v0'), [a]).agent!;
    expect(m).toMatchObject({ trajectories: 1, ends: { 'turns-exhausted': 1 }, meanTurns: 2, callErrors: { AGENT001: 1, AGENT002: 1, AGENT003: 1, AGENT004: 1 } });
    expect(m.callsPerTask).toEqual({ rm_rf: 1, verify: 4 });
    expect(m.solvedWithin).toEqual([{ turns: 1, share: 0 }, { turns: 2, share: 1 }]);
    // The second request carried four tool results, one per call.
    expect(fake.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(4);
  });

  it('stops with one clear error when the model refuses tools; the run stays resumable in another mode', async () => {
    fake.respond(() => ({ kind: 'no-tools' }));
    const store = new MemoryStore();
    const s = await RunSession.open(choice({ tasks: ['sys_set_runnable-v0', 'sys_set_runnable-v1'], concurrency: 1 }), ports(store, new MemoryResponseCache()));
    const outcome = await s.execute();
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('LLM018');
    expect(outcome.error?.message).toMatch(/^The server refused tool calling for the model "scripted"/);
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    fake.respond(scriptedAgent());
    const plain = await RunSession.open(choice({ agent: undefined }), ports(store, new MemoryResponseCache()));
    expect((await plain.execute()).status).toBe('done');
    expect((await store.getRun(s.id))?.status).toBe('failed');
  });
});
