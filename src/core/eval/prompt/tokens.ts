/**
 * Token counts with a real tokenizer: OpenAI's o200k_base encoding (the
 * GPT-4o family), via gpt-tokenizer. A prompt's count is the sum over its
 * messages' contents; the few tokens a provider adds per message for the
 * chat framing are left out. The encoding's tables are large (2 MB), so
 * import this module only where counts are needed.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from '../../llm/types.ts';
import { ascending, interpolated, nearestRank } from '../../quantile.ts';

export const ENCODING = 'o200k_base';

export function tokenCount(text: string): number {
  return countTokens(text);
}

/** Tokens of all message contents. */
export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + countTokens(m.content), 0);
}

export interface TokenDistribution {
  readonly n: number;
  readonly min: number;
  readonly p10: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
  readonly mean: number;
}

/** Summary statistics (core/quantile.ts: p10 and p90 by nearest rank, the median interpolated); all 0 for no values. */
export function distribution(values: readonly number[]): TokenDistribution {
  const s = ascending(values);
  const n = s.length;
  return {
    n,
    min: s[0] ?? 0,
    p10: n ? nearestRank(s, 0.1) : 0,
    median: n ? interpolated(s, 0.5) : 0,
    p90: n ? nearestRank(s, 0.9) : 0,
    max: s[n - 1] ?? 0,
    mean: n ? Math.round(s.reduce((a, b) => a + b, 0) / n) : 0,
  };
}
