/**
 * The sizes a spec may build (docs/spec-errors.md, SPEC023): a string,
 * list, tuple or range holds at most MAX_SEQ items, and an operation that
 * walks nested lists and tuples (str(), ==, util.If) visits at most
 * MAX_VISITS items, a shared sublist counting each time it is reached. Five
 * lines of spec can nest a list in itself forty times over, which no
 * flattening survives; these bounds make that a spec error at the line
 * that asks, like the recursion and depth bounds (SPEC019).
 */
import type { SpecError } from './errors.ts';

/** Items of a string, list, tuple or range. */
export const MAX_SEQ = 100_000;

/** Items one walk over nested lists and tuples may visit. */
export const MAX_VISITS = 200_000;

/** A count a walk may spend; spending past it throws the walk's error. */
export class WalkBudget {
  constructor(
    private left: number,
    private readonly spent: () => SpecError,
  ) {}

  spend(n = 1): void {
    this.left -= n;
    if (this.left < 0) throw this.spent();
  }

  get remaining(): number {
    return this.left;
  }
}
