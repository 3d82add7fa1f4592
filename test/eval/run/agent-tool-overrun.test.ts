// A tool call past its hard limit (core/service/limits.ts, `tool`), end to end in one process: a
// run session over the fake provider with the real verifier in worker threads, whose tool-call
// jobs are given a hard limit of a few milliseconds (the product's limit is over half a minute;
// everything else, the final answer's grading included, keeps its own). The model reads a coded
// result (AGENT011) for a `run` and for a `verify` call, the trajectory goes on to its answer, the
// calls count against the cap and in the report, and each stopped call's worker is replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/core/eval/stats/metrics.ts';
import type { RunChoice } from '../../../src/core/eval/session/config.ts';
import type { SessionPorts } from '../../../src/core/eval/session/ports.ts';
import { RunSession } from '../../../src/core/eval/session/session.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { MemoryResponseCache } from '../../../src/core/llm/cache.ts';
import { LlmClient } from '../../../src/core/llm/client.ts';
import { createProvider } from '../../../src/core/llm/provider.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { MemoryStore } from '../../../src/store/memory.ts';
import { nodeVerifier } from '../../../src/cli/node-pool.ts';
import type { VerifierClient } from '../../../src/core/service/client.ts';
import { type FakeProvider, startFakeProvider } from '../../fake-provider/server.ts';

/** The hard limit the tool calls' jobs get here: far shorter than a parse of the kernel or a grading. */
const TINY_MS = 5;

let fake: FakeProvider;
let pool: VerifierClient;
let tasks: readonly Task[];
beforeAll(async () => {
  fake = await startFakeProvider();
  pool = nodeVerifier({ size: 1 });
  tasks = await loadTasks();
  // A worker that has started (Z3 loaded, the kernel parsed): the calls below are stopped while they run, not while it starts.
  await pool.warm();
});
afterAll(async () => {
  await fake.close();
  await pool.dispose();
});

const choice: RunChoice = {
  provider: 'openai-compatible',
  baseUrl: `http://unused.invalid/v1`,
  model: 'overrun',
  params: {},
  tasks: ['sys_set_runnable-v0'],
  shots: 0,
  grading: { strict: false },
  agent: { maxCalls: 2 },
};

/** The CLI's ports (src/cli/session-ports.ts), but every tool call's job with the tiny hard limit. */
function ports(store: MemoryStore): SessionPorts {
  return {
    tasks,
    store,
    grader: (task, spec, options) => pool.grade(task, spec, options.toolCall ? { ...options, hardTimeoutMs: TINY_MS } : options),
    runner: (req, signal) => pool.agentRun(req, { signal, hardTimeoutMs: TINY_MS }),
    client: (config) => new LlmClient({ provider: createProvider({ kind: 'openai-compatible', baseUrl: config.baseUrl, apiKey: 'k', timeoutMs: 20_000 }), cache: new MemoryResponseCache(), retry: { maxAttempts: 1 } }),
  };
}

describe('a tool call past its hard limit', () => {
  it('is answered AGENT011 for run and verify, counted, its worker replaced; the trajectory goes on', async () => {
    const spec = oracleSpec('sys_set_runnable')!;
    fake.enqueue(
      { kind: 'tools', calls: [{ name: 'run', arguments: { spec, case: 0 } }] },
      { kind: 'tools', calls: [{ name: 'verify', arguments: { spec } }] },
      // Over the cap of two: both stopped calls were counted.
      { kind: 'tools', calls: [{ name: 'verify', arguments: { spec } }] },
      { kind: 'text', text: `\`\`\`python\n${spec}\`\`\`` },
    );
    const respawns = pool.respawns;
    const overruns = pool.overruns;
    const store = new MemoryStore();
    const s = await RunSession.open({ ...choice, baseUrl: `${fake.url}/v1` }, ports(store));
    expect((await s.execute()).status).toBe('done');
    const [a] = await store.listAttempts(s.id);
    const turns = a.trajectory!.turns;
    expect(turns.map((t) => t.results.map((r) => r.error))).toEqual([['AGENT011'], ['AGENT011'], ['AGENT005'], []]);
    expect(turns[0].results[0].text).toMatch(/^Error AGENT011: run stopped at its time limit of 20000 ms and its worker with it; nothing more was compared\./);
    expect(turns[1].results[0]).toMatchObject({ name: 'verify', category: 'timeout', spec });
    expect(turns[1].results[0].text).toMatch(/^Error AGENT011: verify ran past its time limit of 20000 ms and was stopped, its worker with it; there is no verdict on this spec\./);
    // The model was sent each result and went on; the final answer is graded as usual.
    expect(fake.requests).toHaveLength(4);
    expect(a.trajectory!.end).toBe('answered');
    expect(a.grade?.category).toBe('pass');
    // Each stopped call terminated its worker and a fresh one took its place.
    expect(pool.overruns - overruns).toBe(2);
    expect(pool.respawns - respawns).toBe(2);
    const m = computeMetrics(tasks.filter((t) => t.id === 'sys_set_runnable-v0'), [a]).agent!;
    expect(m.callsPerTask).toEqual({ run: 1, verify: 2 });
    expect(m.callErrors).toEqual({ AGENT011: 2, AGENT005: 1 });
  }, 300_000);
});
