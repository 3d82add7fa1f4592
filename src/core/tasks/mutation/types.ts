/**
 * What a mutation is: a named operator's text edits to one kernel function,
 * with the class of bug it plants.
 */
import type { CProgram } from '../../c/index.ts';
import type { SourceIndex } from '../c-source.ts';
import type { BugClass } from '../task.ts';

/** Replace [offset, end) of the file text with `text`. */
export interface TextEdit {
  readonly offset: number;
  readonly end: number;
  readonly text: string;
}

/** The operators, in the order they are tried at each syntax node (`operators.ts` defines each). */
export type OperatorName =
  | 'drop-check' | 'invert-check' | 'drop-guard'
  | 'drop-release' | 'drop-decrement' | 'drop-increment' | 'flip-counter' | 'drop-clear' | 'flip-bit-clear'
  | 'current-to-target' | 'wrong-table' | 'target-to-current' | 'swap-argument'
  | 'off-by-one-bound' | 'loosen-lower-bound' | 'shrink-divisor' | 'index-plus-one'
  | 'wrong-field';

export interface Mutation {
  /** Stable and unique per kernel: `<function>/<operator>@<line>:<column>[/<alternative>]`. */
  readonly id: string;
  readonly operator: OperatorName;
  readonly bugClass: BugClass;
  readonly function: string;
  readonly file: string;
  /** Edits in the file's text, not overlapping, in any order. */
  readonly edits: readonly TextEdit[];
  /** One line saying what changed. */
  readonly description: string;
}

/** What the operators read: the linked kernel and its source index. */
export interface MutationContext {
  readonly program: CProgram;
  readonly index: SourceIndex;
}
