/**
 * The executor's core: the bookkeeping every part of it shares. Step, depth
 * and path limits; recording a safety condition (simplified by the path's
 * facts, facts.ts) and assuming it from then on; forking the current path on
 * a condition and joining the two sides again (path-join.ts). The parts that
 * walk the C code extend it, each in its own file, in this order:
 * lvalues.ts, expressions.ts, statements.ts, calls.ts (the `Executor`).
 */
import * as o from '../../smt/ops.ts';
import { Term, isTrue } from '../../smt/term.ts';
import type { Call, CSpan, Expr } from '../ast.ts';
import { CError, execTooDeep, nowhere, stepLimit, termTooLarge, tooManyPaths } from '../errors.ts';
import type { Val } from '../hooks.ts';
import { MAX_EXEC_DEPTH, MAX_PATHS, MAX_TERM_DEPTH, mapDepth, termDepth } from '../limits.ts';
import type { CMemory } from '../memory.ts';
import type { CProgram } from '../program.ts';
import type { SafetyCondition, SafetyKind } from '../safety.ts';
import { type CType, decay } from '../types.ts';
import { PathFacts } from './facts.ts';
import { joinPc, mergeAssumptions, mergeLocals, mergeMem } from './path-join.ts';
import { type Frame, PathDied, type State } from './state.ts';

export abstract class ExecCore {
  readonly safety: SafetyCondition[] = [];
  steps = 0;
  /** The statement or expression being executed (for internal errors). */
  at: CSpan;
  protected readonly frames: Frame[] = [];
  protected deaths = 0;
  protected returns = 0;
  protected breaks = 0;
  /** Paths stashed by return, break and continue (bounded by MAX_PATHS). */
  private exits = 0;
  /** Statements and expressions being executed (bounded by MAX_EXEC_DEPTH). */
  protected depth = 0;
  protected readonly facts = new PathFacts();

  // The recursion between the parts: an lvalue reads an rvalue (lvalues.ts
  // -> expressions.ts), an expression makes a call (expressions.ts ->
  // calls.ts). Declared here so that each file imports only the one below.
  protected abstract rvalue(st: State, e: Expr): Val;
  protected abstract call(st: State, e: Call): Val | undefined;

  constructor(
    private readonly program: CProgram,
    private readonly maxSteps: number,
  ) {
    this.at = nowhere(program.units[0]?.file ?? '<program>');
  }

  protected get sema() {
    return this.program.sema;
  }

  protected tick(span: CSpan): void {
    this.at = span;
    if (++this.steps > this.maxSteps) throw new CError(stepLimit(span, this.maxSteps));
  }

  protected frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  protected enter(span: CSpan): void {
    if (++this.depth > MAX_EXEC_DEPTH) throw new CError(execTooDeep(span, MAX_EXEC_DEPTH));
  }

  /** Stashes one more path; refuses more than MAX_PATHS. */
  protected exit(span: CSpan): void {
    if (++this.exits > MAX_PATHS) throw new CError(tooManyPaths(span, MAX_PATHS));
  }

  /** Refuses a value too deep for the term passes that recurse (limits.ts). */
  protected bounded(v: Val | undefined, span: CSpan): void {
    if (v !== undefined && valDepth(v) > MAX_TERM_DEPTH) throw new CError(termTooLarge(span, MAX_TERM_DEPTH));
  }

  /** Refuses a memory whose reads would build terms too deep, and a path condition or assumption too deep. */
  protected boundedState(st: { pc: Term; asm: Term; mem: CMemory; locals?: Map<number, Val> }, span: CSpan): void {
    for (const f of st.mem.values()) if (mapDepth(f) > MAX_TERM_DEPTH) throw new CError(termTooLarge(span, MAX_TERM_DEPTH));
    this.bounded(st.pc, span);
    this.bounded(st.asm, span);
    if (st.locals) for (const v of st.locals.values()) this.bounded(v, span);
  }

  /** Records a safety condition on the current path and assumes it from now on. */
  protected check(st: State, kind: SafetyKind, cond: Term, span: CSpan, message: string): void {
    cond = this.facts.simplify(st, cond);
    if (isTrue(cond)) return;
    const ok = o.implies(o.and(st.pc, st.asm), cond);
    if (!isTrue(ok)) this.safety.push({ kind, ok, span, file: span.file, message });
    st.asm = o.and(st.asm, cond);
  }

  protected die(st: State): never {
    this.deaths++;
    st.dead = true;
    throw new PathDied();
  }

  protected fork(st: State, c: Term): State {
    return { pc: o.and(st.pc, c), asm: st.asm, mem: st.mem, locals: new Map(st.locals), dead: false };
  }

  /** Runs `f` on a forked state; a path that ends inside it leaves the state dead. */
  protected inFork<T>(s: State, f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      if (e instanceof PathDied) {
        s.dead = true;
        return undefined;
      }
      throw e;
    }
  }

  /** Joins the two sides of a branch on `c` (at `span`) back into `st`. */
  protected join(st: State, c: Term, t: State, e: State, span: CSpan): void {
    if (t.dead && e.dead) {
      st.dead = true;
      return;
    }
    const from = t.dead ? e : e.dead ? t : undefined;
    if (from) {
      st.pc = from.pc;
      st.asm = from.asm;
      st.mem = from.mem;
      st.locals = from.locals;
      return;
    }
    st.mem = mergeMem(c, t.mem, e.mem);
    st.locals = mergeLocals(c, t.locals, e.locals);
    st.asm = mergeAssumptions([c], [t.asm, e.asm]);
    st.pc = joinPc([t.pc, e.pc], st.pc);
    this.boundedState(st, span);
  }

  protected typeOf(e: Expr): CType {
    return decay(this.sema.typeOf(e));
  }
}

/** The depth of a value: a term's, or a pointer's (its branching and its indices). */
function valDepth(v: Val): number {
  if (v instanceof Term) return termDepth(v);
  switch (v.kind) {
    case 'null':
    case 'str':
      return 1;
    case 'obj': {
      let m = 0;
      for (const s of v.steps) if (s.kind === 'index') m = Math.max(m, termDepth(s.index));
      return m + 1;
    }
    case 'ite':
      // Bounded: a pointer is checked each time it is stored or merged.
      return 1 + Math.max(termDepth(v.cond), valDepth(v.then), valDepth(v.else));
  }
}
