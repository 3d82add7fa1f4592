/**
 * The executor's state: the current path (condition, passed safety
 * conditions, memory, locals), the paths stashed where control leaves
 * (return, break, continue), and the frames of inlined calls. Every part of
 * the executor (symex/*.ts) reads and writes these; they live apart so that
 * none of those parts has to import another to name them.
 */
import { Term } from '../../smt/term.ts';
import type { FunctionInfo, LocalVar } from '../check/sema.ts';
import type { Val } from '../hooks.ts';
import type { CMemory, Ptr } from '../memory.ts';

/** Thrown when the current path ends inside an expression (every path of a call panicked). */
export class PathDied {}

export interface State {
  pc: Term;
  /** Safety conditions already passed on this path (assumed from now on). */
  asm: Term;
  mem: CMemory;
  locals: Map<number, Val>;
  dead: boolean;
}

/** A stashed path: where control left (return, break, continue) and with what. */
export interface Exit {
  readonly pc: Term;
  readonly asm: Term;
  readonly mem: CMemory;
  readonly locals?: Map<number, Val>;
  readonly value?: Val;
}

export interface LoopCtx {
  readonly breaks: Exit[];
  continues: Exit[];
}

export interface Frame {
  readonly fn: FunctionInfo;
  readonly returns: Exit[];
  readonly loops: LoopCtx[];
}

export type Loc = { readonly kind: 'local'; readonly v: LocalVar } | { readonly kind: 'mem'; readonly ptr: Ptr };

export function isTerm(v: Val | undefined): v is Term {
  return v instanceof Term;
}
