/**
 * What a verification returns. Outcomes are tagged unions; `unknown` is never
 * folded into `timeout`. Everything here is plain JSON-serialisable data (values
 * are strings), so it crosses worker boundaries and goes into storage as is.
 */
import type { Diagnostic } from '../diagnostic.ts';

/** One proof obligation and how it fared. */
export interface ObligationResult {
  /**
   * "cond" (cond == (ret == 0)), a field path ("procs.state", "current",
   * "procs.nr_fds", "files.refcnt", ...), "safety" (the implementation
   * cannot fail an assert, index out of bounds, divide by zero or shift too
   * far), "impl-invariants" (the implementation re-establishes its
   * representation invariants), or a lemma name for declarative checks.
   */
  readonly name: string;
  readonly status: 'proved' | 'failed' | 'timeout' | 'unknown';
  readonly ms?: number;
  /** Why the solver gave no answer (timeout/unknown), or why a model was not trusted. */
  readonly reason?: string;
}

/** One value, rendered for people: hex for bit-vectors wider than 8 bits, else decimal; True/False. */
export type Shown = string;

export interface CexArg {
  readonly name: string;
  /** "pid_t", "fd_t (32)", ... */
  readonly sort: string;
  readonly value: Shown;
}

/** One state cell that matters to the failure. */
export interface CexRow {
  /** Field path, e.g. "procs.state". */
  readonly field: string;
  /** Rendered indices, e.g. ["pid=5"] or ["pid=5", "fd=3"]; empty for scalars. */
  readonly index: readonly Shown[];
  readonly old: Shown;
  /** Value in the spec's post-state. */
  readonly spec: Shown;
  /** Value in the implementation's post-state (mapped to the abstract field). */
  readonly impl: Shown;
  /** True when spec and impl disagree here (the cell to highlight). */
  readonly differs: boolean;
}

export interface Counterexample {
  readonly args: readonly CexArg[];
  /**
   * The spec's success condition and the implementation's return value in
   * this state; `null` when the condition has a quantifier, which cannot be
   * evaluated concretely.
   */
  readonly specCond: boolean | null;
  readonly implRet: string;
  readonly rows: readonly CexRow[];
  /** Pre-state facts that matter (e.g. "current = 1"), rendered. */
  readonly context: readonly string[];
  /** Spec source line most involved (1-based), when known. */
  readonly specLine?: number;
  /** The counterexample was re-evaluated concretely and reproduces the failure. */
  readonly replayed: boolean;
  /**
   * Not replayed because a failing check (or an assumption) has a quantifier,
   * which has no concrete evaluation here: the state is the solver's, taken
   * on its word as upstream takes every refutation, and values under the
   * quantifier are shown as `NOT_EVALUATED` (counterexample.ts). Then
   * `replayed` is false, and it is still the answer's failure, not ours.
   */
  readonly quantified?: true;
  /**
   * The state is well formed: enum cells hold members, counts stay within the
   * kernel's limits (verify/counterexample-wellformed.ts). False: no such state
   * fails, so this is the solver's first model as is.
   */
  readonly wellFormed?: boolean;
  /**
   * The globals this state puts where C cannot (a null, misaligned or
   * wrapping address), with those addresses; present only when the search
   * for a failing state that keeps every global where C can found none
   * (counterexample-wellformed.ts). hv6's verifier assumes nothing of a
   * global's address, so the refutation is one there too
   * (docs/c-subset.md, "Where the globals are").
   */
  readonly outsideC?: readonly { readonly global: string; readonly address: Shown }[];
  /** Plain-English summary, used in repair prompts and the CLI. */
  readonly summary: string;
}

/** Carried by every verdict: the spec's warnings (SPEC2xx from the dialect, SPEC031 from a refutation through a quantifier; docs/spec-errors.md); they never change the status. */
export interface VerdictWarnings {
  readonly warnings?: readonly Diagnostic[];
}

export type Verdict = VerdictWarnings & (
  | { readonly status: 'verified'; readonly obligations: readonly ObligationResult[] }
  | {
      readonly status: 'refuted';
      readonly failed: readonly string[];
      readonly obligations: readonly ObligationResult[];
      readonly counterexample?: Counterexample;
      /**
       * How the refutation was found: `run`, a concrete state (the state
       * bank's, or one derived from it) in which the spec and the
       * implementation disagree, before any query (verify/run-refute.ts);
       * `solver`, a model of Z3's. Absent in verdicts stored before it was said.
       */
      readonly foundBy?: 'run' | 'solver';
    }
  | { readonly status: 'spec-error'; readonly error: Diagnostic }
  | { readonly status: 'timeout'; readonly obligations: readonly ObligationResult[] }
  | { readonly status: 'unknown'; readonly reason: string; readonly obligations: readonly ObligationResult[] }
);

export type VerdictStatus = Verdict['status'];
