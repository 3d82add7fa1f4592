/**
 * The verification driver: the theorem of docs/design.md ("What is proved")
 * and docs/hv6-model.md §5.1, checked for one request. It builds the two
 * steps from one start,
 *
 *   impl_h(σ, a) = (ret, σ')      (implementation.ts, cached per program)
 *   spec_h(S, a) = (cond, S')     (the dialect, on S = abs(σ))
 *
 * and states their obligations once (refinement.ts: cond, every compared
 * field, safety, the implementation's invariants). Three callers discharge
 * them: `verify` proves each obligation and explains a failure
 * (`proveRefinement`), the mutant screen asks one query for any failure
 * (`refuteOnce`), and the strict grade and `verify --strict` add the
 * declarative checks (`declarativeCheck`), so a spec error or a quantifier
 * is handled the same way on every path.
 *
 * A quantifier (z3.ForAll, z3.Exists) has no concrete evaluation here, so a
 * refutation through one cannot be replayed: it is taken on the solver's
 * word, as upstream takes every refutation, shown as far as it can be
 * evaluated, and carries the SPEC031 warning (docs/spec-errors.md).
 */
import type { KernelContent } from '../kernel/content.ts';
import { KERNEL } from '../kernel/content.ts';
import type { HandlerInfo } from '../kernel/handlers.ts';
import { QuantifierEvalError, type Value, evaluate } from '../smt/eval.ts';
import * as o from '../smt/ops.ts';
import type { SmtEngine } from '../smt/solver.ts';
import type { Term } from '../smt/term.ts';
import { quantifierDiagnostic, runSpec } from '../dialect/index.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { PROCESS_CACHES, type VerifierCaches } from './caches.ts';
import { buildCounterexample } from './counterexample.ts';
import { type WellFormedRefutation, preferWellFormed } from './counterexample-wellformed.ts';
import { type Reused, checkDeclarative } from './declarative.ts';
import { implementationStep, programKey, requireHandler } from './implementation.ts';
import { type Outcome, worst } from './outcome.ts';
import { type ProofOutcome, prove } from './prove.ts';
import { type RefinementStep, assumeInvariants, implObligations, refinementObligations, specObligations } from './refinement.ts';
import type { ObligationResult, Verdict } from './verdict.ts';

export interface VerifyRequest {
  /** Handler name (C name or spec alias). */
  readonly handler: string;
  /** The spec source text. */
  readonly spec: string;
  /**
   * Extra C translation unit whose function definitions replace the kernel's
   * (a buggy variant, or `--impl FILE`). Empty/absent: the kernel as is.
   */
  readonly implSource?: string;
  /**
   * Wall-clock budget of the whole verification, ms (default 120000): every
   * solver query gets what is left of it, and what is undecided when it runs
   * out is `timeout`. With `strict`, the declarative checks get what the
   * refinement check left.
   */
  readonly timeoutMs?: number;
  /** Also run the declarative checks (spec invariants and lemmas). */
  readonly strict?: boolean;
}

export interface VerifyEnv {
  readonly engine: SmtEngine;
  readonly kernel?: KernelContent;
  /** What is kept between verifications (default: the process's, `PROCESS_CACHES`). */
  readonly caches?: VerifierCaches;
}

export type TimedVerdict = Verdict & { readonly ms: number };

/**
 * The budget of a verification when the request gives none (ms). The
 * slowest oracle, clone_proc, took 29 s on this 2-core machine under a load
 * of 20 (about 5 s idle); the budget must not turn a slow machine's proof
 * into a timeout.
 */
export const DEFAULT_BUDGET_MS = 120_000;

type SpecRun = Extract<ReturnType<typeof runSpec>, { ok: true }>;

/** Both steps of one check from one start, or the spec's error. */
export type Steps =
  | {
      readonly ok: true;
      readonly handler: HandlerInfo;
      readonly step: RefinementStep;
      readonly spec: SpecRun;
      /** The instances of σ's representation invariants a query assumes. */
      readonly assume: (roots: readonly Term[]) => Term[];
      /** The key of the implementation-only proof (program and handler). */
      readonly implKey: string;
    }
  | { readonly ok: false; readonly error: Diagnostic; readonly warnings: readonly Diagnostic[] };

/**
 * Runs the implementation (cached) and the spec on the same start. A broken
 * implementation or an unknown handler throws ImplementationError.
 */
export function buildSteps(req: VerifyRequest, env: VerifyEnv): Steps {
  const kernel = env.kernel ?? KERNEL;
  const caches = env.caches ?? PROCESS_CACHES;
  const h = requireHandler(req.handler);
  const implSource = req.implSource ?? '';
  const impl = implementationStep(implSource, kernel, h, caches);
  const spec = runSpec(req.spec, h.name, impl.pre, impl.args.map((a) => a.term), { parseCache: caches.specs });
  if (!spec.ok) return { ok: false, error: spec.error, warnings: spec.warnings };
  return {
    ok: true,
    handler: h,
    step: { ...impl, cond: spec.cond, post: spec.post },
    spec,
    assume: assumeInvariants(impl.mem),
    implKey: `${programKey(implSource, kernel)}\0${h.name}`,
  };
}

/** The SPEC031 warning of a refutation taken on the solver's word, at the spec's first quantifier. */
export function quantifierWarning(spec: string, fallbackLine: number): Diagnostic {
  return { ...quantifierDiagnostic(spec, fallbackLine), severity: 'warning' };
}

/** `v` carrying `warnings` (none: unchanged); one per code and place. */
export function withWarnings(v: TimedVerdict, warnings: readonly Diagnostic[] | undefined): TimedVerdict {
  if (!warnings || !warnings.length) return v;
  const seen = new Set<string>();
  const unique = warnings.filter((w) => {
    const k = `${w.code}:${w.span.offset}:${w.span.endOffset}`;
    return !seen.has(k) && (seen.add(k), true);
  });
  return { ...v, warnings: unique };
}

export function verdictStatus(results: readonly ObligationResult[]): Verdict['status'] {
  const w = worst(results.map((r) => r.status));
  return w === 'failed' ? 'refuted' : w === 'proved' ? 'verified' : w;
}

/**
 * Proves every obligation of `steps` within the request's budget, counted
 * from `started`, and explains a refutation with a counterexample. Must run
 * as one engine job (a model is read between queries).
 */
export async function proveRefinement(steps: Extract<Steps, { ok: true }>, req: VerifyRequest, env: VerifyEnv, started: number): Promise<TimedVerdict> {
  const { step, spec, assume } = steps;
  const caches = env.caches ?? PROCESS_CACHES;
  const timeoutMs = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const deadline = started + timeoutMs;

  const specSide = await prove(specObligations(step), env.engine, { assume, timeoutMs, deadline });
  // The implementation-only obligations do not depend on the spec: proved
  // once per program (after the spec side: queries must never overlap).
  const implSide = await caches.implProof(steps.implKey, () => prove(implObligations(step), env.engine, { assume, timeoutMs, deadline }));
  try {
    return withWarnings(await explain(specSide, implSide, steps, req, env, started), spec.warnings);
  } finally {
    specSide.refutation?.model.dispose();
    // What this budget left undecided may be decided with a larger one: not kept.
    if (implSide.results.some((r) => r.status === 'timeout')) caches.forget(steps.implKey);
  }
}

async function explain(
  specSide: ProofOutcome,
  implSide: ProofOutcome,
  steps: Extract<Steps, { ok: true }>,
  req: VerifyRequest,
  env: VerifyEnv,
  started: number,
): Promise<TimedVerdict> {
  const { step, spec, assume } = steps;
  const timeoutMs = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const obligations = [...specSide.results, ...implSide.results];
  const status = verdictStatus(obligations);
  const ms = Date.now() - started;
  if (status === 'verified' || status === 'timeout') return { status, obligations, ms };
  if (status === 'unknown') return { status, reason: obligations.find((r) => r.reason)?.reason ?? 'the solver could not decide some obligations', obligations, ms };
  const refutation = specSide.refutation ?? implSide.refutation;
  const failed = obligations.filter((r) => r.status === 'failed').map((r) => r.name);
  if (!refutation) return { status: 'refuted', failed, obligations, ms };
  // The spec line to point at: where the first differing field was written,
  // or the return (a condition, or a field the spec never wrote).
  const firstSpecFailure = refutation.failures.find((f) => f.obligation.name !== 'safety' && f.obligation.name !== 'impl-invariants');
  const specLine = firstSpecFailure ? (spec.writes.get(firstSpecFailure.obligation.name) ?? spec.returnLine) : undefined;
  // A model taken on the solver's word cannot be checked against preferences either.
  const shown: WellFormedRefutation = refutation.quantified
    ? { ...refutation, wellFormed: false, owned: false }
    : await preferWellFormed(refutation, { engine: env.engine, assume, args: step.args, timeoutMs });
  try {
    const counterexample = buildCounterexample({
      model: shown.model,
      args: step.args,
      cond: step.cond,
      ret: step.ret,
      failures: shown.failures,
      replayed: shown.replayed,
      quantified: refutation.quantified,
      wellFormed: refutation.quantified ? undefined : shown.wellFormed,
      specLine,
    });
    const verdict: TimedVerdict = { status: 'refuted', failed, obligations, counterexample, ms };
    const onWord = refutation.quantified || specSide.unreplayed.length > 0 || implSide.unreplayed.length > 0;
    return onWord ? withWarnings(verdict, [quantifierWarning(req.spec, spec.returnLine)]) : verdict;
  } finally {
    if (shown.owned) shown.model.dispose();
  }
}

/** What one query says about a step (the mutant screen, tasks/refute.ts). */
export type QuickVerdict =
  /** A state where the spec and the implementation disagree (or the implementation is unsafe), replayed or, through a quantifier, on the solver's word. */
  | 'refuted'
  /** No such state: the implementation refines the spec (an equivalent mutant). */
  | 'equivalent'
  /** The solver gave up, the replay disagreed, or the spec did not run. */
  | 'unknown';

/** One solver query for a state that falsifies any refinement obligation of `steps`. */
export async function refuteOnce(steps: Extract<Steps, { ok: true }>, env: VerifyEnv, timeoutMs: number): Promise<QuickVerdict> {
  const negated = o.not(o.and(...refinementObligations(steps.step).map((ob) => ob.goal)));
  const assumptions = steps.assume([negated]);
  const r = await env.engine.check([...assumptions, negated], { timeoutMs });
  if (r.status === 'unsat') return 'equivalent';
  if (r.status === 'unknown') return 'unknown';
  try {
    const memo = new Map<number, Value>();
    const replayed = assumptions.every((a) => evaluate(a, r.model, memo) === true) && evaluate(negated, r.model, memo) === true;
    return replayed ? 'refuted' : 'unknown';
  } catch (e) {
    if (e instanceof QuantifierEvalError) return 'refuted';
    throw e;
  } finally {
    r.model.dispose();
  }
}

/** The declarative checks of a spec (strict), or its error. */
export type DeclarativeCheck =
  | { readonly status: 'spec-error'; readonly error: Diagnostic }
  | {
      readonly status: Outcome;
      readonly results: readonly ObligationResult[];
      readonly warnings: readonly Diagnostic[];
      /** Set when the oracle's proof was reused (declarative.ts). */
      readonly reused?: Reused;
    };

/** The reason of a declarative check that the solver refutes through a quantifier. */
export const QUANTIFIED_LEMMA =
  'the solver refutes a declarative check of this spec; it has a quantifier, so the refutation is not replayed';

/**
 * The declarative checks (spec invariants and lemmas) of `req.spec`, as
 * `verify --strict` and the strict grade both see them. One engine job of
 * its own. An unknown handler throws ImplementationError.
 */
export async function declarativeCheck(req: VerifyRequest, env: VerifyEnv, timeoutMs?: number): Promise<DeclarativeCheck> {
  const h = requireHandler(req.handler);
  try {
    const d = await checkDeclarative(h.name, req.spec, env.engine, { timeoutMs, caches: env.caches });
    if (d.status === 'spec-error') return d;
    return { status: d.status, results: d.results, warnings: [], ...(d.reused ? { reused: d.reused } : {}) };
  } catch (e) {
    if (!(e instanceof QuantifierEvalError)) throw e;
    // Which check the model refutes cannot be evaluated: the solver's word for the set.
    return { status: 'failed', results: [{ name: 'lemmas', status: 'failed', reason: QUANTIFIED_LEMMA }], warnings: [quantifierWarning(req.spec, 1)] };
  }
}
