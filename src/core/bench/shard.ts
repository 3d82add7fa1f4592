/**
 * Sharding: a deterministic split of a run's work into N parts, so N
 * processes (on one machine or on a batch engine) can each do one part and
 * `merge` can put the parts back together. The unit of work is the
 * (task, sample) chain: a first answer and its repair rounds stay together.
 * Chains are numbered in the run's own order (sample-major, then the tasks in
 * config order) and chain i belongs to shard (i mod N) + 1, so the shards are
 * even to within one chain and every chain has exactly one shard. See
 * docs/scale.md.
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

/** The 1-based shard that owns the chain at `position` (0-based) of the run's chain order. */
export function shardOfPosition(position: number, total: number): number {
  return (position % total) + 1;
}

/** The position of (task, sample) in the run's chain order: sample-major, then tasks in config order. */
export function chainPosition(taskIndex: number, sample: number, taskCount: number): number {
  return sample * taskCount + taskIndex;
}

/** Does shard `s` own the chain (taskIndex, sample)? Without a shard, every chain is owned. */
export function ownsChain(s: ShardSpec | undefined, taskIndex: number, sample: number, taskCount: number): boolean {
  return !s || shardOfPosition(chainPosition(taskIndex, sample, taskCount), s.total) === s.index;
}

/** How many of the run's taskCount x n chains shard `s` owns (all of them without a shard). */
export function chainsOwned(s: ShardSpec | undefined, taskCount: number, n: number): number {
  const all = taskCount * n;
  if (!s) return all;
  return Math.floor(all / s.total) + (s.index <= all % s.total ? 1 : 0);
}
