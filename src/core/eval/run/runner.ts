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
import { failureReason } from './failure-reason.ts';
import type { LlmClient } from '../../llm/client.ts';
import { type LlmError, type StoredError, isLlmError } from '../../llm/errors.ts';
import { canonicalJson, sha256Hex } from '../../hash.ts';
import { isLocalUrl } from '../../llm/http.ts';
import { AdaptiveLimiter } from '../../llm/limiter.ts';
import { DEFAULT_PRICES, type Price, type PriceTable, costOf, priceFor } from '../../llm/prices.ts';
import type { ChatMessage, Completion, CompletionRequest } from '../../llm/types.ts';
import { type GradeResult, internalGrade } from '../grade/grade-types.ts';
import {
  type AttemptRecord,
  type PromptRecord,
  type RunConfig,
  type RunRecord,
  type RunStore,
  type StoredResponse,
  attemptId,
} from './run-types.ts';
import type { Budget } from './budget.ts';
import type { RunControl } from './run-control.ts';
import { type ChainEnd, EMPTY_TALLY, type Tally, etaMs, withAnswer, withChain } from './run-tally.ts';
import { chainsOwned, ownsChain } from './shard.ts';
import type { Task } from '../../tasks/task.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface BuiltPrompt {
  readonly messages: readonly ChatMessage[];
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface RunnerDeps {
  /** Every task the run may name (at least those in its config). */
  readonly tasks: readonly Task[];
  readonly buildPrompt: (task: Task, shots: number) => BuiltPrompt | Promise<BuiltPrompt>;
  /**
   * The messages of the next round: the original conversation, the answer,
   * the verifier's diagnosis, and the grade it came from (for feedback that
   * tells the model less than the diagnosis; prompt/repair.ts).
   */
  readonly buildRepairPrompt: (original: readonly ChatMessage[], answer: string, diagnosis: string, grade: GradeResult) => readonly ChatMessage[];
  readonly grade: (task: Task, responseText: string) => Promise<GradeResult>;
  /** The provider behind the cache, retries and limiter; it must match the run's provider and base URL. */
  readonly client: LlmClient;
  readonly store: RunStore;
  readonly prices?: PriceTable;
  readonly onProgress?: (progress: RunProgress) => void;
  /** Told what happens to each attempt: sent, retrying (why, how long), answered, graded, failed. */
  readonly onAttempt?: (event: AttemptEvent) => void;
  readonly signal?: AbortSignal;
  readonly control?: RunControl;
  readonly now?: () => number;
  /** Spending limits (budget.ts): a request whose worst case does not fit is not sent and the run stops, resumable. */
  readonly budget?: Budget;
}

export interface RunProgress {
  /** (task, sample) chains finished, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Chains whose first answer passed. */
  readonly passed: number;
  /** Chains that passed in some round. */
  readonly passedAfterRepair: number;
  /**
   * Chains that ended with nothing charged to the model: a request that
   * failed for good (unanswered) or an answer the grader failed on
   * (internal). Resuming the run tries them again.
   */
  readonly errors: number;
  readonly tokens: { readonly input: number; readonly output: number };
  /** Answers reused from the response cache: nothing was sent, their tokens are not in `tokens` nor `cost`. */
  readonly cached?: { readonly answers: number; readonly input: number; readonly output: number };
  /** USD so far over priced attempts. */
  readonly cost: number;
  /** Estimated ms to finish, from this session's pace; null before the first chain finishes. */
  readonly etaMs: number | null;
  readonly paused: boolean;
}

/** One step in the life of an attempt, for live status displays. */
export type AttemptEvent = { readonly id: string; readonly taskId: string; readonly sample: number; readonly round: number; readonly at: number } & (
  | { readonly kind: 'sent' }
  | { readonly kind: 'retrying'; readonly reason: string; readonly waitMs: number; readonly retry: number }
  | { readonly kind: 'answered'; readonly cached: boolean; readonly latencyMs: number; readonly tokens: { readonly input: number; readonly output: number } }
  | { readonly kind: 'failed'; readonly message: string; readonly code: string }
  | { readonly kind: 'grading' }
  /** `ms` is the verifier's own time (not the wait for a worker or for Z3 to load); `reason` why a failed answer failed (failure-reason.ts). */
  | { readonly kind: 'graded'; readonly category: string; readonly ms: number; readonly reason?: string }
);

export interface RunOutcome {
  readonly status: 'done' | 'incomplete' | 'cancelled' | 'failed';
  /** The error that stopped a failed run. */
  readonly error?: StoredError;
  readonly progress: RunProgress;
  /** Gradings that threw (an internal error of the grader): those attempts are graded `internal` and graded again on resume. */
  readonly gradeErrors: readonly { readonly attemptId: string; readonly message: string }[];
}

/** The hash a prompt record is stored under. */
export function promptHash(base: string | undefined, messages: readonly ChatMessage[]): Promise<string> {
  return sha256Hex(canonicalJson({ base: base ?? null, messages }));
}

function isPrefix(prefix: readonly ChatMessage[], full: readonly ChatMessage[]): boolean {
  return prefix.length <= full.length && prefix.every((m, i) => m.role === full[i].role && m.content === full[i].content);
}

function storedResponse(c: Completion): StoredResponse {
  return {
    text: c.text,
    model: c.model,
    usage: c.usage,
    finishReason: c.finishReason,
    ...(c.rawFinishReason !== undefined ? { rawFinishReason: c.rawFinishReason } : {}),
    latencyMs: c.latencyMs,
  };
}

/** Everything one call of `runBenchmark` shares between its chains. */
interface RunLoop {
  readonly runId: string;
  readonly run: RunRecord;
  readonly cfg: RunConfig;
  readonly deps: RunnerDeps;
  readonly now: () => number;
  /** The run's price per token (zero for a local model), undefined when the model has none. */
  readonly price: Price | undefined;
  /**
   * Aborted on cancellation (the caller's signal or the control): requests
   * in flight are abandoned. A fatal provider error only halts new requests,
   * so answers already on their way are kept.
   */
  readonly stop: AbortController;
  /**
   * A request holds a slot from before the pause check until it is answered,
   * so a paused run sends nothing that was merely queued behind the requests
   * in flight.
   */
  readonly requestSlots: AdaptiveLimiter;
  readonly gradeSlots: AdaptiveLimiter;
  /** The run's attempts by id: the stored ones, then each as it is answered or graded. */
  readonly attempts: Map<string, AttemptRecord>;
  readonly writtenPrompts: Set<string>;
  readonly gradeErrors: { attemptId: string; message: string }[];
  /** Chains to run, in order, and the index of the next one to start. */
  readonly queue: readonly (readonly [Task, number])[];
  next: number;
  tally: Tally;
  /** No new request starts: a fatal provider error, an exhausted budget or a crash. */
  halted: boolean;
  fatal?: LlmError;
  crash?: unknown;
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

/** Where an attempt sits in its chain, and what it sends. */
interface AttemptSlot {
  readonly id: string;
  readonly task: Task;
  readonly sample: number;
  readonly round: number;
  readonly messages: readonly ChatMessage[];
  readonly hash: string;
}

/**
 * Asks the model for one attempt and stores it at once, answered or failed
 * for good. 'stopped' when nothing was sent (cancelled, halted, over the
 * budget) or the request was abandoned by cancellation; 'error' when the
 * request failed for good (a fatal failure also halts the run).
 */
async function ask(loop: RunLoop, at: AttemptSlot): Promise<AttemptRecord | 'error' | 'stopped'> {
  const { deps, cfg, stop, now, runId } = loop;
  const { id, task, sample, round, messages } = at;
  const slot = await loop.requestSlots.acquire(stop.signal).catch(() => undefined);
  if (!slot) return 'stopped';
  try {
    await deps.control?.whileNotPaused(stop.signal);
    if (stop.signal.aborted || loop.halted) return 'stopped';
    const request: CompletionRequest = { model: cfg.model, messages, ...cfg.params, sample };
    const base = {
      id,
      runId,
      taskId: task.id,
      sample,
      round,
      promptHash: at.hash,
      request: { provider: cfg.provider, baseUrl: cfg.baseUrl, model: cfg.model, params: cfg.params, sample },
    };
    const hold = deps.budget?.reserve(messages);
    if (deps.budget && !hold) {
      loop.halted = true;
      return 'stopped';
    }
    const tell = (ev: DistributiveOmit<AttemptEvent, 'id' | 'taskId' | 'sample' | 'round' | 'at'>) =>
      deps.onAttempt?.({ id, taskId: task.id, sample, round, at: now(), ...ev } as AttemptEvent);
    tell({ kind: 'sent' });
    try {
      const r = await deps.client
        .complete(request, {
          signal: stop.signal,
          onRetry: (err, retry, waitMs) => tell({ kind: 'retrying', reason: `${err.code}: ${err.message}`, waitMs, retry }),
        })
        .catch((e: unknown) => {
          hold?.release();
          throw e;
        });
      hold?.settle(r.completion.usage, r.cached);
      // A cached answer cost nothing this time.
      const cost = r.cached ? 0 : costOf(r.completion.usage, loop.price);
      const a: AttemptRecord = { ...base, cacheKey: r.cacheKey, response: storedResponse(r.completion), cached: r.cached, cost, createdAt: now() };
      await deps.store.putAttempt(a);
      loop.tally = withAnswer(loop.tally, a);
      tell({ kind: 'answered', cached: r.cached, latencyMs: r.completion.latencyMs, tokens: r.completion.usage });
      loop.attempts.set(id, a);
      return a;
    } catch (e) {
      if (!isLlmError(e)) throw e;
      // Abandoned by cancellation: nothing is stored, the request is sent again on resume.
      if (stop.signal.aborted && e.kind === 'aborted') return 'stopped';
      tell({ kind: 'failed', message: e.message, code: e.code });
      await deps.store.putAttempt({ ...base, cacheKey: await deps.client.keyOf(request), error: e.toJSON(), cost: null, createdAt: now() });
      if (e.fatal) {
        loop.fatal ??= e;
        loop.halted = true;
        return 'stopped';
      }
      return 'error';
    }
  } finally {
    slot();
  }
}

/**
 * Grades an answered attempt and stores the grade. A grader that throws
 * gives an `internal` grade (graded again on resume), recorded in
 * `gradeErrors`. 'stopped' when the run was cancelled before a grading slot
 * freed up.
 */
async function gradeAttempt(loop: RunLoop, at: Omit<AttemptSlot, 'messages' | 'hash'>, a: AttemptRecord): Promise<AttemptRecord | 'stopped'> {
  const { deps, now } = loop;
  const { id, task, sample, round } = at;
  const release = await loop.gradeSlots.acquire(loop.stop.signal).catch(() => undefined);
  if (!release) return 'stopped';
  const where = { id, taskId: task.id, sample, round };
  const started = now();
  deps.onAttempt?.({ ...where, at: started, kind: 'grading' });
  let grade: GradeResult;
  try {
    grade = await deps.grade(task, a.response!.text);
    const reason = failureReason(grade);
    deps.onAttempt?.({ ...where, at: now(), kind: 'graded', category: grade.category, ms: grade.ms, ...(reason ? { reason } : {}) });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    loop.gradeErrors.push({ attemptId: id, message });
    grade = internalGrade(a.response!.text, message);
  } finally {
    release();
  }
  const graded: AttemptRecord = { ...a, grade, gradedAt: now() };
  loop.attempts.set(id, graded);
  await deps.store.putAttempt(graded);
  return graded;
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

async function savePrompt(loop: RunLoop, record: PromptRecord): Promise<void> {
  if (loop.writtenPrompts.has(record.hash)) return;
  await loop.deps.store.putPrompt(record);
  loop.writtenPrompts.add(record.hash);
}
