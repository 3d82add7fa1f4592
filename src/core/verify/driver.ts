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
import { KERNEL, oracleSpec } from '../kernel/content.ts';
import type { HandlerInfo } from '../kernel/handlers.ts';
import type { Term } from '../smt/term.ts';
import { type ParseCache, newParseCache, quantifierDiagnostic, runSpec } from '../dialect/index.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { cacheSlot } from './caches.ts';
import { buildCounterexample } from './counterexample.ts';
import { type WellFormedShown, showAsFound, showWellFormed } from './counterexample-wellformed.ts';
import { type DeclarativeOptions, type DeclarativePath, type Reused, proveSpecLemmas } from './declarative.ts';
import type { VerifyEnv } from './env.ts';
import { IMPL_PROOFS } from './impl-proofs.ts';
import type { StoredProof } from './proof-cache.ts';
import { implementationStep, programKey, requireHandler } from './implementation.ts';
import { type ObligationOutcome, worst } from './outcome.ts';
import { type Obligation, type ProofOutcome, disposeOutcome, prove } from './prove.ts';
import { PROVED_GOALS } from './proved-goals.ts';
import { phaseClock } from '../phases.ts';
import { solveQuery } from './query.ts';
import { assumeInvariants, implObligations, refinementObligations, specObligations } from './refinement.ts';
import { type RefinementSide, refinementProofKey, storedRefinementProof } from './refinement-proofs.ts';
import { type RunRefutation, refuteByRunning } from './run-refute.ts';
import type { RefinementStep } from './steps.ts';
import type { Snapshot } from '../smt/snapshot.ts';
import type { SmtModel } from '../smt/solver.ts';
import type { ObligationResult, Verdict } from './verdict.ts';
import { DEFAULT_BUDGET_MS } from '../budget.ts';

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
  /**
   * Run the step in concrete states before any query (run-refute.ts;
   * default true). False: only the solver refutes (for comparing the two).
   */
  readonly run?: boolean;
}

export type TimedVerdict = Verdict & { readonly ms: number };

/** The budget of a verification when the request gives none (core/budget.ts). */
export { DEFAULT_BUDGET_MS };

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
export async function proveRefinement(steps: Extract<Steps, { ok: true }>, req: VerifyRequest, env: VerifyEnv, started: number, ran = runFirst(steps, req, env)): Promise<TimedVerdict> {
  const { step, spec, assume } = steps;
  const timeoutMs = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const deadline = started + timeoutMs;
  const implProofs = env.caches.slot(IMPL_PROOFS);
  const known = env.caches.slot(PROVED_GOALS);
  const shipped = isShippedKernel(req, env);
  const { obligations, isKnown, run } = ran;
  // With a solver, it settles what the run's state does not falsify, so the verdict lists what the solver's alone would.
  const asked = env.solverFree && run ? undefined : await prove(run ? obligations.filter((ob) => !failsIn(run, ob)) : obligations, env.engine, { assume, timeoutMs, deadline, known: isKnown });
  const specSide = run ? withRun(run, obligations, asked ?? notAsked(obligations, isKnown)) : asked!;
  known.add(steps.implKey, provedGoals(obligations, specSide));
  try {
    // The implementation-only obligations do not depend on the spec: proved
    // once per program (after the spec side: queries must never overlap),
    // or taken from the committed proof for the kernel as shipped.
    // The cache owns that outcome's model; this verification owns the spec side's.
    const implStored = (obligations: Obligation[]) => shipped && isStored(steps, 'impl', obligations);
    const implSide =
      env.solverFree && run
        ? withRun(run, implObligations(step), implStored(implObligations(step)) ? provedOutcome(implObligations(step)) : notAsked(implObligations(step), () => false))
        : await implProofs.get(steps.implKey, () => {
            const obligations = phaseClock.timed('terms', () => implObligations(step));
            if (implStored(obligations)) return Promise.resolve(provedOutcome(obligations));
            return prove(obligations, env.engine, { assume, timeoutMs, deadline });
          });
    try {
      return withWarnings(await explain(specSide, implSide, steps, req, env, started), spec.warnings);
    } finally {
      // What this budget left undecided may be decided with a larger one: not kept.
      if (!(env.solverFree && run) && implSide.results.some((r) => r.status === 'timeout')) implProofs.forget(steps.implKey);
    }
  } finally {
    disposeOutcome(specSide);
  }
}

/** The spec side's obligations, which of them are known proved already, and what running them in concrete states found. */
export interface RunFirst {
  readonly obligations: Obligation[];
  readonly isKnown: (g: Term) => boolean;
  /** Undefined when nothing was run (every obligation known, or `req.run` false). */
  readonly run?: RunRefutation;
}

/**
 * The first part of `proveRefinement`, before any query: the spec side's
 * obligations, those known proved for this program (seeded from the
 * oracle's committed proof for the kernel as shipped), and the others run
 * in concrete states (run-refute.ts).
 */
function runFirst(steps: Extract<Steps, { ok: true }>, req: VerifyRequest, env: VerifyEnv): RunFirst {
  const known = env.caches.slot(PROVED_GOALS);
  if (isShippedKernel(req, env)) known.seedOnce(steps.implKey, () => seedFromOracle(steps, env));
  const obligations = phaseClock.timed('terms', () => specObligations(steps.step));
  const isKnown = (g: Term) => known.has(steps.implKey, g);
  const open = obligations.filter((ob) => !isKnown(ob.goal));
  const run = open.length && req.run !== false ? phaseClock.timed('replay', () => refuteByRunning(steps.handler.name, steps.step, open, steps.assume, env.caches)) : undefined;
  return { obligations, isKnown, ...(run ? { run } : {}) };
}

/**
 * The status `proveRefinement` gives, without what only its verdict needs
 * (for bug-following and the matrix, docs/design.md §4): when running finds
 * a state that refutes an obligation, the verdict is `refuted` whatever the
 * other obligations come to (a failure is the worst outcome, outcome.ts), so
 * neither the solver's proof of the rest, the implementation's own
 * obligations nor a counterexample is made. Otherwise the whole proof, as
 * `proveRefinement` makes it. Must run as one engine job.
 */
export async function refinementStatus(steps: Extract<Steps, { ok: true }>, req: VerifyRequest, env: VerifyEnv, started: number): Promise<Verdict['status']> {
  const ran = runFirst(steps, req, env);
  if (ran.run?.failures.length) return 'refuted';
  return (await proveRefinement(steps, req, env, started, ran)).status;
}

/** Does the run's state falsify `ob`? */
function failsIn(run: RunRefutation, ob: Obligation): boolean {
  return run.failures.some((f) => f.obligation.name === ob.name);
}

/** The reason of an obligation not asked because running refuted the spec first, with no solver to ask. */
const NOT_ASKED_RUN = 'not asked: a state found by running refutes the spec, and the solver has not loaded';

/** `obligations` without a query: those trivially true or `known` proved, the rest not asked (`unknown`). */
function notAsked(obligations: readonly Obligation[], known: (g: Term) => boolean): ProofOutcome {
  const results: ObligationResult[] = obligations.map((ob) =>
    (ob.goal.op === 'const' && ob.goal.value === true) || known(ob.goal) ? { name: ob.name, status: 'proved', ms: 0 } : { name: ob.name, status: 'unknown', reason: NOT_ASKED_RUN },
  );
  return { results, unreplayed: [], solverMs: 0, queries: 0 };
}

/**
 * `obligations`' outcome with the run's failures (run-refute.ts) over what
 * `rest` says of the others; the run's state is the refutation shown (a
 * solver's model in `rest` is released here).
 */
function withRun(run: RunRefutation, obligations: readonly Obligation[], rest: ProofOutcome): ProofOutcome {
  const failures = run.failures.filter((f) => obligations.some((ob) => ob.name === f.obligation.name));
  const byName = new Map(rest.results.map((r) => [r.name, r]));
  const results = obligations.map((ob): ObligationResult => (failsIn(run, ob) ? { name: ob.name, status: 'failed', ms: 0 } : (byName.get(ob.name) ?? { name: ob.name, status: 'unknown', reason: NOT_ASKED_RUN })));
  disposeOutcome(rest);
  const refutation = failures.length ? { model: snapshotModel(run.model), failures, replayed: true } : undefined;
  return { results, ...(refutation ? { refutation } : {}), unreplayed: rest.unreplayed, solverMs: rest.solverMs, queries: rest.queries };
}

/** Does the request check the kernel as shipped (the program the committed refinement proofs are about)? */
function isShippedKernel(req: VerifyRequest, env: VerifyEnv): boolean {
  return (req.implSource ?? '').trim() === '' && (env.kernel ?? KERNEL) === KERNEL;
}

/** Is there a committed proof of exactly these obligations of `steps`' handler (refinement-proofs.ts)? */
function isStored(steps: Extract<Steps, { ok: true }>, side: RefinementSide, obligations: readonly Obligation[]): boolean {
  return storedRefinementProof(steps.handler.name, side, refinementProofKey(steps.handler.name, side, steps.step, obligations)) !== undefined;
}

/** Every obligation proved, without a query. */
function provedOutcome(obligations: readonly Obligation[]): ProofOutcome {
  return { results: obligations.map((ob) => ({ name: ob.name, status: 'proved', ms: 0 })), unreplayed: [], solverMs: 0, queries: 0 };
}

/** The goals of `obligations` that `outcome` proved. */
function provedGoals(obligations: readonly Obligation[], outcome: ProofOutcome): Term[] {
  return obligations.filter((_, i) => outcome.results[i]?.status === 'proved').map((ob) => ob.goal);
}

/**
 * Records the oracle spec's goals as proved for `steps`' program and
 * handler when their committed proof is current: run on the same start,
 * the oracle's obligations are terms of this worker, and an answer that
 * states the same goal (term for term) needs no query for it.
 */
export function seedFromOracle(steps: Extract<Steps, { ok: true }>, env: VerifyEnv): void {
  const h = steps.handler.name;
  const spec = oracleSpec(h);
  if (spec === undefined) return;
  const oracle = buildSteps({ handler: h, spec }, env);
  if (!oracle.ok) return;
  const obligations = specObligations(oracle.step);
  if (isStored(oracle, 'spec', obligations)) env.caches.slot(PROVED_GOALS).add(steps.implKey, obligations.map((ob) => ob.goal));
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
  if (!refutation) return { status: 'refuted', failed, obligations, ms, foundBy: 'solver' };
  const by = RUN_MODELS.has(refutation.model) ? 'run' : 'solver';
  const onWord = refutation.quantified || specSide.unreplayed.length > 0 || implSide.unreplayed.length > 0;
  const show = (shown: ShownAs): TimedVerdict => {
    const verdict: TimedVerdict = { status: 'refuted', failed, obligations, counterexample: counterexampleOf(steps, shown, refutation.quantified), ms, foundBy: by };
    return onWord ? withWarnings(verdict, [quantifierWarning(req.spec, spec.returnLine)]) : verdict;
  };
  // A model taken on the solver's word cannot be checked against preferences either.
  if (refutation.quantified) return show(refutation);
  // A state the run reached is shown as it is (no query).
  if (by === 'run') return showAsFound(refutation, { assume, args: step.args, addresses: step.addresses }, show);
  return showWellFormed(refutation, { engine: env.engine, assume, args: step.args, addresses: step.addresses, timeoutMs }, show);
}

/** A refutation as a counterexample shows it (`wellFormed` and `outsideC` where a search or the run said). */
type ShownAs = Omit<WellFormedShown, 'wellFormed' | 'outsideC'> & { readonly wellFormed?: boolean; readonly outsideC?: readonly string[] };

/** The counterexample of `shown` for `steps`, pointing at the spec line of the first failing field (or the return). */
function counterexampleOf(steps: Extract<Steps, { ok: true }>, shown: ShownAs, quantified: boolean | undefined) {
  const { step, spec } = steps;
  // The spec line to point at: where the first differing field was written,
  // or the return (a condition, or a field the spec never wrote).
  const firstSpecFailure = shown.failures.find((f) => f.obligation.name !== 'safety' && f.obligation.name !== 'impl-invariants');
  const specLine = firstSpecFailure ? (spec.writes.get(firstSpecFailure.obligation.name) ?? spec.returnLine) : undefined;
  return buildCounterexample({
    model: shown.model,
    args: step.args,
    cond: step.cond,
    ret: step.ret,
    failures: shown.failures,
    replayed: shown.replayed,
    quantified,
    wellFormed: shown.wellFormed,
    outsideC: shown.outsideC,
    specLine,
  });
}

/** The models of refutations found by running (`snapshotModel`): what the verdict's `foundBy` is told by. */
const RUN_MODELS = new WeakSet<SmtModel>();

/** A run's model as the solver's models are held (it holds nothing to dispose). */
function snapshotModel(model: Snapshot): SmtModel {
  const m: SmtModel = { constant: (name, sort) => model.constant(name, sort), apply: (decl, args) => model.apply(decl, args), dispose: () => undefined };
  RUN_MODELS.add(m);
  return m;
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
  const r = await solveQuery(env.engine, { goals, assume: (negated) => steps.assume([negated]), timeoutMs });
  return r.kind === 'proved' ? 'equivalent' : r.kind === 'refuted' || r.kind === 'on-word' ? 'refuted' : 'unknown';
}

/** The declarative checks of a spec (strict), or its error. */
export type DeclarativeCheck =
  | { readonly status: 'spec-error'; readonly error: Diagnostic }
  | {
      readonly status: ObligationOutcome;
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

/** The oracle's two sides of `handler`'s refinement of the kernel as shipped, with their keys (refinement-proofs.ts). */
function oracleSides(handler: string, env: VerifyEnv): { steps: Extract<Steps, { ok: true }>; sides: { side: RefinementSide; obligations: Obligation[]; key: string }[] } | string {
  const h = requireHandler(handler);
  const spec = oracleSpec(h.name);
  if (spec === undefined) return `${h.name}: no oracle spec`;
  const steps = buildSteps({ handler: h.name, spec }, { ...env, kernel: KERNEL });
  if (!steps.ok) return `${h.name}: the oracle spec does not run: ${steps.error.code} ${steps.error.message}`;
  const side = (name: RefinementSide, obligations: Obligation[]) => ({ side: name, obligations, key: refinementProofKey(h.name, name, steps.step, obligations) });
  return { steps, sides: [side('impl', implObligations(steps.step)), side('spec', specObligations(steps.step))] };
}

/** The keys the committed refinement proofs of `handler`'s oracle must have to be used now (undefined: no oracle, or it does not run). */
export function oracleRefinementKeys(handler: string, env: VerifyEnv): Partial<Record<RefinementSide, string>> | undefined {
  const o = oracleSides(handler, env);
  return typeof o === 'string' ? undefined : Object.fromEntries(o.sides.map((s) => [s.side, s.key]));
}

/**
 * Makes the committed refinement proofs of `handler`'s oracle against the
 * kernel as shipped (refinement-proofs.ts), nothing reused: each side's
 * obligations proved afresh, with the key it is stored under. A side is
 * missing from `proofs` when something of it is not proved (`failures`
 * names what).
 */
export async function proveOracleRefinement(
  handler: string,
  env: VerifyEnv,
  timeoutMs = DEFAULT_BUDGET_MS,
): Promise<{ readonly proofs: Partial<Record<RefinementSide, StoredProof>>; readonly failures: readonly string[] }> {
  const o = oracleSides(handler, env);
  if (typeof o === 'string') return { proofs: {}, failures: [o] };
  const proofs: Partial<Record<RefinementSide, StoredProof>> = {};
  const failures: string[] = [];
  for (const { side, obligations, key } of o.sides) {
    const started = Date.now();
    const outcome = await env.engine.exclusive(() => prove(obligations, env.engine, { assume: o.steps.assume, timeoutMs, deadline: started + timeoutMs }));
    disposeOutcome(outcome);
    const open = outcome.results.filter((r) => r.status !== 'proved');
    if (open.length) failures.push(`${handler} ${side}: ${open.map((r) => `${r.name}=${r.status}`).join(', ')}`);
    else proofs[side] = { key, ms: Date.now() - started };
  }
  return { proofs, failures };
}
