/**
 * `osvlab grade --shard K/N [--out DIR]`: grading answers obtained elsewhere,
 * at scale. The j-th line about a task is the task's sample j, tasks are
 * numbered in the order they first appear, and the (task, sample) pairs are
 * split into shards as a run's chains are (src/core/bench/shard.ts).
 * With `--out`, the grades go into a run directory (one attempt per line, no
 * requests, no cost) that `osvlab report` reads and `osvlab merge` combines
 * with the other shards. Rerunning the same command skips lines already
 * graded there. See docs/scale.md.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GradeResult } from '../core/bench/grade-types.ts';
import { createRun, promptHash } from '../core/bench/runner.ts';
import { type AttemptRecord, type RunRecord, attemptId } from '../core/bench/run-types.ts';
import { type ShardSpec, ShardError, formatShard, ownsChain, parseShard } from '../core/bench/shard.ts';
import type { Task } from '../core/bench/task.ts';
import { APP_VERSION, VERIFIER_VERSION } from '../core/version.ts';
import { JsonlRepository } from '../store/jsonl.ts';
import { UsageError } from './args.ts';

export const SCALE_GRADE_OPTIONS = ['shard', 'out'] as const;

export function shardOption(text: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ShardSpec | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShard(text, env);
  } catch (e) {
    if (e instanceof ShardError) throw new UsageError(e.message);
    throw e;
  }
}

/** Each line's sample number (its rank among the lines about the same task), then the shard's lines. */
export function shardLines<L extends { readonly task: Task }>(lines: readonly L[], shard: ShardSpec | undefined): { line: L; sample: number }[] {
  const seen = new Map<string, number>();
  const index = new Map<string, number>();
  const numbered = lines.map((line) => {
    const sample = seen.get(line.task.id) ?? 0;
    seen.set(line.task.id, sample + 1);
    if (!index.has(line.task.id)) index.set(line.task.id, index.size);
    return { line, sample };
  });
  const n = Math.max(1, ...seen.values());
  return numbered.filter(({ line, sample }) => ownsChain(shard, index.get(line.task.id)!, sample, index.size, n));
}

const MODEL = 'responses-file';
const BASE_URL = 'file:responses';

/** A run directory for the grades of a responses file (or one shard of it). */
export class GradeRunDir {
  private constructor(
    private readonly store: JsonlRepository,
    readonly run: RunRecord,
    private readonly graded: Map<string, AttemptRecord>,
    private readonly hash: string,
  ) {}

  static async open(dir: string, init: { text: string; strict: boolean; shard: ShardSpec | undefined; lines: readonly { readonly task: Task }[]; allTasks: readonly Task[] }): Promise<GradeRunDir> {
    const id = createHash('sha256').update(JSON.stringify({ responses: init.text, strict: init.strict, verifier: VERIFIER_VERSION })).digest('hex').slice(0, 12);
    const order: string[] = [];
    const counts = new Map<string, number>();
    for (const l of init.lines) {
      if (!counts.has(l.task.id)) order.push(l.task.id);
      counts.set(l.task.id, (counts.get(l.task.id) ?? 0) + 1);
    }
    const known = new Map(init.allTasks.map((t) => [t.id, t]));
    for (const l of init.lines) if (!known.has(l.task.id)) known.set(l.task.id, l.task);
    const store = await JsonlRepository.open(dir);
    let run = await store.getRun(id);
    if (!run) {
      if (existsSync(join(dir, 'run.json'))) {
        await store.close();
        throw new UsageError(`${dir} holds a different run; choose another --out`);
      }
      const record = createRun({
        id,
        config: {
          provider: 'openai-compatible',
          baseUrl: BASE_URL,
          model: MODEL,
          params: {},
          tasks: order,
          shots: 0,
          n: Math.max(1, ...counts.values()),
          repairRounds: 0,
          concurrency: 1,
          gradeConcurrency: 1,
        },
        provenance: { app: APP_VERSION, verifier: VERIFIER_VERSION },
        tasks: [...known.values()],
        now: Date.now(),
      });
      run = init.shard ? { ...record, shard: init.shard } : record;
      await store.putRun(run);
    } else if ((run.shard ? formatShard(run.shard) : '') !== (init.shard ? formatShard(init.shard) : '')) {
      await store.close();
      throw new UsageError(`${dir} holds ${run.shard ? `shard ${formatShard(run.shard)}` : 'the whole file'}, not ${init.shard ? `shard ${formatShard(init.shard)}` : 'the whole file'}; choose another --out`);
    }
    const hash = await promptHash(undefined, []);
    await store.putPrompt({ hash, messages: [], meta: { source: 'responses file' } });
    const graded = new Map((await store.listAttempts(id)).filter((a) => a.grade).map((a) => [a.id, a]));
    return new GradeRunDir(store, run, graded, hash);
  }

  /** The stored grade of a line, if an earlier session graded it. */
  gradeOf(taskId: string, sample: number): GradeResult | undefined {
    return this.graded.get(attemptId(this.run.id, taskId, sample, 0))?.grade;
  }

  async put(taskId: string, sample: number, text: string, grade: GradeResult): Promise<void> {
    const now = Date.now();
    await this.store.putAttempt({
      id: attemptId(this.run.id, taskId, sample, 0),
      runId: this.run.id,
      taskId,
      sample,
      round: 0,
      promptHash: this.hash,
      cacheKey: '',
      request: { provider: this.run.config.provider, baseUrl: BASE_URL, model: MODEL, params: {}, sample },
      response: { text, model: MODEL, usage: { input: 0, output: 0 }, finishReason: 'stop', latencyMs: 0 },
      cost: 0,
      grade,
      createdAt: now,
      gradedAt: now,
    });
  }

  async finish(complete: boolean): Promise<void> {
    await this.store.putRun({ ...this.run, status: complete ? 'done' : 'cancelled', updatedAt: Date.now() });
    await this.store.close();
  }
}
