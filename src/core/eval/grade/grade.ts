/**
 * Grading one model answer for one task (docs/design.md §4): extract the
 * spec, verify it against the correct implementation (pass / syntax / semantic / timeout), then, on request, the declarative
 * checks (strict), the shown buggy variant (bug-following) and every variant
 * of the handler (the matrix).
 */
import { codeFrame } from '../../diagnostic-text.ts';
import { type DeclarativeCheck, verifyDeclarative } from '../../verify/driver.ts';
import { ImplementationError, type VerifyEnv, type VerifyRequest, verify, verifyStatus } from '../../verify/index.ts';
import type { QueryInfo } from '../../verify/fact-prover.ts';
import type { Verdict, VerdictStatus } from '../../verify/verdict.ts';
import { extractSpec } from './answer.ts';
import type { GradeMemo } from './grade-memo.ts';
import type { GradeCategory, GradeOptions, GradeResult } from './grade-types.ts';
import type { Task } from '../../tasks/task.ts';

/**
 * Where and how a spec is graded: the verifier's environment and the
 * grading options (`GradeOptions`: budget, variants for the matrix, strict,
 * a shown implementation, which turns off bug-following and the matrix),
 * plus what a worker or a benchmark brings of its own.
 */
export interface GradeEnv extends VerifyEnv, GradeOptions {
  /** Run each step in concrete states before any query (default true; `VerifyRequest.run`). */
  readonly run?: boolean;
  /** The declarative checks for `strict` (default, when `strict` is set: `strictChecker(env, timeoutMs)`). */
  readonly strictCheck?: (handler: string, spec: string) => Promise<boolean>;
  /** Verdicts already computed by this grader (omit to verify everything afresh). */
  readonly memo?: GradeMemo;
}

function categoryOf(v: Verdict): GradeCategory {
  switch (v.status) {
    case 'verified':
      return 'pass';
    case 'refuted':
      // A counterexample that does not reproduce when replayed is the verifier's fault, not the answer's;
      // one through a quantifier cannot be replayed, and is the answer's (on the solver's word, as upstream).
      return v.counterexample && !v.counterexample.replayed && !v.counterexample.quantified ? 'internal' : 'semantic';
    case 'spec-error':
      return 'syntax';
    case 'timeout':
      return 'timeout';
    case 'unknown':
      return /^internal error/.test(v.reason) ? 'internal' : 'unknown';
  }
}

/** The verifier's diagnosis in words, for a repair prompt (with the spec's warnings, if any). */
function diagnosis(v: Verdict, spec: string): string {
  const w = v.warnings ?? [];
  if (!w.length) return verdictDiagnosis(v, spec);
  const lines = w.map((d) => `- ${d.code} at line ${d.span.line}, column ${d.span.column}: ${d.message}`);
  return `${verdictDiagnosis(v, spec)}\nWarnings (accepted, but usually a mistake):\n${lines.join('\n')}`;
}

function verdictDiagnosis(v: Verdict, spec: string): string {
  switch (v.status) {
    case 'verified':
      return 'The verifier proved the spec correct.';
    case 'spec-error': {
      const e = v.error;
      return `The spec could not be evaluated: error ${e.code} at line ${e.span.line}, column ${e.span.column}: ${e.message}\n${codeFrame(spec, e.span)}`;
    }
    case 'refuted': {
      const head = `The spec does not match the kernel's behaviour. Failing obligations: ${v.failed.join(', ')}.`;
      return v.counterexample ? `${head}\nCounterexample:\n${v.counterexample.summary}` : head;
    }
    case 'timeout':
      return 'The verifier timed out on this spec; simplify it (fewer nested conditionals, no quantifiers) and make sure every condition and effect matches the description.';
    case 'unknown':
      return `The verifier could not decide (${v.reason}).`;
  }
}

/** The grade of an answer with no code in it. */
export function noCodeGrade(): GradeResult {
  return { category: 'syntax', extracted: null, diagnosis: 'The answer contains no code. Answer with exactly one ```python fenced block holding the complete spec.', ms: 0 };
}

/** Grades a whole answer for `task` (its spec read as `extractSpec` reads it): for benchmarks and tests that hold answers. */
export function gradeResponse(task: Task, response: string, env: GradeEnv): Promise<GradeResult> {
  return gradeSpec(task, extractSpec(response), env);
}

/**
 * Grades `spec` (as read from an answer: `extractSpec`; null for no code)
 * for `task`. Never throws for a bad spec; throws only for internal errors.
 */
export async function gradeSpec(task: Task, spec: string | null, env: GradeEnv): Promise<GradeResult> {
  if (spec === null) return noCodeGrade();
  const started = Date.now();
  const shown = env.implSource !== undefined && env.implSource.trim() !== '';
  const base = { handler: task.handler, spec, timeoutMs: env.timeoutMs, ...(shown ? { implSource: env.implSource } : {}), ...(env.run === false ? { run: false } : {}) };
  const verifyEnv: VerifyEnv = { engine: env.engine, caches: env.caches, kernel: env.kernel };
  const check = (req: VerifyRequest) => (env.memo ? env.memo.verify(req, verifyEnv) : verify(req, verifyEnv));
  // Bug-following and the matrix need only a status: a state found by running settles a refutation (verifyStatus).
  const status = (req: VerifyRequest) => (env.memo ? env.memo.status(req, verifyEnv) : verifyStatus(req, verifyEnv));
  const verdict = await check(base);
  const category = categoryOf(verdict);
  let bugFollowing: boolean | undefined;
  let matrix: Record<string, VerdictStatus> | undefined;
  if (verdict.status !== 'spec-error' && !shown) {
    const statusOn = async (implSource: string): Promise<VerdictStatus> => {
      if (!implSource.trim()) return verdict.status;
      try {
        return await status({ ...base, implSource });
      } catch (e) {
        if (e instanceof ImplementationError) return 'unknown';
        throw e;
      }
    };
    // An answer that refines the correct code cannot refine a variant the
    // oracle refutes, so only a semantic failure can be bug-following.
    if (task.bug_count > 0) bugFollowing = category === 'semantic' ? (await statusOn(task.impl_override)) === 'verified' : false;
    if (env.variants) {
      matrix = {};
      for (const v of env.variants) matrix[v.id] = await statusOn(v.impl_override);
    }
  }
  const strictCheck = env.strictCheck ?? (env.strict ? strictChecker(verifyEnv, env.timeoutMs) : undefined);
  const strict =
    category === 'pass' && strictCheck
      ? await (env.memo ? env.memo.strict(task.handler, spec, strictCheck) : strictCheck(task.handler, spec))
      : undefined;
  return {
    category,
    extracted: spec,
    verdict,
    ...(strict !== undefined ? { strict } : {}),
    ...(bugFollowing !== undefined ? { bugFollowing } : {}),
    ...(matrix ? { matrix } : {}),
    diagnosis: diagnosis(verdict, spec),
    ...(verdict.warnings?.length ? { warnings: verdict.warnings } : {}),
    ms: Date.now() - started,
  };
}

/** A stand-in task for grading against the correct implementation when only a handler is known. */
export function handlerOnlyTask(handler: string, id = `${handler}-v0`): Task {
  return {
    id,
    handler,
    declaration: '',
    description: '',
    code: '',
    bug_classes: [],
    bug_count: 0,
    provenance: [],
    impl_override: '',
    hash: '',
  };
}

/** One strict check as it ran, for a benchmark (bench --corpus): the spec, what the check found, its solver queries, its wall time (ms). */
export interface LemmaCheckRun {
  readonly spec: string;
  readonly check: DeclarativeCheck;
  readonly queries: readonly QueryInfo[];
  readonly ms: number;
}

/** A benchmark's view of each strict check: the clock to time it with (ms), and what to do with each check once it is done. */
export interface LemmaCheckProbe {
  readonly now: () => number;
  readonly checked: (run: LemmaCheckRun) => void;
}

/**
 * The `strict` grade's check: the declarative layer proves the spec's step,
 * through the driver `verify --strict` uses (a spec error or a refutation
 * through a quantifier is a `false`, never a crash). Only whether everything
 * is proved matters here, so the check stops at the first lemma that is not.
 * With a `probe`, each check is also timed and reported, queries included:
 * the same check, seen from outside.
 */
export function strictChecker(env: VerifyEnv, timeoutMs?: number, probe?: LemmaCheckProbe): (handler: string, spec: string) => Promise<boolean> {
  if (!probe) return async (handler, spec) => (await verifyDeclarative({ handler, spec }, env, timeoutMs, STRICT_GRADE)).status === 'proved';
  return async (handler, spec) => {
    const queries: QueryInfo[] = [];
    const t0 = probe.now();
    const check = await verifyDeclarative({ handler, spec }, env, timeoutMs, { ...STRICT_GRADE, onQuery: (q) => queries.push(q) });
    probe.checked({ spec, check, queries, ms: probe.now() - t0 });
    return check.status === 'proved';
  };
}

/** How the strict grade runs the declarative checks. */
const STRICT_GRADE = { stopAtFailure: true } as const;
