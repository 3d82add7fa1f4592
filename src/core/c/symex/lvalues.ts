/**
 * Lvalues and memory access: where an expression designates an object (a
 * local, or a pointer into the functional memory, memory.ts), array decay
 * and indexing with their bounds conditions, and loads and stores with their
 * null-pointer conditions. The executor's second layer, over core.ts.
 */
import * as o from '../../smt/ops.ts';
import { type Term, bvConst, fresh } from '../../smt/term.ts';
import type { Expr } from '../ast.ts';
import { CError, badPointer, internal, notLvalue, stringDeref, structValue, termTooLarge } from '../errors.ts';
import type { Val } from '../hooks.ts';
import { MAX_TERM_DEPTH, mapDepth } from '../limits.ts';
import {
  NULL_PTR, type ObjPtr, type Ptr, type Step, accessibleAs, globalPtr, leafKey, mapPtr, ptrCases, readScalar, writeScalar,
} from '../memory.ts';
import { printExpr } from '../print.ts';
import { type CType, type IntType, decay, findMember, resizeTerm, sizeOf, typeName } from '../types.ts';
import { ExecCore } from './core.ts';
import { type Loc, type State, isTerm } from './state.ts';
import { upperBound } from './upper-bound.ts';

export abstract class Lvalues extends ExecCore {
  /** An array-typed expression as a pointer to its first element. */
  protected decayPtr(st: State, e: Expr): Ptr {
    const loc = this.lvalue(st, e);
    if (loc.kind !== 'mem') throw new CError(internal(e.span, 'a local array'));
    return mapPtr(loc.ptr, (q) => {
      if (q.kind !== 'obj' || q.type.kind !== 'array') return q;
      const arr = q.type;
      const step: Step = { kind: 'index', index: bvConst(0n, 64), length: arr.length, elemSize: sizeOf(arr.of)! };
      return { kind: 'obj', base: q.base, steps: [...q.steps, step], type: arr.of };
    });
  }

  protected lvalue(st: State, e: Expr): Loc {
    switch (e.kind) {
      case 'paren':
        return this.lvalue(st, e.inner);
      case 'ident': {
        const b = this.sema.bindings.get(e)!;
        if (b.kind === 'local') return { kind: 'local', v: b };
        if (b.kind === 'global') return { kind: 'mem', ptr: globalPtr(b.name, b.type) };
        break;
      }
      case 'deref':
        return { kind: 'mem', ptr: this.pointer(st, e.operand) };
      case 'member': {
        let base: Ptr;
        if (e.arrow) base = this.pointer(st, e.object);
        else {
          const l = this.lvalue(st, e.object);
          if (l.kind !== 'mem') throw new CError(notLvalue(e.span, "'.'"));
          base = l.ptr;
        }
        const st0 = this.sema.typeOf(e.object);
        const structT = (e.arrow ? (decay(st0) as { to: CType }).to : st0) as Extract<CType, { kind: 'struct' }>;
        const path = findMember(structT, e.name)!;
        return {
          kind: 'mem',
          ptr: mapPtr(base, (q) => {
            if (q.kind !== 'obj') return q;
            if (!accessibleAs(q.type, structT)) {
              throw new CError(badPointer(e.span, `access to ${typeName(structT)} through a pointer to ${typeName(q.type)}`));
            }
            const steps: Step[] = [...q.steps, ...path.map((m): Step => ({ kind: 'field', member: m }))];
            return { kind: 'obj', base: q.base, steps, type: path[path.length - 1].type };
          }),
        };
      }
      case 'index': {
        const ot = this.sema.typeOf(e.object);
        const iv = this.rvalue(st, e.index) as Term;
        const it = this.typeOf(e.index) as IntType;
        const i64 = resizeTerm(iv, 64, it.signed);
        if (ot.kind === 'array') {
          const l = this.lvalue(st, e.object);
          if (l.kind !== 'mem') throw new CError(internal(e.span, 'a local array'));
          return { kind: 'mem', ptr: this.indexArray(st, l.ptr, i64, e) };
        }
        return { kind: 'mem', ptr: this.indexPointer(st, this.pointer(st, e.object), i64, e) };
      }
    }
    throw new CError(notLvalue(e.span, 'this use'));
  }

  private pointer(st: State, e: Expr): Ptr {
    const v = this.rvalue(st, e);
    if (isTerm(v)) throw new CError(badPointer(e.span, 'an integer used as a pointer'));
    return v;
  }

  private boundsMessage(e: Extract<Expr, { kind: 'index' }>, n: number): string {
    return `index ${printExpr(e.index)} out of bounds of ${printExpr(e.object)}[${n}]`;
  }

  /** `a[i]` where `a` designates a whole array. */
  private indexArray(st: State, p: Ptr, i: Term, e: Extract<Expr, { kind: 'index' }>): Ptr {
    const cases = ptrCases(p);
    return mapPtr(p, (q) => {
      if (q.kind !== 'obj') return q;
      if (q.type.kind !== 'array') throw new CError(badPointer(e.span, `indexing ${typeName(q.type)}`));
      const arr = q.type;
      const guard = cases.find((c) => c.ptr === q)?.guard ?? o.TRUE;
      if (upperBound(i) >= BigInt(arr.length)) {
        this.check(st, 'bounds', o.implies(guard, o.ult(i, bvConst(BigInt(arr.length), 64))), e.span, this.boundsMessage(e, arr.length));
      }
      const step: Step = { kind: 'index', index: i, length: arr.length, elemSize: sizeOf(arr.of)! };
      return { kind: 'obj', base: q.base, steps: [...q.steps, step], type: arr.of };
    });
  }

  /** `p[i]` for a pointer: moves the last index of the path by `i`. */
  private indexPointer(st: State, p: Ptr, i: Term, e: Extract<Expr, { kind: 'index' }>): Ptr {
    const cases = ptrCases(p);
    const want = this.sema.typeOf(e);
    return mapPtr(p, (q) => {
      const guard = cases.find((c) => c.ptr === q)?.guard ?? o.TRUE;
      if (q.kind === 'null') {
        this.check(st, 'bounds', o.not(guard), e.span, `${printExpr(e.object)} may be a null pointer`);
        return q;
      }
      if (q.kind === 'str') throw new CError(stringDeref(e.span));
      if (!accessibleAs(q.type, want)) throw new CError(badPointer(e.span, `access to ${typeName(want)} through a pointer to ${typeName(q.type)}`));
      const last = q.steps[q.steps.length - 1];
      if (last?.kind !== 'index') {
        if (i.op === 'const' && i.value === 0n) return q;
        throw new CError(badPointer(e.span, `${printExpr(e.object)} does not point into an array, so it cannot be indexed`));
      }
      const k = o.add(last.index, i);
      if (upperBound(k) >= BigInt(last.length)) {
        this.check(st, 'bounds', o.implies(guard, o.ult(k, bvConst(BigInt(last.length), 64))), e.span, this.boundsMessage(e, last.length));
      }
      return { kind: 'obj', base: q.base, steps: [...q.steps.slice(0, -1), { ...last, index: k }], type: q.type };
    });
  }

  protected load(st: State, loc: Loc, type: CType, e: Expr): Val {
    if (loc.kind === 'local') {
      const v = st.locals.get(loc.v.id);
      if (v !== undefined) return v;
      const u = loc.v.type.kind === 'int' ? fresh(`undef:${loc.v.name}`, loc.v.type.width) : NULL_PTR;
      st.locals.set(loc.v.id, u);
      return u;
    }
    if (type.kind !== 'int') throw new CError(structValue(e.span, typeName(type)));
    const cases = ptrCases(loc.ptr);
    const vals: Term[] = [];
    const guards: Term[] = [];
    for (const c of cases) {
      guards.push(c.guard);
      if (c.ptr.kind === 'obj') {
        if (!accessibleAs(c.ptr.type, type)) {
          throw new CError(badPointer(e.span, `read of ${typeName(type)} through a pointer to ${typeName(c.ptr.type)}`));
        }
        vals.push(readScalar(st.mem, c.ptr));
      } else if (c.ptr.kind === 'null') {
        this.check(st, 'bounds', o.not(c.guard), e.span, `null pointer dereference in ${printExpr(e)}`);
        vals.push(bvConst(0n, type.width));
      } else throw new CError(stringDeref(e.span));
    }
    let v = vals[vals.length - 1];
    for (let k = vals.length - 2; k >= 0; k--) v = o.ite(guards[k], vals[k], v);
    return v;
  }

  protected store(st: State, loc: Loc, v: Val, type: CType, e: Expr): void {
    if (loc.kind === 'local') {
      this.bounded(v, e.span);
      st.locals.set(loc.v.id, v);
      return;
    }
    if (!isTerm(v) || type.kind !== 'int') throw new CError(structValue(e.span, typeName(type)));
    this.bounded(v, e.span);
    for (const c of ptrCases(loc.ptr)) {
      if (c.ptr.kind === 'obj') {
        if (!accessibleAs(c.ptr.type, type)) {
          throw new CError(badPointer(e.span, `write of ${typeName(type)} through a pointer to ${typeName(c.ptr.type)}`));
        }
        st.mem = writeScalar(st.mem, c.ptr as ObjPtr, v, c.guard);
        if (mapDepth(st.mem.get(leafKey(c.ptr))!) > MAX_TERM_DEPTH) throw new CError(termTooLarge(e.span, MAX_TERM_DEPTH));
      } else if (c.ptr.kind === 'null') {
        this.check(st, 'bounds', o.not(c.guard), e.span, `null pointer dereference in ${printExpr(e)}`);
      } else throw new CError(stringDeref(e.span));
    }
  }
}
