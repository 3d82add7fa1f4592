/**
 * Where a verifier's time goes, phase by phase: one clock per worker (or
 * process), stopped unless a benchmark starts it (`osvlab bench --corpus`
 * prints what it measured, docs/lemmas.md "Benchmarks"). The verifier marks
 * its phases with `timed`; time is charged to the innermost phase running,
 * so a query's solver time inside the building of a step counts as solver
 * time only, and the phases add up to at most the wall time measured. The
 * clock assumes one job at a time in its worker, as the engine enforces
 * (smt/solver.ts, `exclusive`). While stopped, `timed` is one boolean test
 * and a call.
 */

/**
 * The phases: parsing a spec, running it (the interpreter), the C
 * executor's run of a handler (with parsing the kernel), building the terms
 * of obligations, facts and their instances, printing a query as SMT-LIB,
 * Z3's own work (reading the query, solving, handing back a model), and
 * reading a model back (our evaluator's replay, snapshots).
 */
export const PHASES = ['parse', 'spec', 'c', 'terms', 'smtlib', 'solver', 'replay'] as const;
export type Phase = (typeof PHASES)[number];

export type PhaseTimes = Record<Phase, number>;

const zero = (): PhaseTimes => ({ parse: 0, spec: 0, c: 0, terms: 0, smtlib: 0, solver: 0, replay: 0 });

class PhaseClock {
  private now: (() => number) | undefined;
  private totals = zero();
  /** The phases running, innermost last. */
  private readonly stack: Phase[] = [];
  /** When the innermost phase was last charged. */
  private mark = 0;

  /** Starts the clock from zero with `now` (ms; a benchmark passes `performance.now`). */
  start(now: () => number): void {
    this.now = now;
    this.totals = zero();
    this.stack.length = 0;
  }

  /** Stops the clock; what it measured since `start`. */
  stop(): PhaseTimes {
    this.now = undefined;
    return this.read();
  }

  /** Whether the clock runs (a benchmark started it). */
  get running(): boolean {
    return this.now !== undefined;
  }

  /** What the clock has measured so far (ms per phase). */
  read(): PhaseTimes {
    return { ...this.totals };
  }

  /** Runs `f` as phase `phase` (charged while it runs, less the phases inside it). */
  timed<T>(phase: Phase, f: () => T): T {
    if (!this.now) return f();
    this.enter(phase);
    try {
      return f();
    } finally {
      this.leave();
    }
  }

  /** As `timed`, for work that ends when its promise settles. */
  async timedAsync<T>(phase: Phase, f: () => Promise<T>): Promise<T> {
    if (!this.now) return f();
    this.enter(phase);
    try {
      return await f();
    } finally {
      this.leave();
    }
  }

  private charge(): void {
    const t = this.now!();
    const top = this.stack.at(-1);
    if (top) this.totals[top] += t - this.mark;
    this.mark = t;
  }

  private enter(phase: Phase): void {
    this.charge();
    this.stack.push(phase);
  }

  private leave(): void {
    // A clock stopped (or restarted) meanwhile has nothing to charge.
    if (!this.now || this.stack.length === 0) return;
    this.charge();
    this.stack.pop();
  }
}

/** This worker's clock. */
export const phaseClock = new PhaseClock();
