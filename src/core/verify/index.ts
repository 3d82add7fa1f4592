/**
 * The verifier's front door: verify one spec against one implementation of a
 * handler (the kernel's, a task variant's, or user-supplied C) and return a
 * Verdict. Runs unchanged in Node and in a Web Worker.
 */
import { type CDiagnostic, type CProgram, execFunction, freshMemory, parseProgram } from '../c/index.ts';
import { KERNEL, type KernelContent } from '../kernel/content.ts';
import { abstractOf } from '../kernel/equiv.ts';
import { type HandlerArg, type HandlerInfo, requireHandler } from '../kernel/handlers.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { type Term, variable } from '../smt/term.ts';
import { QuantifierEvalError } from '../smt/eval.ts';
import { quantifierDiagnostic, runSpec } from '../dialect/index.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { buildCounterexample } from './counterexample.ts';
import { preferWellFormed } from './counterexample-wellformed.ts';
import { checkDeclarative } from './declarative.ts';
import { worst } from './outcome.ts';
import { type Obligation, type ProofOutcome, prove } from './prove.ts';
import {
  type RefinementStep,
  assumeInvariants,
  condObligation,
  fieldObligations,
  invariantObligation,
  safetyObligation,
} from './refinement.ts';
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
}

/**
 * A problem with the implementation (not with the spec): it carries its
 * coded C diagnostics (docs/c-errors.md), the first of which is the one to
 * show. (An unknown handler is an UnknownHandlerError, kernel/handlers.ts.)
 */
export class ImplementationError extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly CDiagnostic[] = [],
  ) {
    super(message);
    this.name = 'ImplementationError';
  }

  toDiagnostic(): CDiagnostic {
    return this.diagnostics[0];
  }
}

export type TimedVerdict = Verdict & { readonly ms: number };

/**
 * The budget of a verification when the request gives none (ms). The
 * slowest oracle, clone_proc, took 29 s on this 2-core machine under a load
 * of 20 (about 5 s idle); the budget must not turn a slow machine's proof
 * into a timeout.
 */
export const DEFAULT_BUDGET_MS = 120_000;

const programs = new Map<string, CProgram>();
const implProofs = new Map<string, Promise<ProofOutcome>>();

/** Forgets cached implementation runs and proofs (benchmarks use it to time cold verifications). */
export function clearVerifierCaches(): void {
  implProofs.clear();
  for (const p of programs.values()) implRuns.delete(p);
}

/** The kernel program with an optional override unit, parsed once per distinct text. */
export function loadProgram(implSource = '', kernel: KernelContent = KERNEL): CProgram {
  const key = `${kernel.kernelHash}\0${implSource}`;
  const hit = programs.get(key);
  if (hit) return hit;
  const overrides = implSource.trim() ? [{ path: 'override.c', text: implSource }] : [];
  const r = parseProgram(kernel.files, kernel.units, overrides);
  if (!r.ok) {
    const first = r.errors[0];
    throw new ImplementationError(
      `the implementation does not compile: ${first.message} (${first.file ?? ''}:${first.span.line}:${first.span.column})`,
      r.errors,
    );
  }
  if (programs.size > 64) programs.delete(programs.keys().next().value!);
  programs.set(key, r.program);
  return r.program;
}

export { requireHandler };

/** Fresh symbolic arguments of a handler, named `arg.<name>`. */
export function handlerArgs(h: HandlerInfo): { arg: HandlerArg; term: Term }[] {
  return h.args.map((arg) => ({ arg, term: variable(`arg.${arg.name}`, arg.width) }));
}

/**
 * The shared start of every check of handler `h` on `program`: σ, S and the
 * implementation's run on it. Cached per program, since it does not depend on the spec.
 */
interface ImplRun {
  readonly mem: RefinementStep['mem'];
  readonly pre: RefinementStep['pre'];
  readonly args: { arg: HandlerArg; term: Term }[];
  readonly ret: Term;
  readonly memAfter: RefinementStep['memAfter'];
  readonly safety: RefinementStep['safety'];
}

const implRuns = new WeakMap<CProgram, Map<string, ImplRun>>();

export function runImplementation(program: CProgram, h: HandlerInfo): ImplRun {
  let perProgram = implRuns.get(program);
  if (!perProgram) implRuns.set(program, (perProgram = new Map()));
  const hit = perProgram.get(h.name);
  if (hit) return hit;
  const mem = freshMemory(program);
  const pre = abstractOf(mem);
  const args = handlerArgs(h);
  const r = execFunction(program, h.name, mem, args.map((a) => a.term));
  if (!r.ok) {
    throw new ImplementationError(`cannot run ${h.name}: ${r.error.message} (${r.error.file}:${r.error.span.line}:${r.error.span.column})`, [r.error]);
  }
  const safety = r.safety.map((s) => ({ label: `${s.kind} at ${s.file}:${s.span.line}: ${s.message}`, ok: s.ok }));
  const run: ImplRun = { mem, pre, args, ret: r.ret, memAfter: r.mem, safety };
  perProgram.set(h.name, run);
  return run;
}

function verdictStatus(results: readonly ObligationResult[]): Verdict['status'] {
  const w = worst(results.map((r) => r.status));
  return w === 'failed' ? 'refuted' : w === 'proved' ? 'verified' : w;
}

/**
 * Verifies `req.spec` against the implementation. Spec errors come back as a
 * `spec-error` verdict; a broken implementation or request throws
 * ImplementationError.
 */
export async function verify(req: VerifyRequest, env: VerifyEnv): Promise<TimedVerdict> {
  const started = Date.now();
  const budget = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const v = await env.engine.exclusive(() => verifyNow(req, env));
  if (!req.strict || v.status === 'spec-error') return v;
  // The declarative checks are a job of their own (never nested in another).
  let d: Awaited<ReturnType<typeof checkDeclarative>>;
  try {
    d = await checkDeclarative(req.handler, req.spec, env.engine, { timeoutMs: Math.max(1, budget - v.ms) });
  } catch (e) {
    if (!(e instanceof QuantifierEvalError)) throw e;
    return withWarnings({ status: 'spec-error', error: quantifierDiagnostic(req.spec, 1), ms: Date.now() - started }, v.warnings);
  }
  if (d.status === 'spec-error') return withWarnings({ status: 'spec-error', error: d.error, ms: Date.now() - started }, v.warnings);
  return withWarnings(withDeclarative(v, d.results, Date.now() - started), v.warnings);
}

/** `v` carrying the spec's warnings (none: unchanged). */
function withWarnings(v: TimedVerdict, warnings: readonly Diagnostic[] | undefined): TimedVerdict {
  return warnings && warnings.length ? { ...v, warnings } : v;
}

/** Folds the declarative results into a refinement verdict. */
function withDeclarative(v: Exclude<TimedVerdict, { status: 'spec-error' }>, extra: readonly ObligationResult[], ms: number): TimedVerdict {
  const obligations = [...v.obligations, ...extra];
  const failedExtra = extra.filter((r) => r.status === 'failed').map((r) => r.name);
  if (v.status === 'refuted') return { ...v, failed: [...v.failed, ...failedExtra], obligations, ms };
  if (failedExtra.length) return { status: 'refuted', failed: failedExtra, obligations, ms };
  const status = verdictStatus(obligations);
  if (status === 'verified' || status === 'timeout') return { status, obligations, ms };
  return { status: 'unknown', reason: obligations.find((r) => r.reason && r.status === 'unknown')?.reason ?? 'the solver could not decide some checks', obligations, ms };
}

async function verifyNow(req: VerifyRequest, env: VerifyEnv): Promise<TimedVerdict> {
  const started = Date.now();
  const kernel = env.kernel ?? KERNEL;
  const h = requireHandler(req.handler);
  const program = loadProgram(req.implSource ?? '', kernel);
  const impl = runImplementation(program, h);

  const spec = runSpec(req.spec, h.name, impl.pre, impl.args.map((a) => a.term));
  if (!spec.ok) return withWarnings({ status: 'spec-error', error: spec.error, ms: Date.now() - started }, spec.warnings);
  const proved = await proveSpec(req, env, kernel, h, impl, spec, started).catch((e: unknown): TimedVerdict => {
    // A refutation of a quantified spec cannot be replayed: a spec error (docs/spec-errors.md SPEC031).
    if (e instanceof QuantifierEvalError) return { status: 'spec-error', error: quantifierDiagnostic(req.spec, spec.returnLine), ms: Date.now() - started };
    throw e;
  });
  return withWarnings(proved, spec.warnings);
}

async function proveSpec(
  req: VerifyRequest,
  env: VerifyEnv,
  kernel: KernelContent,
  h: HandlerInfo,
  impl: ImplRun,
  spec: Extract<ReturnType<typeof runSpec>, { ok: true }>,
  started: number,
): Promise<TimedVerdict> {
  const step: RefinementStep = { ...impl, cond: spec.cond, post: spec.post };
  // One budget for the whole check, counted from the start of this job.
  const timeoutMs = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const deadline = started + timeoutMs;
  const assume = assumeInvariants(impl.mem);

  const specSide = await prove([condObligation(step), ...fieldObligations(step)], env.engine, { assume, timeoutMs, deadline });
  // The implementation-only obligations do not depend on the spec: prove them
  // once per program (after the spec side: queries must never overlap).
  const implKey = `${kernel.kernelHash}\0${req.implSource ?? ''}\0${h.name}`;
  let implProof = implProofs.get(implKey);
  if (!implProof) {
    const implObligations: Obligation[] = [safetyObligation(step), invariantObligation(step)];
    implProof = prove(implObligations, env.engine, { assume, timeoutMs, deadline });
    implProofs.set(implKey, implProof);
    // What this budget left undecided may be decided with a larger one: not kept.
    implProof.then((p) => p.results.some((r) => r.status === 'timeout') && implProofs.delete(implKey), () => implProofs.delete(implKey));
  }
  const implSide = await implProof;

  const obligations = [...specSide.results, ...implSide.results];
  const status = verdictStatus(obligations);
  const ms = Date.now() - started;
  if (status !== 'refuted') {
    specSide.refutation?.model.dispose();
    return status === 'verified'
      ? { status, obligations, ms }
      : status === 'timeout'
        ? { status, obligations, ms }
        : { status: 'unknown', reason: obligations.find((r) => r.reason)?.reason ?? 'the solver could not decide some obligations', obligations, ms };
  }
  const refutation = specSide.refutation ?? implSide.refutation;
  const failed = obligations.filter((r) => r.status === 'failed').map((r) => r.name);
  if (!refutation) return { status: 'refuted', failed, obligations, ms };
  // The spec line to point at: where the first differing field was written,
  // or the return (a condition, or a field the spec never wrote).
  const firstSpecFailure = refutation.failures.find((f) => f.obligation.name !== 'safety' && f.obligation.name !== 'impl-invariants');
  const specLine = firstSpecFailure ? (spec.writes.get(firstSpecFailure.obligation.name) ?? spec.returnLine) : undefined;
  const shown = await preferWellFormed(refutation, { engine: env.engine, assume, args: impl.args, timeoutMs });
  const counterexample = buildCounterexample({
    model: shown.model,
    args: impl.args,
    cond: spec.cond,
    ret: impl.ret,
    failures: shown.failures,
    replayed: shown.replayed,
    wellFormed: shown.wellFormed,
    specLine,
  });
  if (shown.owned) shown.model.dispose();
  if (refutation !== implSide.refutation) refutation.model.dispose();
  return { status: 'refuted', failed, obligations, counterexample, ms };
}
