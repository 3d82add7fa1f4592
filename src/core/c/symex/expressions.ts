/**
 * Expressions: the value of each C expression on the current path, as a
 * term or a pointer. Short-circuit operators and `?:` fork the path and join
 * it again; arithmetic is arith.ts, object access is lvalues.ts (the layer
 * below), calls are calls.ts (the layer above, reached through `call`).
 */
import * as o from '../../smt/ops.ts';
import { Term, bvConst, fresh, isFalse, isTrue } from '../../smt/term.ts';
import type { Expr } from '../ast.ts';
import { CError, badPointer, internal, notLvalue, structValue } from '../errors.ts';
import type { Val } from '../hooks.ts';
import { NULL_PTR, globalPtr, ptrEquals, ptrNonNull, ptrOrder } from '../memory.ts';
import { printExpr } from '../print.ts';
import { type CType, type IntType, boolToInt, convertInt, promote, sizeOf, truthOf, typeName, usualArithmetic } from '../types.ts';
import { type SafetyCheck, arith, compare, convertValue } from './arith.ts';
import { Lvalues } from './lvalues.ts';
import { mergeVal } from './path-join.ts';
import { PathDied, type State, isTerm } from './state.ts';

export abstract class Expressions extends Lvalues {
  /** A controlling expression as a Bool, simplified by what the path knows. */
  protected cond(st: State, e: Expr): Term {
    const v = this.rvalue(st, e);
    return this.facts.simplify(st, isTerm(v) ? truthOf(v) : ptrNonNull(v));
  }

  /** The value of an expression that must have one. */
  protected override rvalue(st: State, e: Expr): Val {
    const v = this.eval(st, e);
    if (v === undefined) throw new CError(internal(e.span, 'a void expression used as a value'));
    return v;
  }

  protected eval(st: State, e: Expr): Val | undefined {
    this.tick(e.span);
    this.enter(e.span);
    try {
      return this.evalInner(st, e);
    } finally {
      this.depth--;
    }
  }

  private evalInner(st: State, e: Expr): Val | undefined {
    const t = this.sema.typeOf(e);
    if (t.kind === 'array' && e.kind !== 'string') return this.decayPtr(st, e);
    if (t.kind === 'struct') throw new CError(structValue(e.span, typeName(t)));
    switch (e.kind) {
      case 'int':
      case 'char':
        return bvConst(e.value, (t as IntType).width);
      case 'string':
        return { kind: 'str', value: e.value };
      case 'ident': {
        const b = this.sema.bindings.get(e)!;
        switch (b.kind) {
          case 'local': {
            const v = st.locals.get(b.id);
            if (v !== undefined) return v;
            const u = b.type.kind === 'int' ? fresh(`undef:${b.name}`, b.type.width) : NULL_PTR;
            st.locals.set(b.id, u);
            return u;
          }
          case 'enum':
            return bvConst(b.value, b.type.width);
          case 'global':
            return this.load(st, { kind: 'mem', ptr: globalPtr(b.name, b.type) }, t, e);
          case 'function':
            throw new CError(badPointer(e.span, `the function '${b.name}' used as a value`));
        }
        break;
      }
      case 'paren':
        return this.eval(st, e.inner);
      case 'unary': {
        const v = this.rvalue(st, e.operand);
        if (e.op === '!') return boolToInt(o.not(isTerm(v) ? truthOf(v) : ptrNonNull(v)), 32);
        const ot = this.typeOf(e.operand) as IntType;
        const x = convertInt(v as Term, ot, t as IntType);
        return e.op === '-' ? o.neg(x) : e.op === '~' ? o.bvnot(x) : x;
      }
      case 'addr': {
        const loc = this.lvalue(st, e.operand);
        if (loc.kind !== 'mem') throw new CError(notLvalue(e.span, "'&'"));
        return loc.ptr;
      }
      case 'deref':
      case 'member':
      case 'index':
        return this.load(st, this.lvalue(st, e), t, e);
      case 'incdec': {
        const loc = this.lvalue(st, e.operand);
        const ty = t as IntType;
        const old = this.load(st, loc, ty, e.operand) as Term;
        const pt = promote(ty);
        const x = convertInt(old, ty, pt);
        const one = bvConst(1n, pt.width);
        const nv = convertInt(e.op === '++' ? o.add(x, one) : o.sub(x, one), pt, ty);
        this.store(st, loc, nv, ty, e.operand);
        return e.prefix ? nv : old;
      }
      case 'binary':
        return this.binary(st, e);
      case 'logical':
        return this.logical(st, e);
      case 'assign': {
        const loc = this.lvalue(st, e.target);
        const tt = t;
        let nv: Val;
        if (e.op === '=') {
          nv = convertValue(this.rvalue(st, e.value), this.typeOf(e.value), tt, e.value.span);
        } else {
          const old = this.load(st, loc, tt, e.target) as Term;
          const rhs = this.rvalue(st, e.value) as Term;
          const op = e.op.slice(0, -1);
          const r = arith(this.checker(st), op, old, tt as IntType, rhs, this.typeOf(e.value) as IntType, e, e.value);
          nv = convertInt(r.value, r.type, tt as IntType);
        }
        this.store(st, loc, nv, tt, e.target);
        return nv;
      }
      case 'cond':
        return this.ternary(st, e, t);
      case 'cast': {
        const v = this.eval(st, e.operand);
        if (t.kind === 'void') return undefined;
        return convertValue(v!, this.typeOf(e.operand), t, e.span);
      }
      case 'sizeof-type':
        return bvConst(BigInt(sizeOf(this.sema.typeNames.get(e.type)!)!), 64);
      case 'sizeof-expr':
        return bvConst(BigInt(sizeOf(this.sema.typeOf(e.operand))!), 64);
      case 'call':
        return this.call(st, e);
    }
    const never: never = e;
    throw new CError(internal((never as Expr).span, 'an unknown expression'));
  }

  private binary(st: State, e: Extract<Expr, { kind: 'binary' }>): Val {
    const a = this.rvalue(st, e.left);
    const b = this.rvalue(st, e.right);
    const at = this.typeOf(e.left);
    const bt = this.typeOf(e.right);
    const op = e.op;
    if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
      let c: Term;
      if (isTerm(a) && isTerm(b)) {
        const ct = usualArithmetic(at as IntType, bt as IntType);
        const x = convertInt(a, at as IntType, ct);
        const y = convertInt(b, bt as IntType, ct);
        c = compare(op, x, y, ct.signed);
      } else {
        const pa = isTerm(a) ? NULL_PTR : a;
        const pb = isTerm(b) ? NULL_PTR : b;
        if (op === '==' || op === '!=') {
          const eqv = ptrEquals(pa, pb);
          c = op === '==' ? eqv : o.not(eqv);
        } else {
          const order = ptrOrder(pa, pb, (x, y) => compare(op, x, y, false));
          if (!(order instanceof Term)) {
            const [x, y] = order.apart;
            throw new CError(badPointer(e.span, `${printExpr(e)} orders pointers into different objects (${x} and ${y}), which C leaves undefined`));
          }
          c = order;
        }
      }
      return boolToInt(c, 32);
    }
    return arith(this.checker(st), op, a as Term, at as IntType, b as Term, bt as IntType, e, e.right).value;
  }

  private logical(st: State, e: Extract<Expr, { kind: 'logical' }>): Val {
    const a = this.cond(st, e.left);
    const and = e.op === '&&';
    if (isFalse(a) && and) return bvConst(0n, 32);
    if (isTrue(a) && !and) return bvConst(1n, 32);
    if (isTrue(a) || isFalse(a)) return boolToInt(this.cond(st, e.right), 32);
    // The right operand runs only where the left one does not decide.
    const go = and ? a : o.not(a);
    const r = this.fork(st, go);
    const b = this.inFork(r, () => this.cond(r, e.right));
    const rest: State = { pc: o.and(st.pc, o.not(go)), asm: st.asm, mem: st.mem, locals: st.locals, dead: false };
    this.join(st, go, r, rest, e.span);
    if (r.dead || b === undefined) return bvConst(and ? 0n : 1n, 32);
    return boolToInt(and ? o.and(a, b) : o.or(a, b), 32);
  }

  private ternary(st: State, e: Extract<Expr, { kind: 'cond' }>, t: CType): Val | undefined {
    const c = this.cond(st, e.test);
    const branch = (s: State, x: Expr): Val | undefined => {
      const v = this.eval(s, x);
      return t.kind === 'void' || v === undefined ? undefined : convertValue(v, this.typeOf(x), t, x.span);
    };
    if (isTrue(c)) return branch(st, e.then);
    if (isFalse(c)) return branch(st, e.else);
    const th = this.fork(st, c);
    const el = this.fork(st, o.not(c));
    const vt = this.inFork(th, () => branch(th, e.then));
    const ve = this.inFork(el, () => branch(el, e.else));
    this.join(st, c, th, el, e.span);
    if (st.dead) throw new PathDied();
    if (t.kind === 'void') return undefined;
    if (th.dead) return ve;
    if (el.dead) return vt;
    return mergeVal(c, vt!, ve!);
  }

  /** `check` on path `st`, for the arithmetic (arith.ts). */
  private checker(st: State): SafetyCheck {
    return (kind, cond, span, message) => this.check(st, kind, cond, span, message);
  }
}
