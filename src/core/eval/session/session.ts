/**
 * One run session: everything a benchmark run is made of besides its input
 * and its display. Given a run choice and the ports (store, grader, client
 * factory, clock), it owns the run id (a hash of the canonical config), the
 * provenance (this app, this verifier), the grading policy and the grade
 * closure, the prompts the run's config names, and the runner's wiring. The
 * CLI's `run` and the Evaluate page only parse their input, open a session,
 * and render its progress (docs/design.md, "One run session").
 */
import { PROVENANCE } from '../../version.ts';
import { PROMPT_VARIANTS } from '../prompt/variants.ts';
import { renameChoiceError } from '../../rename/choice.ts';
import { shapeChoiceError } from '../../shape/choice.ts';
import type { PriceTable } from '../../llm/prices.ts';
import type { Budget } from '../run/budget.ts';
import type { RunControl } from '../run/run-control.ts';
import { createRun } from '../run/run-setup.ts';
import { type AttemptEvent, type RunOutcome, type RunProgress, runBenchmark } from '../run/runner.ts';
import type { RunRecord } from '../run/run-types.ts';
import { type ShardSpec, formatShard } from '../run/shard.ts';
import { type RunChoice, canonicalConfig, runIdOf } from './config.ts';
import { type GradeAnswer, gradeClosure } from './grading.ts';
import { SessionError, type SessionPorts } from './ports.ts';
import { agentDeps } from './agent.ts';
import { VERIFY_AGAINST } from '../agent/tools.ts';
import type { RunConfig } from '../run/run-types.ts';

/** Why an agent run's config cannot run, or undefined. */
function agentChoiceError(config: RunConfig): string | undefined {
  const a = config.agent!;
  if (config.repairRounds > 0) return 'the agent mode has no repair rounds: the model repairs with its tools (set repair rounds to 0)';
  if (!Number.isInteger(a.maxTurns) || a.maxTurns < 1) return `max turns must be a whole number of at least 1 (got ${a.maxTurns})`;
  if (!Number.isInteger(a.maxCalls) || a.maxCalls < 0) return `max tool calls must be a whole number (got ${a.maxCalls})`;
  if (!VERIFY_AGAINST.includes(a.verifyAgainst)) return `verify checks against ${VERIFY_AGAINST.join(' or ')}, not "${String(a.verifyAgainst)}"`;
  if (!(a.toolTimeoutMs > 0)) return `the tool time limit must be positive (got ${a.toolTimeoutMs})`;
  return undefined;
}

/** How the front end drives one session of a run. */
export interface RunHooks {
  readonly control?: RunControl;
  readonly signal?: AbortSignal;
  readonly budget?: Budget;
  readonly prices?: PriceTable;
  readonly onProgress?: (progress: RunProgress) => void;
  readonly onAttempt?: (event: AttemptEvent) => void;
}

/** A shard's record must be the same shard (or the whole run) as asked. */
export function assertSameShard(existing: RunRecord, shard: ShardSpec | undefined, where: string): void {
  const a = existing.shard ? `shard ${formatShard(existing.shard)}` : 'the whole run';
  const b = shard ? `shard ${formatShard(shard)}` : 'the whole run';
  if (a !== b) throw new SessionError('SESSION002', `${where} holds ${a} of run ${existing.id}, not ${b}`);
}

export class RunSession {
  private constructor(
    readonly run: RunRecord,
    /** False when the store held the run already (this session continues it). */
    readonly created: boolean,
    private readonly ports: SessionPorts,
  ) {}

  /** The run id `choice` gets, before anything is stored. */
  static idOf(choice: RunChoice): Promise<string> {
    return runIdOf(canonicalConfig(choice));
  }

  /**
   * Opens the run `choice` describes: the stored one with that id (resumed),
   * or a new one. `where` names the store in errors ("runs/x", "this browser").
   */
  static async open(choice: RunChoice, ports: SessionPorts, opts: { readonly name?: string; readonly shard?: ShardSpec; readonly where?: string } = {}): Promise<RunSession> {
    const config = canonicalConfig(choice);
    const id = await runIdOf(config);
    const where = opts.where ?? 'the store';
    const existing = await ports.store.getRun(id);
    if (existing) {
      assertSameShard(existing, opts.shard, where);
      return new RunSession(existing, false, ports);
    }
    const now = (ports.clock ?? Date.now)();
    let record: RunRecord;
    try {
      record = createRun({ id, name: opts.name, config, provenance: PROVENANCE, tasks: ports.tasks, now });
    } catch (e) {
      throw new SessionError('SESSION003', (e as Error).message);
    }
    // Fail before anything is stored when the prompt variant is unknown.
    if (!PROMPT_VARIANTS.includes(config.prompt!)) throw new SessionError('SESSION003', `unknown prompt variant "${config.prompt}" (this build has ${PROMPT_VARIANTS.join(', ')})`);
    const badRename = config.rename && renameChoiceError(config.rename);
    if (badRename) throw new SessionError('SESSION003', badRename);
    const badShape = config.shape && shapeChoiceError(config.shape);
    if (badShape) throw new SessionError('SESSION003', badShape);
    const badAgent = config.agent && agentChoiceError(config);
    if (badAgent) throw new SessionError('SESSION003', badAgent);
    const run = opts.shard ? { ...record, shard: opts.shard } : record;
    await ports.store.putRun(run);
    return new RunSession(run, true, ports);
  }

  /** Opens stored run `id` to continue it (the Runs page's Resume, a reload). */
  static async resume(id: string, ports: SessionPorts): Promise<RunSession> {
    const run = await ports.store.getRun(id);
    if (!run) throw new SessionError('SESSION001', `no run "${id}" in the store`);
    if (run.source) throw new SessionError('SESSION004', `run "${id}" was graded from ${run.source.file}: it has no requests to resume`);
    return new RunSession(run, false, ports);
  }

  get id(): string {
    return this.run.id;
  }

  /** How this run grades an answer. */
  get grade(): GradeAnswer {
    return gradeClosure(this.run.config, this.ports.grader, this.ports.tasks);
  }

  /** Runs (or continues) the run to its end, a cancellation or a fatal provider error. */
  async execute(hooks: RunHooks = {}): Promise<RunOutcome> {
    const { client } = this.ports;
    if (!client) throw new Error('this session has no LLM client (SessionPorts.client)');
    return runBenchmark(this.run.id, {
      tasks: this.ports.tasks,
      ...(await promptsOrError(this.run, this.ports)),
      grade: this.grade,
      client: client(this.run.config),
      store: this.ports.store,
      prices: hooks.prices,
      control: hooks.control,
      signal: hooks.signal,
      budget: hooks.budget,
      onProgress: hooks.onProgress,
      onAttempt: hooks.onAttempt,
      now: this.ports.clock,
      agent: agentDeps(this.run.config, this.ports.grader, this.ports.clock, this.ports.runner),
    });
  }
}

/** The run's prompt builders (loaded on first use: the page shows its forms without them). */
async function promptsOrError(run: RunRecord, ports: SessionPorts) {
  const { promptsForRun } = await import('../prompt/for-run.ts');
  try {
    return promptsForRun(run.config, ports.tasks);
  } catch (e) {
    throw new SessionError('SESSION003', (e as Error).message);
  }
}
