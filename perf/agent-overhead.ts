/**
 * The agent loop's own cost (docs/research.md, "The agent mode"): the
 * scripted agent on the fake provider at zero latency, over the tasks asked
 * (default all 245), one request and one verification at a time, with the
 * real verifier in worker threads. Per turn it splits the wall time into the
 * provider's (each request's latency as the client saw it), the verifier's
 * own (each grading's time inside its worker, GradeResult.ms) and the rest:
 * the loop's overhead (prompt building, storage, the pool's dispatch and the
 * structured clone, tool-call parsing, the cache). Target: the overhead per
 * turn at most 20% of the verify time per turn.
 *
 * It also prints the page's measure (perf/agent-overhead-page.ts): per gap
 * between two turns, the time less the next request's latency and the tool
 * calls as the loop saw them, so the CLI and the page compare like for like.
 *
 *   npx tsx perf/agent-overhead.ts [--tasks first:N] [--workers W]
 */
import { canonicalConfig } from '../src/core/eval/session/config.ts';
import { RunSession } from '../src/core/eval/session/session.ts';
import { selectTasks } from '../src/core/eval/run/run-setup.ts';
import { MemoryResponseCache } from '../src/core/llm/cache.ts';
import { LlmClient } from '../src/core/llm/client.ts';
import { createProvider } from '../src/core/llm/provider.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { MemoryStore } from '../src/store/memory.ts';
import { nodeVerifier } from '../src/cli/node-pool.ts';
import { scriptedAgent } from '../test/fake-provider/agent.ts';
import { startFakeProvider } from '../test/fake-provider/server.ts';
import { gapsOf, median } from './agent-gaps.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

const tasks = await loadTasks();
const selected = selectTasks(tasks, option('tasks') ?? 'all');
const fake = await startFakeProvider();
fake.respond(scriptedAgent());
const pool = nodeVerifier({ size: Number(option('workers') ?? '1') });
const store = new MemoryStore();
const workerMs = new Map<string, number>();
let gradings = 0;
const choice = { provider: 'openai-compatible' as const, baseUrl: `${fake.url}/v1`, model: 'scripted', params: {}, tasks: selected, shots: 0, concurrency: 1, gradeConcurrency: 1, grading: { strict: false }, agent: {} };
const session = await RunSession.open(choice, {
  tasks,
  store,
  grader: async (task, spec, options) => {
    const g = await pool.grade(task, spec, options);
    workerMs.set(`${task.id}|${gradings++}`, g.ms);
    return g;
  },
  client: (config) => new LlmClient({ provider: createProvider({ kind: 'openai-compatible', baseUrl: config.baseUrl, timeoutMs: 60_000 }), cache: new MemoryResponseCache() }),
});
// Warm the pool (Z3's start is not the loop's).
await pool.grade(tasks[0], 'x\n', { timeoutMs: 1000 });
workerMs.clear();
const started = performance.now();
const outcome = await session.execute();
const wall = performance.now() - started;
await pool.dispose();
await fake.close();

const attempts = await store.listAttempts(session.id);
const turns = attempts.reduce((n, a) => n + (a.trajectory?.turns.length ?? 0), 0);
const providerMs = attempts.reduce((n, a) => n + (a.trajectory?.turns ?? []).reduce((m, t) => m + t.response.latencyMs, 0), 0);
const verifierMs = [...workerMs.values()].reduce((a, b) => a + b, 0);
const overhead = wall - providerMs - verifierMs;
// Per trajectory: the tool calls' time per turn as the loop saw it (dispatch included).
const perTurnVerify: number[] = [];
for (const a of attempts) {
  const t = a.trajectory?.turns ?? [];
  const calls = t.flatMap((x) => x.results);
  const v = calls.reduce((m, r) => m + r.ms, 0) / Math.max(1, t.length);
  perTurnVerify.push(v);
}
// The page's measure, for a like-for-like figure (perf/agent-gaps.ts).
const gaps = gapsOf(attempts.map((a) => a.trajectory?.turns ?? []));
console.log(JSON.stringify({
  config: canonicalConfig(choice).agent,
  status: outcome.status,
  tasks: selected.length,
  turns,
  gradings: workerMs.size,
  wallMs: Math.round(wall),
  providerMs: Math.round(providerMs),
  verifierOwnMs: Math.round(verifierMs),
  overheadMs: Math.round(overhead),
  overheadPerTurnMs: +(overhead / turns).toFixed(1),
  verifyPerTurnMs: +(verifierMs / turns).toFixed(1),
  overheadShareOfVerify: +(overhead / verifierMs).toFixed(3),
  medianToolCallMsPerTurn: +median(perTurnVerify).toFixed(1),
  gaps: gaps.length,
  overheadPerGapMs: +(gaps.reduce((n, g) => n + g.overhead, 0) / gaps.length).toFixed(1),
  medianOverheadPerGapMs: +median(gaps.map((g) => g.overhead)).toFixed(1),
  // The gap into a final answer has no call: the calls' median is over the gaps with calls.
  medianToolMsOfGapsWithCalls: +median(gaps.filter((g) => g.tools > 0).map((g) => g.tools)).toFixed(1),
  overheadShareOfToolsInGaps: +(gaps.reduce((n, g) => n + g.overhead, 0) / gaps.reduce((n, g) => n + g.tools, 0)).toFixed(3),
}, null, 2));
