/**
 * The verifier's front door: verify one spec against one implementation of a
 * handler (the kernel's, a task variant's, or user-supplied C) and return a
 * Verdict. Runs unchanged in Node and in a Web Worker. The steps and the
 * obligations are the driver's (driver.ts); this file orders the jobs.
 */
import type { Diagnostic } from '../diagnostic.ts';
import { SpecError } from '../dialect/index.ts';
import type { VerifierCaches } from './caches.ts';
import { type TimedVerdict, type VerifyEnv, type VerifyRequest, DEFAULT_BUDGET_MS, buildSteps, verifyDeclarative, proveRefinement, refinementStatus, verdictStatus, withWarnings } from './driver.ts';
import type { ObligationResult, VerdictStatus } from './verdict.ts';

export { DEFAULT_BUDGET_MS, type TimedVerdict, type VerifyEnv, type VerifyRequest } from './driver.ts';
export { ImplementationError, loadProgram, requireHandler } from './implementation.ts';
export { VerifierCaches } from './caches.ts';

/** Empties `caches` and disposes the models they hold; benchmarks use it to time cold verifications. */
export function clearVerifierCaches(caches: VerifierCaches): void {
  caches.clear();
}

/**
 * Verifies `req.spec` against the implementation. Spec errors come back as a
 * `spec-error` verdict; a broken implementation or request throws
 * ImplementationError.
 */
export async function verify(req: VerifyRequest, env: VerifyEnv): Promise<TimedVerdict> {
  const started = Date.now();
  const budget = req.timeoutMs ?? DEFAULT_BUDGET_MS;
  const v = await onSteps(req, env, proveRefinement, (error, warnings, begun): TimedVerdict => withWarnings({ status: 'spec-error', error, ms: Date.now() - begun }, warnings));
  if (!req.strict || v.status === 'spec-error') return v;
  // The declarative checks are a job of their own (never nested in another).
  const d = await verifyDeclarative(req, env, Math.max(1, budget - v.ms));
  if (d.status === 'spec-error') return withWarnings({ status: 'spec-error', error: d.error, ms: Date.now() - started }, v.warnings);
  return withWarnings(withDeclarative(v, d.results, Date.now() - started), [...(v.warnings ?? []), ...d.warnings]);
}

/**
 * The status `verify(req, env)` would give, made with less work where only
 * the status is wanted (bug-following, the matrix): a state found by running
 * that refutes the spec settles `refuted` without a query
 * (driver.ts, `refinementStatus`). With `strict`, the whole verification.
 */
export async function verifyStatus(req: VerifyRequest, env: VerifyEnv): Promise<VerdictStatus> {
  if (req.strict) return (await verify(req, env)).status;
  return onSteps(req, env, refinementStatus, (): VerdictStatus => 'spec-error');
}

type BuiltSteps = Extract<ReturnType<typeof buildSteps>, { ok: true }>;

/**
 * `prove` over the steps of `req`, as one engine job begun at `begun`; a spec
 * error, in building the steps or raised by a read of a step (none is
 * expected: the run pins every map it writes), is still the spec's, with its
 * place and the warnings so far, given to `specError`.
 */
function onSteps<T>(
  req: VerifyRequest,
  env: VerifyEnv,
  prove: (steps: BuiltSteps, req: VerifyRequest, env: VerifyEnv, begun: number) => Promise<T>,
  specError: (error: Diagnostic, warnings: readonly Diagnostic[] | undefined, begun: number) => T,
): Promise<T> {
  return env.engine.exclusive(async () => {
    const begun = Date.now();
    const steps = buildSteps(req, env);
    if (!steps.ok) return specError(steps.error, steps.warnings, begun);
    try {
      return await prove(steps, req, env, begun);
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      return specError(e.toDiagnostic(e.source ?? req.spec), steps.spec.warnings, begun);
    }
  });
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
