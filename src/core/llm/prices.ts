/**
 * What a model costs, in USD per million tokens. The defaults are providers'
 * public list prices (standard tier, short prompts) as of mid-2025; they
 * change, so the table is user-editable and stored in the settings. A model
 * that is not in the table has an unknown cost (null), not a zero one, except
 * on a local server, which costs nothing.
 */
import type { Usage } from './types.ts';

export interface Price {
  /** USD per million input tokens. */
  readonly input: number;
  /** USD per million output tokens. */
  readonly output: number;
}

export type PriceTable = Readonly<Record<string, Price>>;

/** Settings key the user's edits are stored under. */
export const PRICES_SETTING = 'prices';

export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  o1: { input: 15, output: 60 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-opus-4': { input: 15, output: 75 },
  'gemini-1.5-flash': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, output: 5 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'deepseek-chat': { input: 0.27, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, output: 2.19 },
};

/** The defaults with the user's entries on top (an entry replaces the default of the same id). */
export function mergePrices(user: PriceTable | undefined): PriceTable {
  return { ...DEFAULT_PRICES, ...(user ?? {}) };
}

/**
 * The price entry for a model id: an exact match, else the longest table id
 * the model id starts with followed by "-" or ":" (so "gpt-4o-2024-08-06"
 * finds "gpt-4o" and "gpt-4o-mini-2024-07-18" finds "gpt-4o-mini"). A vendor
 * prefix such as OpenRouter's "openai/" is ignored.
 */
export function priceFor(model: string, table: PriceTable): Price | undefined {
  const id = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  if (table[id]) return table[id];
  let best: string | undefined;
  for (const k of Object.keys(table)) {
    if ((id.startsWith(k + '-') || id.startsWith(k + ':')) && (!best || k.length > best.length)) best = k;
  }
  return best ? table[best] : undefined;
}

/** USD for one call's usage, or null when the price is unknown. */
export function costOf(usage: Usage, price: Price | undefined): number | null {
  if (!price) return null;
  return (usage.input * price.input + usage.output * price.output) / 1_000_000;
}
