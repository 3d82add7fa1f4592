/**
 * What a model costs, in USD per million tokens. The defaults are providers'
 * public list prices (standard tier, short prompts) as of PRICES_DATE; they
 * change, so the table is user-editable and stored in the settings, and the
 * user's entries are kept over the defaults. A model that is not in the table
 * has an unknown cost (null), not a zero one, except on a local server, which
 * costs nothing. Output prices cover thinking tokens: every provider bills
 * them as output.
 */
import type { Usage } from './types.ts';

export interface Price {
  /** USD per million input tokens. */
  readonly input: number;
  /** USD per million output tokens (thinking included). */
  readonly output: number;
}

export type PriceTable = Readonly<Record<string, Price>>;

/** Settings key the user's edits are stored under. */
export const PRICES_SETTING = 'prices';

/** When the default prices were read from the providers' pricing pages. */
export const PRICES_DATE = '2026-11';

export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  'gpt-5.5': { input: 5, output: 30 },
  'gpt-5.5-pro': { input: 30, output: 180 },
  'gpt-5.4': { input: 2.5, output: 15 },
  'gpt-5.4-pro': { input: 30, output: 180 },
  'gpt-5.4-mini': { input: 0.75, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, output: 1.25 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  // Anthropic
  'claude-sonnet-5': { input: 2, output: 10 },
  'claude-sonnet-5-5': { input: 2, output: 10 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  // Google Gemini (Gemini 3.8 Flash: the list price through 2026-12-31)
  'gemini-3.8-flash': { input: 0.75, output: 3.75 },
  'gemini-3.5-flash': { input: 1.5, output: 9 },
  'gemini-3.5-flash-lite': { input: 0.3, output: 2.5 },
  'gemini-3.1-pro-preview': { input: 2, output: 12 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
};

/** The defaults with the user's entries on top (an entry replaces the default of the same id). */
export function mergePrices(user: PriceTable | undefined): PriceTable {
  return { ...DEFAULT_PRICES, ...(user ?? {}) };
}

/**
 * What may follow a table id and still be the same model: a dated snapshot
 * ("-20250514", "-2024-08-06", "-05-2025"), "-latest", or a preview/snapshot
 * tag of that version. Anything else ("-1" after "claude-opus-4", "-mini"
 * after "gpt-4o") is another model.
 */
const SNAPSHOT = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-\d{2}-\d{4}|-latest|-preview(-\d{2}-\d{2}|-\d{2}-\d{4})?|-exp(-\d{4})?|-v\d+(:\d+)?|@\d{8})$/;

/**
 * The price entry for a model id: an exact match, else a table id followed
 * only by a snapshot suffix (so "gpt-4o-2024-08-06" finds "gpt-4o" but
 * "claude-opus-4-7" does not find "claude-opus-4"). A vendor prefix such as
 * OpenRouter's "openai/" or Gemini's "models/" is ignored.
 */
export function priceFor(model: string, table: PriceTable): Price | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  const id = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  if (Object.hasOwn(table, id)) return table[id];
  let best: string | undefined;
  for (const k of Object.keys(table)) {
    if (id.startsWith(k) && SNAPSHOT.test(id.slice(k.length)) && (!best || k.length > best.length)) best = k;
  }
  return best ? table[best] : undefined;
}

/** USD for one call's usage, or null when the price or the usage is unknown (a free model costs 0 either way). */
export function costOf(usage: Usage, price: Price | undefined): number | null {
  if (!price) return null;
  if (usage.unknown) return price.input === 0 && price.output === 0 ? 0 : null;
  return (usage.input * price.input + usage.output * price.output) / 1_000_000;
}
