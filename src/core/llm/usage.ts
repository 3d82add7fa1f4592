/**
 * Token counts as a provider reports them, checked before anything is kept:
 * a count is a whole number from 0 up (a safe integer). A provider that
 * sends `prompt_tokens: -5`, `3.5`, `"12"` or nothing has given no count,
 * and its answer is kept all the same, with the usage marked `unknown`
 * (what could not be read counts 0; the cost is unknown, docs/providers.md).
 * So no stored attempt ever holds a count the run-file reader refuses, and an
 * odd usage field never costs the user an answer.
 */
import type { Usage } from './types.ts';

/** A token count, or undefined when `v` is not one. */
function tokenCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

export interface RawUsage {
  readonly input: unknown;
  /** Every generated token billed as output (the adapter adds up the provider's parts). */
  readonly output: readonly unknown[];
  /** Of the output, thinking tokens; absent when the provider reports none. */
  readonly reasoning?: unknown;
}

/** The usage of one answer from the provider's raw counts. */
export function usageFrom(raw: RawUsage): Usage {
  const input = tokenCount(raw.input);
  const parts = raw.output.map(tokenCount);
  const known = parts.every((p) => p !== undefined);
  const output = parts.reduce<number>((a, p) => a + (p ?? 0), 0);
  const reasoning = raw.reasoning === undefined ? undefined : tokenCount(raw.reasoning);
  const sound = input !== undefined && known && Number.isSafeInteger(output) && (raw.reasoning === undefined || reasoning !== undefined);
  return {
    input: input ?? 0,
    output: Number.isSafeInteger(output) ? output : 0,
    ...(reasoning !== undefined && reasoning > 0 ? { reasoning } : {}),
    ...(sound ? {} : { unknown: true as const }),
  };
}

/** `u` as it may be kept: a usage read back (the response cache) is checked as a fresh one is. */
export function validatedUsage(u: unknown): Usage {
  const o = (typeof u === 'object' && u !== null ? u : {}) as Partial<Record<keyof Usage, unknown>>;
  const usage = usageFrom({ input: o.input, output: [o.output], reasoning: o.reasoning });
  return o.unknown === true && !usage.unknown ? { ...usage, unknown: true } : usage;
}
