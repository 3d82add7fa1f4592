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
 * declarative checks (`verifyDeclarative`), so a spec error or a quantifier
 * is handled the same way on every path.
 *
 * A quantifier (z3.ForAll, z3.Exists) has no concrete evaluation here, so a
 * refutation through one cannot be replayed: it is taken on the solver's
 * word, as upstream takes every refutation, shown as far as it can be
 * evaluated, and carries the SPEC031 warning (docs/spec-errors.md).
 */
import { KERNEL } from '../kernel/content.ts';
import type { HandlerInfo } from '../kernel/handlers.ts';
import type { Term } from '../smt/term.ts';
import { type ParseCache, newParseCache, quantifierDiagnostic, runSpec } from '../dialect/index.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { cacheSlot } from './caches.ts';
import { buildCounterexample } from './counterexample.ts';
import { type Shown, showWellFormed } from './counterexample-wellformed.ts';
import { type DeclarativeOptions, type DeclarativePath, type Reused, proveSpecLemmas } from './declarative.ts';
import type { VerifyEnv } from './env.ts';
import { IMPL_PROOFS } from './impl-proofs.ts';
import { implementationStep, programKey, requireHandler } from './implementation.ts';
import { type Outcome, worst } from './outcome.ts';
import { type ProofOutcome, disposeOutcome, prove } from './prove.ts';
import { checkQuery } from './query.ts';
import { assumeInvariants, implObligations, refinementObligations, specObligations } from './refinement.ts';
import type { RefinementStep } from './steps.ts';
import type { ObligationResult, Verdict } from './verdict.ts';

export type { VerifyEnv } from './env.ts';

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

export type TimedVerdict = Verdict & { readonly ms: number };

/**
 * The budget of a verification when the request gives none (ms). The
 * slowest oracle, clone_proc, took 29 s on this 2-core machine under a load
 * of 20 (about 5 s idle); the budget must not turn a slow machine's proof
 * into a timeout.
 */
export const DEFAULT_BUDGET_MS = 120_000;

type SpecRun = Extract<ReturnType<typeof runSpec>, { ok: true }>;

/** The parsed and checked spec texts of a cache object (the dialect's parse cache). */
const SPECS = cacheSlot((limits) => {
  const specs: ParseCache = newParseCache(limits.specs);
  return Object.assign(specs, { stats: () => ({ specs: specs.size }) });
});

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
  const h = requireHandler(req.handler);
  const implSource = req.implSource ?? '';
  const impl = implementationStep(implSource, kernel, h, env.caches);
  const spec = runSpec(req.spec, h.name, impl.pre, impl.args.map((a) => a.term), { parseCache: env.caches.slot(SPECS) });
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
function quantifierWarning(spec: string, fallbackLine: number): Diagnostic {
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
  const timeoutMs = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const deadline = started + timeoutMs;
  const implProofs = env.caches.slot(IMPL_PROOFS);

  const specSide = await prove(specObligations(step), env.engine, { assume, timeoutMs, deadline });
  try {
    // The implementation-only obligations do not depend on the spec: proved
    // once per program (after the spec side: queries must never overlap).
    // The cache owns that outcome's model; this verification owns the spec side's.
    const implSide = await implProofs.get(steps.implKey, () => prove(implObligations(step), env.engine, { assume, timeoutMs, deadline }));
    try {
      return withWarnings(await explain(specSide, implSide, steps, req, env, started), spec.warnings);
    } finally {
      // What this budget left undecided may be decided with a larger one: not kept.
      if (implSide.results.some((r) => r.status === 'timeout')) implProofs.forget(steps.implKey);
    }
  } finally {
    disposeOutcome(specSide);
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
  const onWord = refutation.quantified || specSide.unreplayed.length > 0 || implSide.unreplayed.length > 0;
  const show = (shown: Omit<Shown, 'wellFormed'> & { readonly wellFormed?: boolean }): TimedVerdict => {
    const counterexample = buildCounterexample({
      model: shown.model,
      args: step.args,
      cond: step.cond,
      ret: step.ret,
      failures: shown.failures,
      replayed: shown.replayed,
      quantified: refutation.quantified,
      wellFormed: shown.wellFormed,
      specLine,
    });
    const verdict: TimedVerdict = { status: 'refuted', failed, obligations, counterexample, ms };
    return onWord ? withWarnings(verdict, [quantifierWarning(req.spec, spec.returnLine)]) : verdict;
  };
  // A model taken on the solver's word cannot be checked against preferences either.
  if (refutation.quantified) return show(refutation);
  return showWellFormed(refutation, { engine: env.engine, assume, args: step.args, timeoutMs }, show);
}

/** What one query says about a step (the mutant screen, tasks/refute.ts). */
export type QuickVerdict =
  /** A state where the spec and the implementation disagree (or the implementation is unsafe), replayed or, through a quantifier, on the solver's word. */
  | 'refuted'
  /** No such state: the implementation refines the spec (an equivalent mutant). */
  | 'equivalent'
  /** The solver gave up, the replay disagreed, or the spec did not run. */
  | 'unknown';

/**
 * One checked query for a state that falsifies any refinement obligation of
 * `steps`: replayed, or through a quantifier on the solver's word, it is
 * `refuted`; a model our evaluator does not replay is `unknown`.
 */
export async function refuteOnce(steps: Extract<Steps, { ok: true }>, env: VerifyEnv, timeoutMs: number): Promise<QuickVerdict> {
  const goals = refinementObligations(steps.step).map((ob) => ob.goal);
  const r = await checkQuery(env.engine, { goals, assume: (negated) => steps.assume([negated]), timeoutMs });
  return r.kind === 'proved' ? 'equivalent' : r.kind === 'refuted' || r.kind === 'on-word' ? 'refuted' : 'unknown';
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
      /** How the check went, and how many facts it took as known (declarative.ts). */
      readonly path: DeclarativePath;
      readonly known: number;
      /** Facts a model kept from an earlier answer refuted (declarative.ts). */
      readonly kept?: number;
    };

/**
 * The declarative checks (spec invariants and lemmas) of `req.spec`, as
 * `verify --strict` and the strict grade both see them (the grade stops at
 * the first lemma not proved: `stopAtFailure`). One engine job of its own.
 * An unknown handler throws ImplementationError.
 */
export async function verifyDeclarative(
  req: VerifyRequest,
  env: VerifyEnv,
  timeoutMs?: number,
  opts: Pick<DeclarativeOptions, 'stopAtFailure' | 'reuse' | 'onQuery'> = {},
): Promise<DeclarativeCheck> {
  const h = requireHandler(req.handler);
  const d = await proveSpecLemmas(h.name, req.spec, env, { timeoutMs, ...opts });
  if (d.status === 'spec-error') return d;
  // A failure through the spec's quantifier is the solver's word: say so, at the quantifier.
  const warnings = d.onWord ? [quantifierWarning(req.spec, 1)] : [];
  return { status: d.status, results: d.results, warnings, path: d.path, known: d.known, ...(d.reused ? { reused: d.reused } : {}), ...(d.kept ? { kept: d.kept } : {}) };
}
