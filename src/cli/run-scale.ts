/**
 * What the options of `osvlab run` for running at scale mean (declared in declarations.ts): `--shard K/N` (one part
 * of the work, see src/core/eval/run/shard.ts) and the budgets `--max-cost USD`
 * and `--max-total-tokens N` with `--price IN/OUT` to override the model's
 * price (USD per million tokens). `--max-tokens` stays what it was: the cap
 * on each answer. See docs/scale.md.
 */
import { type Budget, BudgetError, budgetFor, budgetLines } from '../core/eval/run/budget.ts';
import type { AttemptRecord } from '../core/eval/run/run-types.ts';
import { type ShardSpec, ShardError, parseShard } from '../core/eval/run/shard.ts';
import type { Price, PriceTable } from '../core/llm/prices.ts';
import type { ChatMessage } from '../core/llm/types.ts';
import { SessionError } from '../core/eval/session/ports.ts';
import { type JsonlOptions, JsonlRepository, RunDirError, assertWritableRunDir } from '../store/jsonl.ts';
import { UsageError, type ParsedArgs } from './args.ts';

export interface RunScale {
  readonly shard?: ShardSpec;
  readonly maxCostUsd?: number;
  readonly maxTotalTokens?: number;
  readonly price?: Price;
}

/** `--shard K/N` (or `env` on a batch engine) as a ShardSpec; a malformed one is a usage error. Shared by `run` and `grade`. */
export function shardOption(text: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ShardSpec | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShard(text, env);
  } catch (e) {
    if (e instanceof ShardError) throw new UsageError(e.message);
    throw e;
  }
}

export function parseRunScale(args: ParsedArgs, env: Readonly<Record<string, string | undefined>> = process.env): RunScale {
  const shard = shardOption(args.values.get('shard'), env);
  const cost = args.values.get('max-cost');
  if (cost !== undefined && !(/^\d+(\.\d+)?$/.test(cost))) throw new UsageError(`--max-cost must be an amount of USD such as 5 or 2.50, got '${cost}'`);
  const tokens = args.values.get('max-total-tokens');
  if (tokens !== undefined && !/^\d+$/.test(tokens)) throw new UsageError(`--max-total-tokens must be a whole number of tokens, got '${tokens}'`);
  const p = args.values.get('price');
  let price: Price | undefined;
  if (p !== undefined) {
    const m = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(p);
    if (!m) throw new UsageError(`--price must be IN/OUT in USD per million tokens (e.g. 2.5/10), got '${p}'`);
    price = { input: Number(m[1]), output: Number(m[2]) };
  }
  return {
    ...(shard ? { shard } : {}),
    ...(cost !== undefined ? { maxCostUsd: Number(cost) } : {}),
    ...(tokens !== undefined ? { maxTotalTokens: Number(tokens) } : {}),
    ...(price ? { price } : {}),
  };
}

/** The default run directory's suffix for a shard. */
export function shardSuffix(scale: RunScale): string {
  return scale.shard ? `-shard-${scale.shard.index}-of-${scale.shard.total}` : '';
}

/** The price table with the --price override for this model on top. */
export function pricesWith(scale: RunScale, prices: PriceTable, model: string): PriceTable {
  return scale.price ? { ...prices, [model]: scale.price } : prices;
}

/**
 * The run's budget, or undefined without limits. `countPrompt` is the
 * tokenizer's count (core/eval/prompt/tokens.ts), passed in by the command
 * that needs it: its 2 MB tables are not loaded by every command that
 * imports this module (`osvlab grade` spent 0.7 s of CPU loading them).
 */
export function makeBudget(
  scale: RunScale,
  run: { readonly model: string; readonly baseUrl: string; readonly outputCap: number | undefined },
  prices: PriceTable,
  attempts: readonly AttemptRecord[],
  countPrompt: (messages: readonly ChatMessage[]) => number,
): Budget | undefined {
  if (scale.maxCostUsd !== undefined || scale.maxTotalTokens !== undefined) {
    if (run.outputCap === undefined) {
      throw new UsageError('a budget (--max-cost, --max-total-tokens) needs --max-tokens N, the cap on each answer, to know the worst case of a request');
    }
  }
  try {
    return budgetFor(scale, run, prices, attempts, countPrompt);
  } catch (e) {
    if (e instanceof BudgetError) throw new UsageError(`${e.message} (${e.code}; --price IN/OUT sets the price)`);
    throw e;
  }
}

export { budgetLines };

/** A SessionError or RunDirError as the CLI's usage error (exit 4, its code kept); anything else unchanged. */
function asUsageError(e: unknown): unknown {
  // Their messages start with their code; the usage error puts it back in front, once.
  return e instanceof SessionError || e instanceof RunDirError ? new UsageError(e.message.slice(e.code.length + 1), e.code) : e;
}

/** Runs `f`, with session and run-directory errors turned into usage errors. */
export async function usageErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw asUsageError(e);
  }
}

/**
 * Opens run directory `dir` for writing: created when absent; an existing
 * one must be empty or a run directory (assertWritableRunDir), checked
 * before anything is written.
 */
export function openRunDir(dir: string, options: JsonlOptions = {}): Promise<JsonlRepository> {
  return usageErrors(() => {
    assertWritableRunDir(dir);
    return JsonlRepository.open(dir, { ...options, lock: true });
  });
}
