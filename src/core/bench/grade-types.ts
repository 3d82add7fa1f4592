/**
 * What grading one model answer produces (DESIGN.md "Grading a model's answer").
 */
import type { Diagnostic } from '../span.ts';
import type { Verdict, VerdictStatus } from '../verify/verdict.ts';

export type GradeCategory = 'pass' | 'syntax' | 'semantic' | 'timeout';

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
  /** The spec's warnings (SPEC2xx): where upstream evaluates what a stricter check would refuse; never change the category. */
  readonly warnings?: readonly Diagnostic[];
  readonly ms: number;
}
