/**
 * Sharding: a deterministic split of a run's work into N parts, so N
 * processes (on one machine or on a batch engine) can each do one part and
 * `merge` can put the parts back together. The unit of work is the
 * (task, sample) chain: a first answer and its repair rounds stay together.
 * The M = tasks x n chains are numbered task by task (all samples of the
 * first task in config order, then of the second, ...) and cut into N
 * contiguous blocks: chain p belongs to shard floor(p * N / M) + 1. So every
 * chain has exactly one shard, the shards are even to within one chain, and
 * a shard holds neighbouring tasks: the five variants of a handler mostly
 * land in the same shard, where the grader's memo verifies the handler's
 * answer once instead of once per shard (an interleaved split made four
 * local shards slower than one; see docs/scale.md).
 */

/** Shard K of N, K 1-based (the Playwright/Jest convention). */
export interface ShardSpec {
  readonly index: number;
  readonly total: number;
}

export class ShardError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ShardError';
    this.code = code;
  }
}

/**
 * Parses "K/N" (1 <= K <= N). `env` is for batch engines that hand out a
 * 0-based index: "env" reads JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or
 * SLURM_ARRAY_TASK_ID as K-1 and OSVLAB_SHARD_TOTAL (or SLURM_ARRAY_TASK_COUNT) as N.
 */
export function parseShard(text: string, env: Readonly<Record<string, string | undefined>> = {}): ShardSpec {
  const t = text.trim();
  if (t === 'env') {
    const raw = env.JOB_COMPLETION_INDEX ?? env.SLURM_ARRAY_TASK_ID;
    const totalRaw = env.OSVLAB_SHARD_TOTAL ?? env.SLURM_ARRAY_TASK_COUNT;
    if (raw === undefined || !/^\d+$/.test(raw)) {
      throw new ShardError('SHARD002', '--shard env needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID (a 0-based index) in the environment');
    }
    if (totalRaw === undefined || !/^\d+$/.test(totalRaw)) {
      throw new ShardError('SHARD002', '--shard env needs OSVLAB_SHARD_TOTAL (or SLURM_ARRAY_TASK_COUNT) in the environment');
    }
    return parseShard(`${Number(raw) + 1}/${totalRaw}`);
  }
  const m = /^(\d+)\/(\d+)$/.exec(t);
  if (!m) throw new ShardError('SHARD001', `--shard must be K/N with 1 <= K <= N (e.g. 2/4) or "env", got '${text}'`);
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || index < 1 || index > total) {
    throw new ShardError('SHARD001', `--shard ${text}: K must be between 1 and N (K is 1-based: the shards of 4 are 1/4 .. 4/4)`);
  }
  return { index, total };
}

export function formatShard(s: ShardSpec): string {
  return `${s.index}/${s.total}`;
}

/** The 1-based shard of N that owns chain `position` (0-based) of `count` chains. */
export function shardOfPosition(position: number, total: number, count: number): number {
  return Math.floor((position * total) / count) + 1;
}

/** The position of (task, sample) in the split's order: task by task, the samples of each together. */
export function chainPosition(taskIndex: number, sample: number, n: number): number {
  return taskIndex * n + sample;
}

/** Does shard `s` own the chain (taskIndex, sample) of a run of taskCount tasks x n samples? Without a shard, every chain is owned. */
export function ownsChain(s: ShardSpec | undefined, taskIndex: number, sample: number, taskCount: number, n: number): boolean {
  return !s || shardOfPosition(chainPosition(taskIndex, sample, n), s.total, taskCount * n) === s.index;
}

/** How many of the run's taskCount x n chains shard `s` owns (all of them without a shard). */
export function chainsOwned(s: ShardSpec | undefined, taskCount: number, n: number): number {
  const all = taskCount * n;
  if (!s) return all;
  // Positions p with (k-1) M / N <= p < k M / N.
  return Math.ceil((s.index * all) / s.total) - Math.ceil(((s.index - 1) * all) / s.total);
}
