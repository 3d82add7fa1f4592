/**
 * What the run loop's parts share (runner.ts, agent-chain.ts): its
 * dependencies and events, the state of one call of `runBenchmark`, and the
 * steps every chain takes: send a request, store an answer, grade it, store
 * a prompt.
 */
import type { LlmClient, ClientResult } from '../../llm/client.ts';
import { type LlmError, isLlmError } from '../../llm/errors.ts';
import { canonicalJson, sha256Hex } from '../../hash.ts';
import type { AdaptiveLimiter } from '../../llm/limiter.ts';
import { type Price, type PriceTable, costOf } from '../../llm/prices.ts';
import type { ChatMessage, Completion, CompletionRequest, ToolCall, ToolSpec } from '../../llm/types.ts';
import { extractSpec } from '../grade/answer.ts';
import { type GradeResult, internalGrade } from '../grade/grade-types.ts';
import { failureReason } from './failure-reason.ts';
import type { ToolResult } from '../agent/tools.ts';
import type { AttemptRecord, PromptRecord, RunConfig, RunRecord, RunStore, StoredResponse } from './run-types.ts';
import type { Budget } from './budget.ts';
import type { RunControl } from './run-control.ts';
import type { Tally } from './run-tally.ts';
import type { Task } from '../../tasks/task.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What the loop needs of the agent mode's tools: their specs, the first prompt's paragraph, and how a call is answered. */
export interface AgentDeps {
  readonly tools: readonly ToolSpec[];
  readonly instruction: string;
  /** Answers one call; `overCap` when the task's calls are used up. Never throws for what the model sent. */
  readonly answer: (task: Task, call: ToolCall, overCap: boolean, signal: AbortSignal) => Promise<ToolResult>;
}

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
  /** The agent mode's tools, for a run whose config has `agent` (agent-chain.ts). */
  readonly agent?: AgentDeps;
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

/** The hash a prompt record is stored under. */
export function promptHash(base: string | undefined, messages: readonly ChatMessage[]): Promise<string> {
  return sha256Hex(canonicalJson({ base: base ?? null, messages }));
}

export function storedResponse(c: Completion): StoredResponse {
  return {
    text: c.text,
    model: c.model,
    usage: c.usage,
    finishReason: c.finishReason,
    ...(c.rawFinishReason !== undefined ? { rawFinishReason: c.rawFinishReason } : {}),
    latencyMs: c.latencyMs,
    ...(c.toolCalls && c.toolCalls.length > 0 ? { toolCalls: c.toolCalls } : {}),
    ...(c.replay !== undefined ? { replay: c.replay } : {}),
  };
}

/** Everything one call of `runBenchmark` shares between its chains. */
export interface RunLoop {
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

/** Where an attempt sits in its chain, and what it sends. */
export interface AttemptSlot {
  readonly id: string;
  readonly task: Task;
  readonly sample: number;
  readonly round: number;
  readonly messages: readonly ChatMessage[];
  readonly hash: string;
}

/** What `send` got: an answer and its cost, or the error the request failed with for good. */
export type Sent = { readonly result: ClientResult; readonly cost: number | null } | { readonly failed: LlmError; readonly cacheKey: string };

/**
 * Sends one request for an attempt (a first answer, a repair round, an agent
 * turn): a request slot, the pause, the budget, the events, the client
 * (cache, retries). 'stopped' when nothing was sent or the request was
 * abandoned by cancellation; a fatal failure also halts the run (the caller
 * stores it). Stores nothing.
 */
export async function send(loop: RunLoop, at: Pick<AttemptSlot, 'id' | 'task' | 'sample' | 'round'>, request: CompletionRequest): Promise<Sent | 'stopped'> {
  const { deps, stop, now } = loop;
  const { id, task, sample, round } = at;
  const slot = await loop.requestSlots.acquire(stop.signal).catch(() => undefined);
  if (!slot) return 'stopped';
  try {
    await deps.control?.whileNotPaused(stop.signal);
    if (stop.signal.aborted || loop.halted) return 'stopped';
    const hold = deps.budget?.reserve(request.messages);
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
      tell({ kind: 'answered', cached: r.cached, latencyMs: r.completion.latencyMs, tokens: r.completion.usage });
      // A cached answer cost nothing this time.
      return { result: r, cost: r.cached ? 0 : costOf(r.completion.usage, loop.price) };
    } catch (e) {
      if (!isLlmError(e)) throw e;
      // Abandoned by cancellation: nothing is stored, the request is sent again on resume.
      if (stop.signal.aborted && e.kind === 'aborted') return 'stopped';
      tell({ kind: 'failed', message: e.message, code: e.code });
      if (e.fatal) {
        loop.fatal ??= e;
        loop.halted = true;
      }
      return { failed: e, cacheKey: await deps.client.keyOf(request) };
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
export async function gradeAttempt(loop: RunLoop, at: Omit<AttemptSlot, 'messages' | 'hash'>, a: AttemptRecord): Promise<AttemptRecord | 'stopped'> {
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
    grade = internalGrade(extractSpec(a.response!.text), message);
  } finally {
    release();
  }
  const graded: AttemptRecord = { ...a, grade, gradedAt: now() };
  loop.attempts.set(id, graded);
  await deps.store.putAttempt(graded);
  return graded;
}

export async function savePrompt(loop: RunLoop, record: PromptRecord): Promise<void> {
  if (loop.writtenPrompts.has(record.hash)) return;
  await loop.deps.store.putPrompt(record);
  loop.writtenPrompts.add(record.hash);
}
