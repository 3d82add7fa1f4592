/**
 * The run loop. For every (task, sample): reuse the stored attempt if there
 * is one, else build the prompt, ask the model (through the response cache),
 * store the attempt at once, grade it, store the grade; then up to R repair
 * rounds, each its own attempt. Everything is stored as soon as it exists,
 * so a run killed at any moment continues where it stopped when started
 * again, without losing work or asking an answered request again (a request
 * still in flight when the run stopped has no answer stored, so it is sent
 * again). A request that failed for good is stored as such (unanswered, not
 * charged to the model) and asked again on resume; the run then ends
 * `incomplete` instead of `done`.
 *
 * The loop knows nothing of prompts, verification or storage technology:
 * those come in as dependencies.
 */
import type { StoredError } from '../../llm/errors.ts';
import { isLocalUrl } from '../../llm/http.ts';
import { AdaptiveLimiter } from '../../llm/limiter.ts';
import { DEFAULT_PRICES, priceFor } from '../../llm/prices.ts';
import type { ChatMessage } from '../../llm/types.ts';
import type { GradeResult } from '../grade/grade-types.ts';
import { type AttemptRecord, type RunConfig, attemptId } from './run-types.ts';
import { type ChainEnd, EMPTY_TALLY, withAnswer, withChain, etaMs } from './run-tally.ts';
import { chainsOwned, ownsChain } from './shard.ts';
import type { Task } from '../../tasks/task.ts';
import { agentChain } from './agent-chain.ts';
import { type AttemptSlot, type RunLoop, type RunProgress, type RunnerDeps, gradeAttempt, promptHash, savePrompt, send, storedResponse } from './run-loop.ts';

export type { AttemptEvent, BuiltPrompt, RunProgress, RunnerDeps } from './run-loop.ts';
export { promptHash } from './run-loop.ts';

export interface RunOutcome {
  readonly status: 'done' | 'incomplete' | 'cancelled' | 'failed';
  /** The error that stopped a failed run. */
  readonly error?: StoredError;
  readonly progress: RunProgress;
  /** Gradings that threw (an internal error of the grader): those attempts are graded `internal` and graded again on resume. */
  readonly gradeErrors: readonly { readonly attemptId: string; readonly message: string }[];
}

function isPrefix(prefix: readonly ChatMessage[], full: readonly ChatMessage[]): boolean {
  return prefix.length <= full.length && prefix.every((m, i) => m.role === full[i].role && m.content === full[i].content);
}

/** Runs (or continues) a stored run to the end, cancellation, or a fatal provider error. */
export async function runBenchmark(runId: string, deps: RunnerDeps): Promise<RunOutcome> {
  const now = deps.now ?? (() => Date.now());
  const stored = await deps.store.getRun(runId);
  if (!stored) throw new Error(`no run "${runId}" in the store`);
  const cfg = stored.config;
  const { client } = deps;
  if (client.provider.kind !== cfg.provider || client.provider.baseUrl !== cfg.baseUrl.replace(/\/+$/, '')) {
    throw new Error(`the client talks to ${client.provider.kind} at ${client.provider.baseUrl}, but run "${runId}" is for ${cfg.provider} at ${cfg.baseUrl}`);
  }
  const tasks = new Map(deps.tasks.map((t) => [t.id, t]));
  for (const id of cfg.tasks) if (!tasks.has(id)) throw new Error(`run "${runId}" names task "${id}", which is not loaded`);

  const stop = new AbortController();
  const onStop = () => stop.abort();
  deps.signal?.addEventListener('abort', onStop, { once: true });
  deps.control?.signal.addEventListener('abort', onStop, { once: true });
  if (deps.signal?.aborted || deps.control?.signal.aborted) stop.abort();

  const prices = deps.prices ?? DEFAULT_PRICES;
  const attempts = new Map((await deps.store.listAttempts(runId)).map((a) => [a.id, a]));
  const queue: [Task, number][] = [];
  for (let s = 0; s < cfg.n; s++) {
    cfg.tasks.forEach((id, i) => ownsChain(stored.shard, i, s, cfg.tasks.length, cfg.n) && queue.push([tasks.get(id)!, s]));
  }
  const started = now();
  const loop: RunLoop = {
    runId,
    run: { ...stored, status: 'running', updatedAt: now() },
    cfg,
    deps,
    now,
    price: isLocalUrl(cfg.baseUrl) ? { input: 0, output: 0 } : priceFor(cfg.model, prices),
    stop,
    requestSlots: new AdaptiveLimiter({ max: Math.max(1, cfg.concurrency) }),
    gradeSlots: new AdaptiveLimiter({ max: Math.max(1, cfg.gradeConcurrency) }),
    attempts,
    writtenPrompts: new Set(),
    gradeErrors: [],
    queue,
    next: 0,
    // The answers stored by earlier sessions count: their tokens were spent.
    tally: [...attempts.values()].reduce(withAnswer, EMPTY_TALLY),
    halted: false,
  };
  const total = chainsOwned(stored.shard, cfg.tasks.length, cfg.n);
  const progress = (): RunProgress => progressOf(loop, total, now() - started);
  const report = () => deps.onProgress?.(progress());

  await deps.store.putRun(loop.run);
  report();
  const workers = Math.max(1, cfg.concurrency + cfg.gradeConcurrency);
  try {
    await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, () => worker(loop, report)));
  } finally {
    deps.signal?.removeEventListener('abort', onStop);
    deps.control?.signal.removeEventListener('abort', onStop);
  }

  const { status, error } = ending(loop);
  const { error: _old, ...rest } = loop.run;
  await deps.store.putRun({ ...rest, status, updatedAt: now(), ...(error ? { error } : {}) });
  report();
  if (loop.crash !== undefined && !loop.fatal) throw loop.crash;
  return { status, ...(error ? { error } : {}), progress: progress(), gradeErrors: loop.gradeErrors };
}

function progressOf(loop: RunLoop, total: number, elapsedMs: number): RunProgress {
  const t = loop.tally;
  return {
    done: t.done,
    total,
    passed: t.passed,
    passedAfterRepair: t.passedAfterRepair,
    errors: t.errors,
    tokens: { input: t.spent.input, output: t.spent.output },
    cached: { ...t.cached },
    cost: t.spent.cost,
    etaMs: etaMs(t, total, elapsedMs),
    paused: loop.deps.control?.isPaused ?? false,
  };
}

/** How the run ended, and the error to record for a failed one. */
function ending(loop: RunLoop): { status: RunOutcome['status']; error?: StoredError } {
  const { deps, fatal, crash } = loop;
  const cancelled = Boolean(deps.signal?.aborted || deps.control?.signal.aborted);
  if (fatal) return { status: 'failed', error: fatal.toJSON() };
  if (crash !== undefined) {
    return { status: 'failed', error: { kind: 'server', code: 'RUN001', message: `internal error: ${crash instanceof Error ? crash.message : String(crash)}` } };
  }
  if (cancelled || deps.budget?.exhausted) return { status: 'cancelled' };
  return { status: loop.tally.errors > 0 ? 'incomplete' : 'done' };
}

/** Takes chains off the queue until it is empty, the run stops, or a chain crashes (which halts the run). */
async function worker(loop: RunLoop, report: () => void): Promise<void> {
  while (loop.next < loop.queue.length && !loop.stop.signal.aborted && !loop.halted) {
    const [task, sample] = loop.queue[loop.next++];
    let end: ChainEnd;
    try {
      end = await chain(loop, task, sample);
    } catch (e) {
      loop.crash ??= e;
      loop.halted = true;
      return;
    }
    if (end.kind === 'stopped') continue;
    loop.tally = withChain(loop.tally, end);
    report();
  }
}

/**
 * One (task, sample) chain: the first answer and up to `repairRounds`
 * repairs, each asked (unless stored), graded (unless graded) and stored,
 * until one passes.
 */
async function chain(loop: RunLoop, task: Task, sample: number): Promise<ChainEnd> {
  const { cfg, deps } = loop;
  if (cfg.agent) return agentChain(loop, task, sample);
  const built = await deps.buildPrompt(task, cfg.shots);
  let messages: readonly ChatMessage[] = built.messages;
  let hash = await promptHash(undefined, messages);
  await savePrompt(loop, { hash, messages, ...(built.meta ? { meta: built.meta } : {}) });
  let worked = false;

  for (let round = 0; round <= cfg.repairRounds; round++) {
    const id = attemptId(loop.runId, task.id, sample, round);
    let a = loop.attempts.get(id);
    if (!a?.response) {
      // Not answered yet (or the request failed before, and errors are not cached): ask.
      const asked = await ask(loop, { id, task, sample, round, messages, hash });
      if (asked === 'stopped') return { kind: 'stopped' };
      worked = true;
      if (asked === 'error') return { kind: 'error' };
      a = asked;
    }
    // An `internal` grade is the grader's failure, not a result: grade again.
    if (!a.grade || a.grade.category === 'internal') {
      const graded = await gradeAttempt(loop, { id, task, sample, round }, a);
      if (graded === 'stopped') return { kind: 'stopped' };
      worked = true;
      a = graded;
    }
    const grade = a.grade!;
    if (grade.category === 'internal') return { kind: 'error' };
    if (grade.category === 'pass') return { kind: 'finished', passedRound: round, worked };
    if (round === cfg.repairRounds) break;
    ({ messages, hash } = await repairPrompt(loop, { messages, hash }, a.response!.text, grade));
  }
  return { kind: 'finished', worked };
}

/**
 * Asks the model for one attempt and stores it at once, answered or failed
 * for good. 'stopped' when nothing was sent (cancelled, halted, over the
 * budget) or the request was abandoned by cancellation; 'error' when the
 * request failed for good (a fatal failure also halts the run).
 */
async function ask(loop: RunLoop, at: AttemptSlot): Promise<AttemptRecord | 'error' | 'stopped'> {
  const { deps, cfg, now, runId } = loop;
  const { id, task, sample, round, messages } = at;
  const base = {
    id,
    runId,
    taskId: task.id,
    sample,
    round,
    promptHash: at.hash,
    request: { provider: cfg.provider, baseUrl: cfg.baseUrl, model: cfg.model, params: cfg.params, sample },
  };
  const sent = await send(loop, at, { model: cfg.model, messages, ...cfg.params, sample });
  if (sent === 'stopped') return 'stopped';
  if ('failed' in sent) {
    await deps.store.putAttempt({ ...base, cacheKey: sent.cacheKey, error: sent.failed.toJSON(), cost: null, createdAt: now() });
    return sent.failed.fatal ? 'stopped' : 'error';
  }
  const r = sent.result;
  const a: AttemptRecord = { ...base, cacheKey: r.cacheKey, response: storedResponse(r.completion), cached: r.cached, cost: sent.cost, createdAt: now() };
  await deps.store.putAttempt(a);
  loop.tally = withAnswer(loop.tally, a);
  loop.attempts.set(id, a);
  return a;
}

/**
 * The next round's conversation: the repair prompt built from the answer and
 * the verifier's diagnosis, stored as the messages it adds to the previous
 * prompt when it extends it (so a chain of repairs stores each message once).
 */
async function repairPrompt(
  loop: RunLoop,
  prev: { readonly messages: readonly ChatMessage[]; readonly hash: string },
  answer: string,
  grade: GradeResult,
): Promise<{ messages: readonly ChatMessage[]; hash: string }> {
  const next = loop.deps.buildRepairPrompt(prev.messages, answer, grade.diagnosis, grade);
  const prefix = isPrefix(prev.messages, next);
  const added = prefix ? next.slice(prev.messages.length) : next;
  const hash = await promptHash(prefix ? prev.hash : undefined, added);
  await savePrompt(loop, { hash, ...(prefix ? { base: prev.hash } : {}), messages: added });
  return { messages: next, hash };
}

