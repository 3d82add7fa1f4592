/**
 * Discharges a list of named obligations with fresh solver queries: all at
 * once first; on failure, the model itself tells which obligations it
 * falsifies (re-evaluated by our own evaluator, which is also the replay),
 * and the remaining ones are checked together again until every obligation
 * is either proved or refuted; what a combined query cannot decide in its
 * budget is proved one obligation at a time.
 */
import { QuantifierEvalError, type Value, evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { CheckResult, SmtEngine, SmtModel } from '../smt/solver.ts';
import type { Term } from '../smt/term.ts';
import { undecided } from './outcome.ts';
import type { ObligationResult } from './verdict.ts';

export interface Obligation {
  /** "cond", a field path, "safety", "impl-invariants", a lemma name, ... */
  readonly name: string;
  /** Must be valid under the assumptions. */
  readonly goal: Term;
  /** Labelled sub-goals, to say which part failed (safety conditions, invariants). */
  readonly parts?: readonly { readonly label: string; readonly goal: Term }[];
}

export interface Failure {
  readonly obligation: Obligation;
  /** Labels of the parts that the model falsifies. */
  readonly failedParts: readonly string[];
}

export interface ProofOutcome {
  readonly results: ObligationResult[];
  /** Set when at least one obligation is refuted: the first model and what it falsifies. */
  readonly refutation?: {
    readonly model: SmtModel;
    readonly failures: readonly Failure[];
    /** Our evaluator agreed with Z3: assumptions true and the failures false under the model. */
    readonly replayed: boolean;
    /**
     * Some failure could not be replayed because its goal (or an assumption)
     * has a quantifier, which our evaluator cannot evaluate: it is taken on
     * the solver's word, as upstream takes every refutation (then `replayed`
     * is false).
     */
    readonly quantified?: boolean;
  };
  /** Obligations refuted on the solver's word: their goal has a quantifier, so no model of theirs was replayed. */
  readonly unreplayed: readonly string[];
  /** Total solver time and number of queries. */
  readonly solverMs: number;
  readonly queries: number;
}

export interface ProveOptions {
  /** Limit of one query (ms); each query also ends by the deadline. */
  readonly timeoutMs?: number;
  /**
   * Wall-clock time (`Date.now()`) by which the whole proof must be done:
   * each query gets what is left of it (capped by `timeoutMs`), and once it
   * has passed, the undecided obligations are `timeout` without a query.
   */
  readonly deadline?: number;
  /** The instances of the assumed facts for a query whose negated goal is `roots`. */
  readonly assume: (roots: readonly Term[]) => Term[];
}

function holds(t: Term, model: SmtModel, memo: Map<number, Value>): boolean {
  return evaluate(t, model, memo) === true;
}

/** `holds`, or 'quantified' when `t` has a quantifier our evaluator cannot evaluate. */
function holdsOrQuantified(t: Term, model: SmtModel, memo: Map<number, Value>): boolean | 'quantified' {
  try {
    return holds(t, model, memo);
  } catch (e) {
    if (e instanceof QuantifierEvalError) return 'quantified';
    throw e;
  }
}

/**
 * Budget of a combined query (ms). Measured over the 50 oracles: 400 ms gave
 * up on too many steps that one query would have decided (total +30%); from
 * 5 s on, the totals are within noise of an unlimited budget.
 */
const COMBINED_MS = 5000;

const REPLAY_FAILED = 'internal error: the solver model does not replay under our evaluator';

/** The reason of an obligation left undecided because the verification's budget ran out. */
const BUDGET_SPENT = 'timeout: the verification budget is spent';

/** The limit of the next query: `timeoutMs` capped by what is left until `deadline`. */
function queryLimit(timeoutMs: number | undefined, deadline: number | undefined): number | undefined | 'spent' {
  if (deadline === undefined) return timeoutMs;
  const left = deadline - Date.now();
  if (left < 1) return 'spent';
  return timeoutMs && timeoutMs > 0 ? Math.min(timeoutMs, left) : left;
}

export async function prove(obligations: readonly Obligation[], engine: SmtEngine, opts: ProveOptions): Promise<ProofOutcome> {
  const status = new Map<string, ObligationResult>();
  let solverMs = 0;
  let queries = 0;
  let refutation: ProofOutcome['refutation'];
  const unreplayed: string[] = [];

  // One query per set of goals, carrying every instance of the assumed facts
  // that `assume` selects for them. (Adding instances lazily, only those a
  // model violates, made queries smaller but took several rounds; measured
  // here it cost 25-50% more solver time than asking once.)
  const check = async (goals: readonly { readonly goal: Term }[], timeoutMs = opts.timeoutMs): Promise<{ r: CheckResult; assumptions: Term[] }> => {
    const limit = queryLimit(timeoutMs, opts.deadline);
    if (limit === 'spent') return { r: { status: 'unknown', ms: 0, reason: BUDGET_SPENT }, assumptions: [] };
    const negated = o.not(o.and(...goals.map((g) => g.goal)));
    const assumptions = opts.assume([negated]);
    const r = await engine.check([...assumptions, negated], { timeoutMs: limit });
    solverMs += r.ms;
    queries++;
    return { r, assumptions };
  };

  /**
   * Marks what `model` falsifies among `candidates`: 'inconsistent' if our
   * evaluator disagrees with Z3. A goal with a quantifier cannot be
   * evaluated: when it is the only candidate the model may falsify, Z3's sat
   * says it fails (taken on the solver's word, not replayed); when several
   * are, none is marked ('split': ask each on its own).
   */
  const record = (model: SmtModel, ms: number, candidates: readonly Obligation[], assumptions: readonly Term[]): 'consistent' | 'inconsistent' | 'split' => {
    const memo = new Map<number, Value>();
    const failures: Failure[] = [];
    const quantified: Obligation[] = [];
    for (const ob of candidates) {
      const h = holdsOrQuantified(ob.goal, model, memo);
      if (h === true) continue;
      if (h === 'quantified') {
        quantified.push(ob);
        continue;
      }
      const failedParts = (ob.parts ?? []).filter((p) => holdsOrQuantified(p.goal, model, memo) === false).map((p) => p.label);
      failures.push({ obligation: ob, failedParts });
      status.set(ob.name, { name: ob.name, status: 'failed', ms });
    }
    const assumed = assumptions.map((a) => holdsOrQuantified(a, model, memo));
    const assumptionsHold = !assumed.includes(false);
    let onWord = assumed.includes('quantified');
    if (failures.length === 0 && quantified.length > 0 && assumptionsHold) {
      if (quantified.length > 1) {
        model.dispose();
        return 'split';
      }
      failures.push({ obligation: quantified[0], failedParts: [] });
      status.set(quantified[0].name, { name: quantified[0].name, status: 'failed', ms });
      unreplayed.push(quantified[0].name);
      onWord = true;
    }
    const consistent = failures.length > 0 && assumptionsHold;
    if (!refutation) refutation = { model, failures, replayed: consistent && !onWord, ...(consistent && onWord ? { quantified: true } : {}) };
    else model.dispose();
    return consistent ? 'consistent' : 'inconsistent';
  };

  /** Proves one obligation on its own; one with parts, part by part (smaller queries). */
  const settleOne = async (ob: Obligation): Promise<void> => {
    const started = Date.now();
    const pieces = ob.parts && ob.parts.length > 1 ? ob.parts.filter((p) => !(p.goal.op === 'const' && p.goal.value === true)) : [ob];
    let undecidedReason: string | undefined;
    for (const piece of pieces) {
      const { r, assumptions } = await check([piece]);
      if (r.status === 'unsat') continue;
      if (r.status === 'unknown') {
        undecidedReason ??= r.reason;
        continue;
      }
      if (record(r.model, Date.now() - started, [ob], assumptions) !== 'consistent') {
        status.set(ob.name, { name: ob.name, status: 'unknown', ms: Date.now() - started, reason: REPLAY_FAILED });
      }
      return;
    }
    const ms = Date.now() - started;
    if (undecidedReason === undefined) status.set(ob.name, { name: ob.name, status: 'proved', ms });
    else status.set(ob.name, { name: ob.name, status: undecided(undecidedReason), ms, reason: undecidedReason });
  };

  const pending = obligations.filter((ob) => {
    if (ob.goal.op === 'const' && ob.goal.value === true) {
      status.set(ob.name, { name: ob.name, status: 'proved', ms: 0 });
      return false;
    }
    return true;
  });
  // All at once first, on a short budget: most steps are decided in one small
  // query. A refuting model names every obligation it falsifies, and the rest
  // are asked together again, so a refutation costs one query per distinct
  // failure rather than one per obligation. Whatever a combined query cannot
  // decide in its budget is proved one obligation at a time, which is faster
  // than one big disjunction when the step is hard.
  const budget = Math.min(opts.timeoutMs ?? COMBINED_MS, COMBINED_MS);
  let rest = pending;
  while (rest.length > 0) {
    const { r, assumptions } = await check(rest, rest.length === 1 ? opts.timeoutMs : budget);
    if (r.status === 'unsat') {
      for (const ob of rest) status.set(ob.name, { name: ob.name, status: 'proved', ms: r.ms });
    } else if (r.status === 'sat') {
      const recorded = record(r.model, r.ms, rest, assumptions);
      // Several quantified goals may fail, and the model cannot tell which: one at a time.
      if (recorded === 'split') break;
      // Our evaluator disagrees with the solver's model: an internal error, never a proof.
      if (recorded === 'inconsistent') for (const ob of rest) if (!status.has(ob.name)) status.set(ob.name, { name: ob.name, status: 'unknown', ms: r.ms, reason: REPLAY_FAILED });
    } else if (r.status === 'unknown') {
      if (rest.length === 1) status.set(rest[0].name, { name: rest[0].name, status: undecided(r.reason), ms: r.ms, reason: r.reason });
      break;
    }
    rest = rest.filter((ob) => !status.has(ob.name));
  }
  for (const ob of pending) if (!status.has(ob.name)) await settleOne(ob);

  return {
    results: obligations.map((ob) => status.get(ob.name) ?? { name: ob.name, status: 'unknown' }),
    refutation,
    unreplayed,
    solverMs,
    queries,
  };
}
