/**
 * Spending limits for a run: at most `maxCostUsd` dollars and/or
 * `maxTotalTokens` tokens (input + output) over the whole run, summed over
 * every session that worked on it (a resumed run does not get a fresh
 * allowance). Before each request the runner asks for a reservation of the
 * request's worst case: its prompt tokens (counted locally) plus the output
 * cap, priced at the run's prices. The reservation is granted only if what
 * was spent, plus what requests in flight may still cost, plus this worst
 * case stays within the limit; when the answer comes, the reservation is
 * replaced by the actual usage. So the run stops before it could cross the
 * limit, never after. See docs/scale.md.
 *
 * Local prompt counts use one tokenizer; a provider's may count more. The
 * count is scaled by the largest ratio of reported to counted prompt tokens
 * seen so far in this session (at least 1).
 */
import type { ChatMessage, Usage } from '../../llm/types.ts';
import { isLocalUrl } from '../../llm/http.ts';
import { type Price, type PriceTable, priceFor } from '../../llm/prices.ts';
import type { AttemptRecord } from './run-types.ts';

export interface BudgetLimits {
  readonly maxCostUsd?: number;
  readonly maxTotalTokens?: number;
}

export interface Spent {
  readonly usd: number;
  readonly tokens: number;
}

export interface BudgetOptions extends BudgetLimits {
  /** The run's price; undefined only when no cost limit is set. */
  readonly price: Price | undefined;
  /** Output tokens a request may return at most (the request's max tokens). */
  readonly outputCap: number;
  /** Tokens of a prompt, counted locally. */
  readonly countPrompt: (messages: readonly ChatMessage[]) => number;
  /** What earlier sessions of the run spent (see spentSoFar). */
  readonly spent?: Spent;
}

export class BudgetError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'BudgetError';
    this.code = code;
  }
}

/** A granted reservation: settle it with the answer's usage, or release it when the request failed. */
export interface Reservation {
  settle(usage: Usage, cached: boolean): void;
  release(): void;
}

/** What the stored attempts spent at this price (answers from the response cache cost nothing). */
export function spentSoFar(attempts: readonly AttemptRecord[], price: Price | undefined): Spent {
  let usd = 0;
  let tokens = 0;
  for (const a of attempts) {
    if (!a.response || a.cached) continue;
    const u = a.response.usage;
    usd += price ? (u.input * price.input + u.output * price.output) / 1_000_000 : 0;
    tokens += u.input + u.output;
  }
  return { usd, tokens };
}

export class Budget {
  private spentUsd: number;
  private spentTokens: number;
  private heldUsd = 0;
  private heldTokens = 0;
  private ratio = 1;
  /** Why the first refused request was refused; undefined while the budget holds. */
  exhausted: string | undefined;

  constructor(private readonly o: BudgetOptions) {
    if (o.maxCostUsd === undefined && o.maxTotalTokens === undefined) throw new BudgetError('BUDGET001', 'a budget needs a cost limit or a token limit');
    if (o.maxCostUsd !== undefined && !(o.maxCostUsd >= 0)) throw new BudgetError('BUDGET001', `the cost limit must be a number >= 0, got ${o.maxCostUsd}`);
    if (o.maxTotalTokens !== undefined && !(Number.isInteger(o.maxTotalTokens) && o.maxTotalTokens >= 0)) {
      throw new BudgetError('BUDGET001', `the token limit must be an integer >= 0, got ${o.maxTotalTokens}`);
    }
    if (o.maxCostUsd !== undefined && !o.price) {
      throw new BudgetError('BUDGET002', 'a cost limit needs the model\'s price: add it to the price table or pass --price IN/OUT (USD per million tokens)');
    }
    if (!(Number.isInteger(o.outputCap) && o.outputCap > 0)) {
      throw new BudgetError('BUDGET003', 'a budget needs a cap on each answer\'s length (the request\'s max tokens) to know a request\'s worst case');
    }
    this.spentUsd = o.spent?.usd ?? 0;
    this.spentTokens = o.spent?.tokens ?? 0;
  }

  get spent(): Spent {
    return { usd: this.spentUsd, tokens: this.spentTokens };
  }

  get limits(): BudgetLimits {
    return { maxCostUsd: this.o.maxCostUsd, maxTotalTokens: this.o.maxTotalTokens };
  }

  private usd(input: number, output: number): number {
    const p = this.o.price;
    return p ? (input * p.input + output * p.output) / 1_000_000 : 0;
  }

  /** The worst case of a request with these messages: tokens and USD. */
  worstCase(messages: readonly ChatMessage[]): { readonly promptTokens: number; readonly tokens: number; readonly usd: number } {
    const promptTokens = Math.ceil(this.o.countPrompt(messages) * this.ratio);
    return { promptTokens, tokens: promptTokens + this.o.outputCap, usd: this.usd(promptTokens, this.o.outputCap) };
  }

  /** A reservation for the request, or undefined (and the budget is exhausted) when its worst case does not fit. */
  reserve(messages: readonly ChatMessage[]): Reservation | undefined {
    if (this.exhausted) return undefined;
    const counted = this.o.countPrompt(messages);
    const w = this.worstCase(messages);
    const { maxCostUsd, maxTotalTokens } = this.o;
    // A tiny tolerance so that float sums of prices do not refuse an exact fit.
    if (maxCostUsd !== undefined && this.spentUsd + this.heldUsd + w.usd > maxCostUsd + 1e-12) {
      this.exhausted = `the next request could cost up to $${w.usd.toFixed(6)}, and only $${Math.max(0, maxCostUsd - this.spentUsd - this.heldUsd).toFixed(6)} of $${maxCostUsd} is left`;
      return undefined;
    }
    if (maxTotalTokens !== undefined && this.spentTokens + this.heldTokens + w.tokens > maxTotalTokens) {
      this.exhausted = `the next request could use up to ${w.tokens} tokens, and only ${Math.max(0, maxTotalTokens - this.spentTokens - this.heldTokens)} of ${maxTotalTokens} are left`;
      return undefined;
    }
    this.heldUsd += w.usd;
    this.heldTokens += w.tokens;
    let open = true;
    const release = () => {
      if (!open) return false;
      open = false;
      this.heldUsd -= w.usd;
      this.heldTokens -= w.tokens;
      return true;
    };
    return {
      settle: (usage, cached) => {
        if (!release() || cached) return;
        // Counts the provider did not give (llm/usage.ts): the worst case it was held for is what it spent.
        if (usage.unknown) {
          this.spentUsd += w.usd;
          this.spentTokens += w.tokens;
          return;
        }
        if (counted > 0 && usage.input > counted) this.ratio = Math.max(this.ratio, usage.input / counted);
        this.spentUsd += this.usd(usage.input, usage.output);
        this.spentTokens += usage.input + usage.output;
      },
      release: () => void release(),
    };
  }
}

/**
 * The budget of a run, or undefined without limits: the price is `override`,
 * else free on a local server, else the table's; the output cap is the run's
 * max tokens. Throws BudgetError when the run cannot have this budget.
 */
export function budgetFor(
  limits: BudgetLimits & { readonly price?: Price },
  run: { readonly model: string; readonly baseUrl: string; readonly outputCap: number | undefined },
  prices: PriceTable,
  attempts: readonly AttemptRecord[],
  countPrompt: (messages: readonly ChatMessage[]) => number,
): Budget | undefined {
  if (limits.maxCostUsd === undefined && limits.maxTotalTokens === undefined) return undefined;
  if (run.outputCap === undefined) {
    throw new BudgetError('BUDGET003', 'a budget needs a cap on each answer (max tokens) to know the worst case of a request');
  }
  const price = limits.price ?? (isLocalUrl(run.baseUrl) ? { input: 0, output: 0 } : priceFor(run.model, prices));
  return new Budget({ maxCostUsd: limits.maxCostUsd, maxTotalTokens: limits.maxTotalTokens, price, outputCap: run.outputCap, countPrompt, spent: spentSoFar(attempts, price) });
}

/** What the run spent and, when the budget stopped it, what is left undone. */
export function budgetLines(budget: Budget, progress: { readonly done: number; readonly total: number }): string[] {
  const { usd, tokens } = budget.spent;
  const l = budget.limits;
  const parts = [
    ...(l.maxCostUsd !== undefined ? [`$${usd.toFixed(4)} of $${l.maxCostUsd}`] : []),
    ...(l.maxTotalTokens !== undefined ? [`${tokens} of ${l.maxTotalTokens} tokens`] : []),
  ];
  const lines = [`budget: spent ${parts.join(', ')}`];
  if (budget.exhausted) {
    lines.push(
      `budget reached: ${budget.exhausted}`,
      `stopped before sending it: ${progress.total - progress.done} of ${progress.total} task samples left undone; the run is kept and resumes with a larger budget`,
    );
  }
  return lines;
}
