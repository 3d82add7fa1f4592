/**
 * What grading one model answer produces (docs/design.md §4).
 */
import type { Diagnostic } from '../../diagnostic.ts';
import type { Task } from '../../tasks/task.ts';
import type { Verdict, VerdictStatus } from '../../verify/verdict.ts';

/**
 * `pass`, `syntax`, `semantic` and `timeout` are the model's; `unknown` (the
 * solver could not decide) is a failure too but kept apart from `timeout`;
 * `internal` (the grader itself failed: an engine crash, a counterexample
 * that does not replay) is never charged to the model.
 */
export type GradeCategory = 'pass' | 'syntax' | 'semantic' | 'timeout' | 'unknown' | 'internal';

/** Categories that say something about the model (everything but `internal`). */
export const MODEL_CATEGORIES = ['pass', 'syntax', 'semantic', 'timeout', 'unknown'] as const;

/** OSVBench's three categories: timeouts and undecided proofs count as semantic failures, as upstream does. */
export type OsvbenchCategory = 'pass' | 'syntax' | 'semantic';

/** How OSVBench would file a grade; undefined for `internal` (upstream has no such category). */
export function osvbenchCategory(c: GradeCategory): OsvbenchCategory | undefined {
  switch (c) {
    case 'pass':
    case 'syntax':
    case 'semantic':
      return c;
    case 'timeout':
    case 'unknown':
      return 'semantic';
    case 'internal':
      return undefined;
  }
}

export interface GradeResult {
  readonly category: GradeCategory;
  /** The spec text extracted from the answer, or null when no code was found. */
  readonly extracted: string | null;
  /** Verdict of refinement against the correct implementation (absent when nothing was extracted). */
  readonly verdict?: Verdict;
  /** pass, and the declarative checks (invariants and lemmas) hold. */
  readonly strict?: boolean;
  /** On a buggy variant: the answer refines the buggy implementation shown. */
  readonly bugFollowing?: boolean;
  /** The answer's verdict against every implementation variant of the handler, by task id. */
  readonly matrix?: Readonly<Record<string, VerdictStatus>>;
  /** The verifier's diagnosis in words (error with its line, or the counterexample), for repair prompts. */
  readonly diagnosis: string;
  /** For `internal`: what failed inside the grader. */
  readonly internalError?: string;
  /** The spec's warnings (SPEC2xx): where upstream evaluates what a stricter check would refuse; never change the category. */
  readonly warnings?: readonly Diagnostic[];
  readonly ms: number;
}

/**
 * The time limit of each verification a grade runs unless told otherwise
 * (ms), in the CLI and the browser alike. It is a wall-clock budget for the
 * whole check (refinement, then strict with what is left), so it leaves room
 * for the slowest handler on a loaded machine (clone_proc: about 5 s idle,
 * 30 s at a load average of 20).
 */
export const DEFAULT_GRADE_TIMEOUT_MS = 60_000;

/**
 * How one spec is graded: the one options type from a run's grade closure
 * (core/eval/session/grading.ts) through the pool to the worker that grades
 * it (core/service/serve.ts) and `gradeSpec` there.
 */
export interface GradeOptions {
  /** The wall-clock budget of the whole check (ms; default `DEFAULT_GRADE_TIMEOUT_MS` where a run sets none). */
  readonly timeoutMs?: number;
  /** Every variant of the task's handler, for the variant matrix. */
  readonly variants?: readonly Task[];
  /** Run the declarative checks on passing answers (the `strict` grade). */
  readonly strict?: boolean;
  /** Verify against these function definitions instead of the correct kernel (the agent's verify tool). */
  readonly implSource?: string;
}

/** What a run records about how its answers were graded. */
export interface GradingSettings {
  /** The verifier's time limit (ms). */
  readonly timeoutMs: number;
  /** Whether the declarative checks (`strict`) ran on passing answers. */
  readonly strict: boolean;
  /** Whether every answer was also verified against all five variants of its handler (absent: no). */
  readonly matrix?: boolean;
}

/** The grade of a spec (`extracted`, as read from the answer) the grader failed on (a crash, a thrown error): `internal`, never the model's fault. */
export function internalGrade(extracted: string | null, message: string, ms = 0): GradeResult {
  return {
    category: 'internal',
    extracted,
    diagnosis: `The grader failed on this answer (an internal error, not the answer's fault): ${message}`,
    internalError: message,
    ms,
  };
}

