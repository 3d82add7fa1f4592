/**
 * The verifier's front door: verify one spec against one implementation of a
 * handler (the kernel's, a task variant's, or user-supplied C) and return a
 * Verdict. Runs unchanged in Node and in a Web Worker.
 */
import { type CProgram, execFunction, freshMemory, parseProgram } from '../c/index.ts';
import { KERNEL, type KernelContent } from '../kernel/content.ts';
import { abstractOf } from '../kernel/equiv.ts';
import { type HandlerArg, type HandlerInfo, findHandler } from '../kernel/handlers.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { type Term, variable } from '../smt/term.ts';
import { runSpec } from '../spec/index.ts';
import type { Diagnostic } from '../span.ts';
import { buildCounterexample } from './counterexample.ts';
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
  /** Solver timeout per query, ms (default 20000). */
  readonly timeoutMs?: number;
  /** Also run the declarative checks (spec invariants and lemmas). */
  readonly strict?: boolean;
}

export interface VerifyEnv {
  readonly engine: SmtEngine;
  readonly kernel?: KernelContent;
}

/** A problem with the implementation or the request itself (not with the spec). */
export class ImplementationError extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
    this.name = 'ImplementationError';
  }
}

export type TimedVerdict = Verdict & { readonly ms: number };

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

export function requireHandler(name: string): HandlerInfo {
  const h = findHandler(name);
  if (!h) throw new ImplementationError(`unknown handler '${name}'`);
  return h;
}

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

function summarize(results: readonly ObligationResult[]): Verdict['status'] {
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
  const v = await env.engine.exclusive(() => verifyNow(req, env));
  if (!req.strict || v.status === 'spec-error') return v;
  // The declarative checks are a job of their own (never nested in another).
  const d = await checkDeclarative(req.handler, req.spec, env.engine, { timeoutMs: req.timeoutMs });
  if (d.status === 'spec-error') return { status: 'spec-error', error: d.error, ms: Date.now() - started };
  return withDeclarative(v, d.results, Date.now() - started);
}

/** Folds the declarative results into a refinement verdict. */
function withDeclarative(v: Exclude<TimedVerdict, { status: 'spec-error' }>, extra: readonly ObligationResult[], ms: number): TimedVerdict {
  const obligations = [...v.obligations, ...extra];
  const failedExtra = extra.filter((r) => r.status === 'failed').map((r) => r.name);
  if (v.status === 'refuted') return { ...v, failed: [...v.failed, ...failedExtra], obligations, ms };
  if (failedExtra.length) return { status: 'refuted', failed: failedExtra, obligations, ms };
  const status = summarize(obligations);
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
  if (!spec.ok) return { status: 'spec-error', error: spec.error, ms: Date.now() - started };

  const step: RefinementStep = { ...impl, cond: spec.cond, post: spec.post };
  const timeoutMs = req.timeoutMs ?? 20000;
  const assume = assumeInvariants(impl.mem);

  const specSide = await prove([condObligation(step), ...fieldObligations(step)], env.engine, { assume, timeoutMs });
  // The implementation-only obligations do not depend on the spec: prove them
  // once per program (after the spec side: queries must never overlap).
  const implKey = `${kernel.kernelHash}\0${req.implSource ?? ''}\0${h.name}`;
  let implProof = implProofs.get(implKey);
  if (!implProof) {
    const implObligations: Obligation[] = [safetyObligation(step), invariantObligation(step)];
    implProof = prove(implObligations, env.engine, { assume, timeoutMs });
    implProofs.set(implKey, implProof);
    implProof.catch(() => implProofs.delete(implKey));
  }
  const implSide = await implProof;

  const obligations = [...specSide.results, ...implSide.results];
  const status = summarize(obligations);
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
  const counterexample = buildCounterexample({
    model: refutation.model,
    args: impl.args,
    cond: spec.cond,
    ret: impl.ret,
    failures: refutation.failures,
    replayed: refutation.replayed,
    specLine,
  });
  if (refutation !== implSide.refutation) refutation.model.dispose();
  return { status: 'refuted', failed, obligations, counterexample, ms };
}
