/**
 * What a run session needs from its front end: the tasks, a store, a grader
 * (the page's Web Worker pool or the CLI's worker threads), an LLM client
 * for a run's provider (the key stays the front end's), and a clock.
 */
import type { LlmClient } from '../../llm/client.ts';
import type { Task } from '../../tasks/task.ts';
import type { RunToolReply, RunToolRequest } from '../agent/run-tool.ts';
import type { GradeOptions, GradeResult } from '../grade/grade-types.ts';
import type { RunConfig, RunStore } from '../run/run-types.ts';

/** How one spec is graded, plus what controls its job on the pool (neither crosses to the worker). */
export interface GraderOptions extends GradeOptions {
  /** Cancels the grading (a queued or running job); the grader then throws. */
  readonly signal?: AbortSignal;
  /**
   * An agent's tool call (`verify`), `timeoutMs` its limit: the job's hard
   * limit is a tool call's (core/service/limits.ts), and past it the grader
   * throws `ToolOverrunError` (the model reads AGENT011) instead of grading
   * `timeout`.
   */
  readonly toolCall?: boolean;
  /** The wall-clock limit of the job, past which its worker is stopped (default: core/service/limits.ts). */
  readonly hardTimeoutMs?: number;
}

/**
 * Grades one spec, as read from an answer (`extractSpec`; null when the
 * answer has no code); a grader failure may throw (the session grades it
 * `internal`).
 */
export type Grader = (task: Task, spec: string | null, options: GraderOptions) => Promise<GradeResult>;

/**
 * Answers an agent's `run` call (core/eval/agent/run-tool.ts) off the
 * thread the agent loop runs on: on a verifier worker, with the call's hard
 * limit (core/service/client.ts `agentRun`). `signal` cancels it (it then rejects).
 */
export type AgentRunner = (req: RunToolRequest, signal?: AbortSignal) => Promise<RunToolReply>;

export interface SessionPorts {
  /** Every task of this build, in loadTasks() order. */
  readonly tasks: readonly Task[];
  readonly store: RunStore;
  readonly grader: Grader;
  /** Where an agent's `run` calls are answered (a verifier worker); absent: on this thread. */
  readonly runner?: AgentRunner;
  /** The client for `config`'s provider and base URL; needed only to run a benchmark. */
  readonly client?: (config: RunConfig) => LlmClient;
  /** Milliseconds since the epoch (default Date.now). */
  readonly clock?: () => number;
}

/** A run the session cannot open as asked, with a stable code (docs/design.md lists them). */
export class SessionError extends Error {
  constructor(
    readonly code: 'SESSION001' | 'SESSION002' | 'SESSION003' | 'SESSION004',
    message: string,
  ) {
    super(`${code} ${message}`);
    this.name = 'SessionError';
  }
}
