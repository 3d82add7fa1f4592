/**
 * The shard option of `osvlab grade` (`--shard K/N`, or `env` on a batch
 * engine); grade.ts splits the answers by (task, sample) as a run's chains
 * are split (src/core/bench/shard.ts, docs/scale.md).
 */
import { type ShardSpec, ShardError, parseShard } from '../core/bench/shard.ts';
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
