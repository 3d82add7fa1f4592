/**
 * What a benchmark run stores: the run itself, the prompts it sent (each once,
 * by hash), and one attempt per (task, sample, repair round). Plain JSON
 * data: it goes into IndexedDB, JSONL files and export files as it is. No
 * record ever holds an API key.
 */
import type { StoredError } from '../../llm/errors.ts';
import type { ChatMessage, FinishReason, ProviderKind, Replay, SamplingParams, SentRequest, ToolCall, Usage } from '../../llm/types.ts';
import type { AgentSettings, ToolResult } from '../agent/tools.ts';
import type { GradeResult, GradingSettings } from '../grade/grade-types.ts';
import type { ShardSpec } from './shard.ts';
import type { RenameChoice } from '../../rename/choice.ts';
import type { ShapeChoice } from '../../shape/choice.ts';

/** Everything that defines a run's results (the key is deliberately not here). */
export interface RunConfig {
  readonly provider: ProviderKind;
  readonly baseUrl: string;
  readonly model: string;
  readonly params: SamplingParams;
  /** The selected task ids, in run order. */
  readonly tasks: readonly string[];
  /** Few-shot examples in the prompt. */
  readonly shots: number;
  /** Samples per task (n of pass@k). */
  readonly n: number;
  /** Repair rounds after a failed answer (0 = none). */
  readonly repairRounds: number;
  /** Requests in flight at once (the limiter may lower it on 429). */
  readonly concurrency: number;
  /** Gradings (verifier calls) at once. */
  readonly gradeConcurrency: number;
  /** How answers are read: absent is OSVLab's reading; 'osvbench' is OSVBench's harness (src/core/eval/grade/answer.ts). */
  readonly extract?: 'osvlab' | 'osvbench';
  /** The verifier's time limit and whether strict ran (absent in runs made before they were recorded). */
  readonly grading?: GradingSettings;
  /** What a repair round tells the model (absent in older runs: 'counterexample'). */
  readonly feedback?: FeedbackMode;
  /** The prompt variant's id (absent in older runs: 'standard'). */
  readonly prompt?: string;
  /** The renaming the model saw, and whose inverse its answers were graded through (absent: hv6's own names; docs/rename.md). */
  readonly rename?: RenameChoice;
  /** The order the model saw the shown code in (absent: the kernel's own; docs/shape.md). Answers are graded as written. */
  readonly shape?: ShapeChoice;
  /** The agent mode (docs/research.md, "The agent mode"): the model calls the verifier as a tool; absent: one answer (and repair rounds). */
  readonly agent?: AgentSettings;
}

/** What a repair prompt carries of the verifier's answer: its counterexample and diagnosis, only the verdict, or nothing. */
export type FeedbackMode = 'counterexample' | 'verdict' | 'none';

export interface RunProvenance {
  /** OSVLab's version. */
  readonly app: string;
  /** The verifier's version: grades are comparable only under the same one. */
  readonly verifier: string;
}

/**
 * `incomplete`: the run went through every task, but some requests were
 * never answered (or some answers could not be graded); resuming asks and
 * grades those again. Every status but `done` can be resumed.
 */
export type RunStatus = 'created' | 'running' | 'done' | 'incomplete' | 'cancelled' | 'failed';

/** A run that can be continued: anything but done. */
export function isResumable(status: RunStatus): boolean {
  return status !== 'done';
}

export interface RunRecord {
  readonly id: string;
  readonly name?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly config: RunConfig;
  readonly provenance: RunProvenance;
  /** Task id -> the task's content hash when the run was made. */
  readonly taskHashes: Readonly<Record<string, string>>;
  readonly status: RunStatus;
  /** Why the run stopped, when it failed. */
  readonly error?: StoredError;
  /** For a run made of answers obtained elsewhere (`osvlab grade --out`, an import): where they came from. */
  readonly source?: RunSource;
  /** This record does only shard K of N of the work (see shard.ts); merge puts the shards together. */
  readonly shard?: ShardSpec;
  /** Why the run holds less than it should (a merge that skipped damaged lines); reports say partial. */
  readonly partial?: string;
  /** The studies this run is a cell of (src/core/eval/study/): the Runs page groups by them. */
  readonly studies?: readonly StudyRef[];
}

/** A run's place in a study: which study, and which cell of its grid. */
export interface StudyRef {
  /** The study's id (a hash of its grid). */
  readonly id: string;
  readonly name: string;
  /** The cell's 0-based position in the grid. */
  readonly cell: number;
  /** The levels of the factors that vary, e.g. "guide / verdict". */
  readonly label: string;
}

/** Answers graded from a file instead of asked of a provider: such a run has nothing to resume. */
export interface RunSource {
  readonly format: 'jsonl' | 'osvbench';
  /** The file's name (not its path). */
  readonly file: string;
}

/**
 * A prompt, stored once by hash. A repair prompt stores only what it adds to
 * the prompt it continues (`base`), not the 20-30k-token task prompt again.
 */
export interface PromptRecord {
  /** sha256 of canonical JSON {base, messages}. */
  readonly hash: string;
  readonly base?: string;
  readonly messages: readonly ChatMessage[];
  /** What the prompt builder said about it (e.g. shots, token estimate). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The model's answer as stored (the raw body is not kept). */
export interface StoredResponse {
  readonly text: string;
  readonly model: string;
  readonly usage: Usage;
  readonly finishReason: FinishReason;
  readonly rawFinishReason?: string;
  readonly latencyMs: number;
  /** The turn's tool calls (agent mode). */
  readonly toolCalls?: readonly ToolCall[];
  /** What goes back to the provider with the turn (llm/types.ts, ChatMessage.replay). */
  readonly replay?: Replay;
}

/** How a trajectory ended: a final answer without calls, a `submit` call, or the turn limit. */
export type TrajectoryEnd = 'answered' | 'submitted' | 'turns-exhausted';

/** One model turn of an agent trajectory: what the model said and called, and what each call answered. */
export interface AgentTurn {
  readonly response: StoredResponse;
  readonly cacheKey: string;
  readonly cached?: boolean;
  /** USD at the run's prices; null when the model has no price. */
  readonly cost: number | null;
  /** One result per call, in the calls' order. */
  readonly results: readonly ToolResult[];
  /** When the turn was answered (ms since the epoch). */
  readonly at: number;
}

/**
 * An agent run's conversation for one (task, sample), stored turn by turn
 * as it happens (a resumed run continues after the last stored turn). The
 * attempt's `response` is set at the end: the graded answer's text, with the
 * tokens, cost and time of every turn summed.
 */
export interface Trajectory {
  readonly turns: readonly AgentTurn[];
  readonly end?: TrajectoryEnd;
}

export interface AttemptRecord {
  /** attemptId(runId, taskId, sample, round). */
  readonly id: string;
  readonly runId: string;
  readonly taskId: string;
  /** 0-based sample index. */
  readonly sample: number;
  /** 0 = first answer, r = r-th repair. */
  readonly round: number;
  /** The messages sent (see PromptRecord). */
  readonly promptHash: string;
  readonly cacheKey: string;
  /** What was sent besides the messages. */
  readonly request: SentRequest;
  readonly response?: StoredResponse;
  /** The answer came from the response cache (no request was sent this time). */
  readonly cached?: boolean;
  /** The request failed for good (retries spent or not retryable). */
  readonly error?: StoredError;
  /** USD at the run's prices; null when the model has no price. */
  readonly cost: number | null;
  readonly grade?: GradeResult;
  readonly createdAt: number;
  readonly gradedAt?: number;
  /** An agent run's turns (round 0 holds the whole trajectory; docs/research.md, "The agent mode"). */
  readonly trajectory?: Trajectory;
}

/** The storage a run needs: Dexie in the browser, JSONL files for the CLI. */
export interface RunStore {
  putRun(run: RunRecord): Promise<void>;
  getRun(id: string): Promise<RunRecord | undefined>;
  listRuns(): Promise<RunRecord[]>;
  /** Removes the run and its attempts (prompts may be shared and stay). */
  deleteRun(id: string): Promise<void>;
  /** Inserts or replaces by id. */
  putAttempt(attempt: AttemptRecord): Promise<void>;
  listAttempts(runId: string): Promise<AttemptRecord[]>;
  putPrompt(prompt: PromptRecord): Promise<void>;
  getPrompt(hash: string): Promise<PromptRecord | undefined>;
}

export function attemptId(runId: string, taskId: string, sample: number, round: number): string {
  return `${runId}|${taskId}|${sample}|${round}`;
}
