/**
 * Exercises of the course and of teacher links: what the learner is asked,
 * and how an answer is graded by the real verifier. The grading here is pure
 * (it takes the verify function as an argument), so the browser grades with
 * the worker pool and the Node test grades the same way with the Node engine.
 */
import type { Verdict } from '../../core/verify/verdict.ts';

/**
 * An implementation the answer is checked against: a benchmark task id of a
 * variant ("sys_kill-v3", see tasks/README.md), or undefined for the correct kernel.
 */
export type ImplRef = string | undefined;

interface ExerciseBase {
  /** Unique within its lesson. */
  readonly id: string;
  readonly title: string;
  /** Handler C name. */
  readonly handler: string;
  /** What to do: Markdown for course exercises (lib/markdown.ts), plain text for teacher exercises. */
  readonly prompt: string;
  /** Next-step hints, opened one at a time. */
  readonly hints: readonly string[];
}

/** Write or repair a spec; it passes when every check holds. */
export interface SpecExercise extends ExerciseBase {
  readonly kind: 'spec';
  readonly starter: string;
  readonly solution?: string;
  /** The answer must be verified against this implementation (default: the correct kernel). */
  readonly verifyOn?: ImplRef;
  /** ... and refuted against each of these (the bug is caught). */
  readonly refuteOn?: readonly string[];
  /** ... and pass the lemma checks (invariants and lemmas, docs/lemmas.md). */
  readonly strict?: boolean;
  /** The refuteOn and lemma checks are not named to the learner (teacher exercises). */
  readonly hideChecks?: boolean;
  /** Show what the buggy implementations change (default: unless the checks are hidden). */
  readonly showBugs?: boolean;
}

/** Read a counterexample: run the given spec against an implementation and name a field it blames. */
export interface FieldExercise extends ExerciseBase {
  readonly kind: 'field';
  /** The spec that is run (shown read-only). */
  readonly spec: string;
  readonly impl?: ImplRef;
  /** Run with the lemma checks (the failed names are then lemmas). */
  readonly strict?: boolean;
  /** The fields offered to the learner: obligation names ("cond", "procs.state", ...). */
  readonly choices: readonly string[];
  /** One of the choices the verifier names as failed. */
  readonly solution: string;
}

export type Exercise = SpecExercise | FieldExercise;

/** What grading asks of the verifier. */
export interface GradeRequest {
  readonly handler: string;
  readonly spec: string;
  readonly variant?: string;
  readonly strict?: boolean;
}

export type VerifyFn = (req: GradeRequest) => Promise<Verdict>;

export interface ExerciseCheck {
  /** What was checked, for the learner ("Verified against the correct kernel"). */
  readonly label: string;
  readonly status: 'passed' | 'failed' | 'not-run';
  /** The verdict behind the check, when it ran. */
  readonly verdict?: Verdict;
}

export interface ExerciseGrade {
  readonly passed: boolean;
  readonly checks: readonly ExerciseCheck[];
  /** One sentence for the learner. */
  readonly message: string;
  /** The verdict to show (the first failed check's, or the main one). */
  readonly verdict?: Verdict;
}

export function implLabel(impl: ImplRef): string {
  return impl ? `the buggy implementation ${impl}` : 'the correct kernel';
}

/** The checks a spec exercise makes, in order, as the learner reads them. */
export function specChecks(ex: SpecExercise): { label: string; run: (spec: string, verify: VerifyFn) => Promise<{ ok: boolean; verdict: Verdict }> }[] {
  const hidden = ex.hideChecks === true;
  const out: ReturnType<typeof specChecks> = [];
  out.push({
    label: `Verified against ${implLabel(ex.verifyOn)}`,
    run: async (spec, verify) => {
      const verdict = await verify({ handler: ex.handler, spec, variant: ex.verifyOn });
      return { ok: verdict.status === 'verified', verdict };
    },
  });
  (ex.refuteOn ?? []).forEach((variant, i) =>
    out.push({
      label: hidden ? `Hidden check ${i + 1}` : variant ? `Refuted against ${implLabel(variant)} (its bug is caught)` : `Refuted against ${implLabel(variant)}`,
      run: async (spec, verify) => {
        const verdict = await verify({ handler: ex.handler, spec, variant });
        return { ok: verdict.status === 'refuted', verdict };
      },
    }),
  );
  if (ex.strict) {
    out.push({
      label: hidden ? `Hidden check ${(ex.refuteOn?.length ?? 0) + 1}` : 'Passes the lemma checks (spec invariants and lemmas)',
      run: async (spec, verify) => {
        const verdict = await verify({ handler: ex.handler, spec, variant: ex.verifyOn, strict: true });
        return { ok: verdict.status === 'verified', verdict };
      },
    });
  }
  return out;
}

function messageFor(verdict: Verdict, label: string): string {
  switch (verdict.status) {
    case 'spec-error':
      return `Not yet: the spec has an error (${verdict.error.message}).`;
    case 'timeout':
      return `No answer: the solver ran out of time on "${label}". Try again, or simplify the spec.`;
    case 'unknown':
      return `No verdict on "${label}": ${verdict.reason}.`;
    case 'verified':
      return `Not yet: "${label}" does not hold; the spec is verified there, so it does not tell this implementation from the correct one.`;
    case 'refuted':
      return `Not yet: "${label}" does not hold (failed: ${verdict.failed.join(', ')}).`;
  }
}

/** Grades a spec answer: every check in order, stopping at the first that fails. */
export async function gradeSpec(ex: SpecExercise, spec: string, verify: VerifyFn): Promise<ExerciseGrade> {
  const checks = specChecks(ex);
  const results: ExerciseCheck[] = [];
  let failed: { verdict: Verdict; label: string } | undefined;
  let main: Verdict | undefined;
  for (const c of checks) {
    if (failed) {
      results.push({ label: c.label, status: 'not-run' });
      continue;
    }
    const r = await c.run(spec, verify);
    main ??= r.verdict;
    results.push({ label: c.label, status: r.ok ? 'passed' : 'failed', verdict: r.verdict });
    if (!r.ok) failed = { verdict: r.verdict, label: c.label };
  }
  if (failed) return { passed: false, checks: results, message: messageFor(failed.verdict, failed.label), verdict: failed.verdict };
  return { passed: true, checks: results, message: 'Passed: every check holds.', verdict: main };
}

/** Runs a field exercise's spec; the answer passes when the verifier names `answer` as failed. */
async function gradeField(ex: FieldExercise, answer: string, verify: VerifyFn): Promise<ExerciseGrade> {
  const label = `The verifier names ${answer || '(no field chosen)'} against ${implLabel(ex.impl)}${ex.strict ? ' with the lemma checks' : ''}`;
  if (!answer) return { passed: false, checks: [{ label, status: 'not-run' }], message: 'Choose a field first.' };
  const verdict = await verify({ handler: ex.handler, spec: ex.spec, variant: ex.impl, strict: ex.strict });
  if (verdict.status !== 'refuted') {
    return { passed: false, checks: [{ label, status: 'failed', verdict }], message: `The verifier did not refute this spec (${verdict.status}); nothing to read.`, verdict };
  }
  const ok = verdict.failed.includes(answer);
  return {
    passed: ok,
    checks: [{ label, status: ok ? 'passed' : 'failed', verdict }],
    message: ok ? `Right: the verifier blames ${answer}.` : `Not ${answer}: look again at the highlighted rows of the counterexample.`,
    verdict,
  };
}

export function gradeExercise(ex: Exercise, answer: string, verify: VerifyFn): Promise<ExerciseGrade> {
  return ex.kind === 'spec' ? gradeSpec(ex, answer, verify) : gradeField(ex, answer, verify);
}

/** The answer a learner starts from. */
export function starterOf(ex: Exercise): string {
  return ex.kind === 'spec' ? ex.starter : '';
}

/** Every variant an exercise's checks need (to load their implementations). */
export function variantsOf(ex: Exercise): string[] {
  const out = ex.kind === 'spec' ? [ex.verifyOn, ...(ex.refuteOn ?? [])] : [ex.impl];
  return out.filter((v): v is string => !!v);
}
