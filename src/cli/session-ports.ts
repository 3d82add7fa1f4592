/**
 * What the CLI's sessions run on (src/core/eval/session/ports.ts), put
 * together in one place for grade, run, study, regrade and publish --check:
 * a pool of verifier worker threads as the grader (closed when the work
 * ends), a RunControl that Ctrl-C (SIGINT, SIGTERM) cancels, and a run's
 * ports over its store, with an LLM client that caches in that store.
 */
import { RunControl } from '../core/eval/run/run-control.ts';
import type { RunStore } from '../core/eval/run/run-types.ts';
import type { AgentRunner, Grader, SessionPorts } from '../core/eval/session/ports.ts';
import type { ResponseCacheStore } from '../core/llm/cache.ts';
import { LlmClient } from '../core/llm/client.ts';
import type { Provider } from '../core/llm/types.ts';
import type { Task } from '../core/tasks/task.ts';
import type { WorkerStats } from '../core/pool/pool.ts';
import { nodeVerifier } from './node-pool.ts';

export interface Grading {
  readonly grader: Grader;
  /** An agent's `run` calls, on the same pool. */
  readonly runner: AgentRunner;
  /** Cancelled by Ctrl-C when `stopping` was given. */
  readonly control: RunControl;
  /** What each worker of the pool did so far (pool.ts, `WorkerStats`). */
  readonly workers: () => WorkerStats[];
}

/**
 * Runs `body` with a grading pool of `workers` threads (default one per
 * core), closed when `body` ends. With `stopping`, Ctrl-C (SIGINT or SIGTERM)
 * prints it and cancels `control`, until `body` ends.
 */
export async function withGrading<T>(opts: { readonly workers?: number; readonly stopping?: string }, body: (g: Grading) => Promise<T>): Promise<T> {
  const pool = nodeVerifier({ size: opts.workers });
  const control = new RunControl();
  const onSignal = () => {
    process.stderr.write(`\n${opts.stopping}\n`);
    control.cancel();
  };
  if (opts.stopping !== undefined) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  try {
    return await body({ grader: (task, spec, options) => pool.grade(task, spec, options), runner: (req, signal) => pool.agentRun(req, { signal }), control, workers: () => pool.workerStats() });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.dispose();
  }
}

/** A run's LLM client: its provider, the response cache (the run's store), and requests at once (default the run config's). */
export interface ClientSetup {
  readonly provider: Provider;
  readonly cache: ResponseCacheStore;
  readonly requests?: number;
}

/** A session's ports over `store`: the tasks, the grader and the agent's runner (`withGrading`'s) and, for a run that asks a model, its client. */
export function sessionPorts(tasks: readonly Task[], store: RunStore, grading: Pick<Grading, 'grader' | 'runner'>, client?: ClientSetup): SessionPorts {
  const { grader, runner } = grading;
  if (!client) return { tasks, store, grader, runner };
  const { provider, cache, requests } = client;
  return { tasks, store, grader, runner, client: (config) => new LlmClient({ provider, cache, concurrency: Math.max(1, requests ?? config.concurrency) }) };
}
