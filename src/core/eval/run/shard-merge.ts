/**
 * Merging shards: the run directories of shards 1..N of one run become one
 * run record with every attempt, as if one process had done all the work.
 * The shards must be of the same run (same id, config, task hashes and
 * verifier), each shard exactly once, and each holding only attempts its
 * shard owns. Everything else is an error naming the shard. See docs/scale.md.
 */
import { canonicalJson } from '../../hash.ts';
import type { AttemptRecord, PromptRecord, RunRecord, RunStatus } from './run-types.ts';
import { type ShardSpec, chainPosition, formatShard, shardOfPosition } from './shard.ts';

/** One shard as read from its directory; `source` names it in errors (its path). */
export interface ShardInput {
  readonly source: string;
  readonly run: RunRecord | undefined;
  readonly attempts: readonly AttemptRecord[];
  readonly prompts: readonly PromptRecord[];
}

export interface MergedRun {
  readonly run: RunRecord;
  readonly attempts: readonly AttemptRecord[];
  readonly prompts: readonly PromptRecord[];
}

export class MergeError extends Error {
  readonly code: string;
  /** The shard input the error is about, when it is about one. */
  readonly source?: string;
  constructor(code: string, message: string, source?: string) {
    super(message);
    this.name = 'MergeError';
    this.code = code;
    if (source !== undefined) this.source = source;
  }
}

export interface MergeOptions {
  /** Merge shards that are not finished (status other than done): the result is a partial run. */
  readonly allowIncomplete?: boolean;
}

/** The config fields that define the work (how many requests run at once does not). */
function workOf(run: RunRecord): string {
  const { concurrency: _c, gradeConcurrency: _g, ...work } = run.config;
  return canonicalJson({ id: run.id, work, taskHashes: run.taskHashes, verifier: run.provenance.verifier });
}

const STATUS_ORDER: readonly RunStatus[] = ['failed', 'cancelled', 'incomplete', 'running', 'created', 'done'];

export function mergeShards(inputs: readonly ShardInput[], options: MergeOptions = {}): MergedRun {
  if (inputs.length === 0) throw new MergeError('MERGE001', 'no shards to merge');
  const runs: { source: string; run: RunRecord; shard: ShardSpec; input: ShardInput }[] = [];
  for (const input of inputs) {
    if (!input.run) throw new MergeError('MERGE001', `${input.source} holds no run (no run.json)`, input.source);
    if (!input.run.shard) throw new MergeError('MERGE002', `${input.source} is not a shard (its run.json has no "shard"; it was not made with --shard K/N)`, input.source);
    runs.push({ source: input.source, run: input.run, shard: input.run.shard, input });
  }
  const first = runs[0];
  for (const r of runs.slice(1)) {
    if (r.run.id !== first.run.id || workOf(r.run) !== workOf(first.run)) {
      throw new MergeError(
        'MERGE003',
        `${r.source} (run ${r.run.id}) is not of the same run as ${first.source} (run ${first.run.id}): config, task hashes and verifier must be the same`,
        r.source,
      );
    }
    if (r.shard.total !== first.shard.total) {
      throw new MergeError('MERGE003', `${r.source} is shard ${formatShard(r.shard)} but ${first.source} is shard ${formatShard(first.shard)}: all shards must split into the same N`, r.source);
    }
  }
  const total = first.shard.total;
  const byIndex = new Map<number, (typeof runs)[number]>();
  for (const r of runs) {
    const seen = byIndex.get(r.shard.index);
    if (seen) throw new MergeError('MERGE004', `shard ${formatShard(r.shard)} is given twice: ${seen.source} and ${r.source}`, r.source);
    byIndex.set(r.shard.index, r);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((k) => !byIndex.has(k));
  if (missing.length) {
    throw new MergeError('MERGE005', `missing ${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((k) => `${k}/${total}`).join(', ')} of run ${first.run.id}`);
  }
  if (!options.allowIncomplete) {
    for (const r of runs) {
      if (r.run.status !== 'done') {
        throw new MergeError('MERGE007', `shard ${formatShard(r.shard)} (${r.source}) is ${r.run.status}, not done: resume it with the same command, or merge with --allow-incomplete`, r.source);
      }
    }
  }

  const cfg = first.run.config;
  const taskIndex = new Map(cfg.tasks.map((id, i) => [id, i]));
  const attempts: AttemptRecord[] = [];
  const seenAttempts = new Set<string>();
  const prompts = new Map<string, PromptRecord>();
  for (const r of [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index)) {
    for (const a of r.input.attempts) {
      if (a.runId !== first.run.id) continue;
      const i = taskIndex.get(a.taskId);
      if (i === undefined || a.sample < 0 || a.sample >= cfg.n) {
        throw new MergeError('MERGE006', `${r.source} holds attempt ${a.id}, which is not part of run ${first.run.id}`, r.source);
      }
      const owner = shardOfPosition(chainPosition(i, a.sample, cfg.n), total, cfg.tasks.length * cfg.n);
      if (owner !== r.shard.index) {
        throw new MergeError('MERGE006', `${r.source} (shard ${formatShard(r.shard)}) holds attempt ${a.id}, which belongs to shard ${owner}/${total}`, r.source);
      }
      if (seenAttempts.has(a.id)) throw new MergeError('MERGE006', `attempt ${a.id} appears twice`, r.source);
      seenAttempts.add(a.id);
      attempts.push(a);
    }
    for (const p of r.input.prompts) if (!prompts.has(p.hash)) prompts.set(p.hash, p);
  }
  // The order one process would have started them in: by sample, task, round.
  const key = (a: AttemptRecord) => [a.sample, taskIndex.get(a.taskId)!, a.round];
  attempts.sort((x, y) => {
    const a = key(x);
    const b = key(y);
    return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  });

  const status = STATUS_ORDER.find((s) => runs.some((r) => r.run.status === s)) ?? 'done';
  const error = runs.map((r) => r.run.error).find((e) => e !== undefined);
  const { shard: _s, error: _e, ...base } = first.run;
  const run: RunRecord = {
    ...base,
    createdAt: Math.min(...runs.map((r) => r.run.createdAt)),
    updatedAt: Math.max(...runs.map((r) => r.run.updatedAt)),
    status,
    ...(error ? { error } : {}),
  };
  // Only the prompts the attempts use (and the bases of repair prompts).
  const used = new Map<string, PromptRecord>();
  const want = [...new Set(attempts.map((a) => a.promptHash))];
  while (want.length) {
    const h = want.pop()!;
    const p = prompts.get(h);
    if (!p || used.has(h)) continue;
    used.set(h, p);
    if (p.base) want.push(p.base);
  }
  return { run, attempts, prompts: [...prompts.keys()].filter((h) => used.has(h)).map((h) => used.get(h)!) };
}
