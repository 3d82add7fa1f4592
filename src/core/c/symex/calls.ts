/**
 * Calls, the executor's top layer: a call to a function with a body is
 * inlined (its returns merged, path-join.ts), a call to a hook runs its model
 * (hooks.ts); recursion and call depth are refused. `Executor` is the whole
 * executor; `execFunction` (symex.ts) drives it.
 */
import type { CSpan, Call } from '../ast.ts';
import type { FunctionInfo } from '../check/sema.ts';
import { CError, callDepth, fallsOffEnd, recursion, unknownFunction } from '../errors.ts';
import { HOOKS, type HookContext, type HookModel, type Val } from '../hooks.ts';
import { MAX_CALL_DEPTH } from '../limits.ts';
import type { CMemory } from '../memory.ts';
import { typeName } from '../types.ts';
import { convertValue } from './arith.ts';
import { mergeExits } from './path-join.ts';
import { type Frame, PathDied, type State } from './state.ts';
import { Statements } from './statements.ts';

/** The span of the closing brace of a block whose span is `s`. */
function closingBrace(s: CSpan): CSpan {
  return { ...s, line: s.endLine, column: Math.max(1, s.endColumn - 1), offset: Math.max(s.offset, s.endOffset - 1) };
}

export class Executor extends Statements {
  /** Inlines `fn` on `args` (already converted to the parameter types). */
  inline(st: State, fn: FunctionInfo, args: Val[], span: CSpan): { value?: Val; paths: number } {
    if (!fn.body) throw new CError(unknownFunction(span, fn.name));
    if (this.frames.some((f) => f.fn.name === fn.name)) throw new CError(recursion(span, fn.name));
    if (this.frames.length >= MAX_CALL_DEPTH) throw new CError(callDepth(span, fn.name, MAX_CALL_DEPTH));
    const frame: Frame = { fn, returns: [], loops: [] };
    this.frames.push(frame);
    const saved = st.locals;
    st.locals = new Map(fn.params.map((p, i) => [p.id, args[i]]));
    const entryPc = st.pc;
    const deaths = this.deaths;
    try {
      this.block(st, fn.body);
      if (!st.dead) {
        // A path that falls off the end of a function with a value has none: undefined in C, and an
        // error under gcc -Wall -Werror. Merged with the other paths' returns it would read as theirs.
        if (fn.type.ret.kind !== 'void') throw new CError(fallsOffEnd(closingBrace(fn.body.span), fn.name, typeName(fn.type.ret)));
        frame.returns.push({ pc: st.pc, asm: st.asm, mem: st.mem });
      }
    } finally {
      this.frames.pop();
      st.locals = saved;
    }
    if (frame.returns.length === 0) {
      st.dead = true;
      throw new PathDied();
    }
    const m = mergeExits(frame.returns, entryPc);
    this.boundedState(m, span);
    this.bounded(m.value, span);
    st.pc = this.deaths === deaths ? entryPc : m.pc;
    st.asm = m.asm;
    st.mem = m.mem;
    st.dead = false;
    return { value: m.value, paths: frame.returns.length };
  }

  protected override call(st: State, e: Call): Val | undefined {
    const fn = this.sema.callees.get(e)!;
    const ps = fn.type.params;
    const args: Val[] = e.args.map((a, i) => {
      const v = this.rvalue(st, a);
      return i < ps.length ? convertValue(v, this.typeOf(a), ps[i], a.span) : v;
    });
    const model = HOOKS.get(fn.name);
    if (model) {
      const v = this.hook(st, e, fn, args, model);
      this.boundedState(st, e.span);
      this.bounded(v, e.span);
      return v;
    }
    return this.inline(st, fn, args, e.span).value;
  }

  private hook(st: State, call: Call, fn: FunctionInfo, args: Val[], model: HookModel): Val | undefined {
    const ctx: HookContext = {
      call,
      args,
      retType: fn.type.ret,
      get mem() {
        return st.mem;
      },
      set mem(m: CMemory) {
        st.mem = m;
      },
      check: (kind, cond, message) => this.check(st, kind, cond, call.span, message),
      die: () => this.die(st),
      fail: (d) => {
        throw new CError(d);
      },
    };
    return model(ctx);
  }
}
