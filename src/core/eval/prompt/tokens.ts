/**
 * Token counts with a real tokenizer: OpenAI's o200k_base encoding (the
 * GPT-4o family), via gpt-tokenizer. A prompt's count is the sum over its
 * messages' contents; the few tokens a provider adds per message for the
 * chat framing are left out. The encoding's tables are large (2 MB), so
 * import this module only where counts are needed.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from '../../llm/types.ts';

export const ENCODING = 'o200k_base';

export function tokenCount(text: string): number {
  return countTokens(text);
}

/** Tokens of all message contents. */
export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + countTokens(m.content), 0);
}

export interface Distribution {
  readonly n: number;
  readonly min: number;
  readonly p10: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
  readonly mean: number;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Summary statistics; the median of an even count is the mean of the middle two. */
export function distribution(values: readonly number[]): Distribution {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const median = n === 0 ? 0 : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return {
    n,
    min: s[0] ?? 0,
    p10: percentile(s, 10),
    median,
    p90: percentile(s, 90),
    max: s[n - 1] ?? 0,
    mean: n ? Math.round(s.reduce((a, b) => a + b, 0) / n) : 0,
  };
}
