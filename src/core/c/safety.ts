/**
 * What the symbolic executor must prove of an implementation besides its
 * result: no failed assert or panic, no out-of-bounds access, no division by
 * zero or signed division that overflows (INT_MIN / -1), no oversized shift. Both the executor and the hook models raise
 * these, so the type sits below both.
 */
import type { Term } from '../smt/term.ts';
import type { CSpan } from './ast.ts';

export type SafetyKind = 'assert' | 'panic' | 'bounds' | 'div-zero' | 'div-overflow' | 'shift';

/** A condition the implementation must satisfy; `ok` is (path condition => check). */
export interface SafetyCondition {
  readonly kind: SafetyKind;
  readonly ok: Term;
  readonly span: CSpan;
  readonly file: string;
  readonly message: string;
}
