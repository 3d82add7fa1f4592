/**
 * Statements: blocks, declarations, `if` (both branches under their
 * conditions, joined), `return`, `break` and `continue` (the path is stashed
 * and merged where control meets again, path-join.ts), and `for` loops, which
 * must have a constant trip count and are unrolled. The layer over
 * expressions.ts.
 */
import * as o from '../../smt/ops.ts';
import { type Term, fresh, isFalse, isTrue } from '../../smt/term.ts';
import type { Block, Stmt } from '../ast.ts';
import { CError, internal, loopBound, loopLimit } from '../errors.ts';
import type { Val } from '../hooks.ts';
import { NULL_PTR } from '../memory.ts';
import { convertValue } from './arith.ts';
import { Expressions } from './expressions.ts';
import { mergeExits } from './path-join.ts';
import { type LoopCtx, PathDied, type State } from './state.ts';

// Below the step limit, so that an endless loop gets the message that says so.
const MAX_LOOP_ITERATIONS = 20_000;

export abstract class Statements extends Expressions {
  protected block(st: State, b: Block): void {
    for (const s of b.items) {
      if (st.dead) return;
      this.stmt(st, s);
    }
  }

  protected stmt(st: State, s: Stmt): void {
    this.tick(s.span);
    this.enter(s.span);
    try {
      this.stmtInner(st, s);
    } catch (e) {
      if (e instanceof PathDied) st.dead = true;
      else throw e;
    } finally {
      this.depth--;
    }
  }

  private stmtInner(st: State, s: Stmt): void {
    switch (s.kind) {
      case 'block':
        return this.block(st, s);
      case 'expr':
        this.eval(st, s.expr);
        return;
      case 'empty':
        return;
      case 'declaration':
        for (const d of s.declarators) {
          const v = this.sema.locals.get(d);
          if (!v) continue;
          let value: Val;
          if (d.init) value = convertValue(this.rvalue(st, d.init), this.typeOf(d.init), v.type, d.init.span);
          else value = v.type.kind === 'int' ? fresh(`undef:${v.name}`, v.type.width) : NULL_PTR;
          this.bounded(value, d.span);
          st.locals.set(v.id, value);
        }
        return;
      case 'if': {
        const c = this.cond(st, s.test);
        if (isTrue(c)) return this.stmt(st, s.then);
        if (isFalse(c)) {
          if (s.else) this.stmt(st, s.else);
          return;
        }
        const t = this.fork(st, c);
        const e = this.fork(st, o.not(c));
        this.stmt(t, s.then);
        if (s.else) this.stmt(e, s.else);
        this.join(st, c, t, e, s.span);
        return;
      }
      case 'return': {
        const fn = this.frame().fn;
        let value: Val | undefined;
        if (s.value) {
          const v = this.rvalue(st, s.value);
          if (fn.type.ret.kind !== 'void') value = convertValue(v, this.typeOf(s.value), fn.type.ret, s.value.span);
        }
        this.exit(s.span);
        this.frame().returns.push({ pc: st.pc, asm: st.asm, mem: st.mem, value });
        this.returns++;
        st.dead = true;
        return;
      }
      case 'break': {
        const loop = this.frame().loops[this.frame().loops.length - 1];
        this.exit(s.span);
        loop.breaks.push({ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals });
        this.breaks++;
        st.dead = true;
        return;
      }
      case 'continue': {
        const loop = this.frame().loops[this.frame().loops.length - 1];
        this.exit(s.span);
        loop.continues.push({ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals });
        st.dead = true;
        return;
      }
      case 'for':
        return this.forLoop(st, s);
      default: {
        const never: never = s;
        throw new CError(internal((never as Stmt).span, 'an unknown statement'));
      }
    }
  }

  private forLoop(st: State, s: Extract<Stmt, { kind: 'for' }>): void {
    if (s.init) this.stmt(st, s.init);
    if (st.dead) return;
    const loop: LoopCtx = { breaks: [], continues: [] };
    const frame = this.frame();
    frame.loops.push(loop);
    const entryPc = st.pc;
    const returns0 = this.returns;
    const deaths0 = this.deaths;
    try {
      for (let iter = 0; ; iter++) {
        if (iter > MAX_LOOP_ITERATIONS) throw new CError(loopLimit(s.span, MAX_LOOP_ITERATIONS));
        if (s.test) {
          let c: Term;
          try {
            c = this.cond(st, s.test);
          } catch (e) {
            if (!(e instanceof PathDied)) throw e;
            st.dead = true;
            break;
          }
          if (isFalse(c)) break;
          if (!isTrue(c)) throw new CError(loopBound(s.test.span));
        }
        const bodyPc = st.pc;
        const before = { returns: this.returns, deaths: this.deaths, breaks: this.breaks };
        loop.continues = [];
        this.stmt(st, s.body);
        if (loop.continues.length) {
          const exits = [...loop.continues, ...(st.dead ? [] : [{ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals }])];
          const m = mergeExits(exits, bodyPc);
          this.boundedState(m, s.span);
          const untouched = this.returns === before.returns && this.deaths === before.deaths && this.breaks === before.breaks;
          st.pc = untouched ? bodyPc : m.pc;
          st.asm = m.asm;
          st.mem = m.mem;
          st.locals = m.locals!;
          st.dead = false;
        }
        if (st.dead) break;
        if (s.step) {
          this.tick(s.step.span);
          try {
            this.eval(st, s.step);
          } catch (e) {
            if (!(e instanceof PathDied)) throw e;
            st.dead = true;
            break;
          }
        }
      }
    } finally {
      frame.loops.pop();
    }
    const exits = [...loop.breaks, ...(st.dead ? [] : [{ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals }])];
    if (exits.length === 0) {
      st.dead = true;
      return;
    }
    const m = mergeExits(exits, entryPc);
    this.boundedState(m, s.span);
    st.pc = this.returns === returns0 && this.deaths === deaths0 ? entryPc : m.pc;
    st.asm = m.asm;
    st.mem = m.mem;
    st.locals = m.locals!;
    st.dead = false;
  }
}
