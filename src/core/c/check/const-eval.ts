/**
 * Constant evaluation: the value of an integer constant expression (array
 * sizes, enumerator values, bit-field widths, alignments, static
 * assertions), computed with C's conversions on exact integers. It runs on
 * an expression the checker has typed already (typing.ts), reading the types
 * from `Sema`; the executor never uses it.
 */
import type { Expr } from '../ast.ts';
import { CError, notConstant } from '../errors.ts';
import { type IntType, promote, sizeOf, usualArithmetic } from '../types.ts';
import type { Sema } from './sema.ts';

/** Reduces `v` to the values of type `t`. */
export function normalize(v: bigint, t: IntType): bigint {
  if (t.bool) return v !== 0n ? 1n : 0n;
  return t.signed ? BigInt.asIntN(t.width, v) : BigInt.asUintN(t.width, v);
}

/** Evaluates `e` (typed, with integer type); `what` names it in the error when it is not constant. */
export function evalConst(sema: Sema, e: Expr, what: string): bigint {
  const t = sema.typeOf(e);
  const norm = (v: bigint) => (t.kind === 'int' ? normalize(v, t) : v);
  switch (e.kind) {
    case 'int':
    case 'char':
      return norm(e.value);
    case 'ident': {
      const b = sema.bindings.get(e);
      if (b?.kind === 'enum') return b.value;
      break;
    }
    case 'paren':
      return evalConst(sema, e.inner, what);
    case 'sizeof-type':
      return BigInt(sizeOf(sema.typeNames.get(e.type)!)!);
    case 'sizeof-expr':
      return BigInt(sizeOf(sema.typeOf(e.operand))!);
    case 'cast':
      if (t.kind === 'int') return norm(evalConst(sema, e.operand, what));
      break;
    case 'unary': {
      const v = evalConst(sema, e.operand, what);
      switch (e.op) {
        case '-': return norm(-v);
        case '+': return norm(v);
        case '~': return norm(~v);
        case '!': return v === 0n ? 1n : 0n;
      }
      break;
    }
    case 'logical': {
      const a = evalConst(sema, e.left, what) !== 0n;
      if (e.op === '&&' ? !a : a) return e.op === '&&' ? 0n : 1n;
      return evalConst(sema, e.right, what) !== 0n ? 1n : 0n;
    }
    case 'cond':
      return norm(evalConst(sema, e.test, what) !== 0n ? evalConst(sema, e.then, what) : evalConst(sema, e.else, what));
    case 'binary': {
      const lt = sema.typeOf(e.left) as IntType;
      const rt = sema.typeOf(e.right) as IntType;
      const a = evalConst(sema, e.left, what);
      const b = evalConst(sema, e.right, what);
      if (e.op === '<<' || e.op === '>>') {
        const pt = promote(lt);
        if (b < 0n || b >= BigInt(pt.width)) throw new CError(notConstant(e.span, `${what} (shift out of range)`));
        return norm(e.op === '<<' ? normalize(a, pt) << b : normalize(a, pt) >> b);
      }
      const ct = usualArithmetic(lt, rt);
      const x = normalize(a, ct);
      const y = normalize(b, ct);
      const bool = (c: boolean) => (c ? 1n : 0n);
      switch (e.op) {
        case '+': return norm(x + y);
        case '-': return norm(x - y);
        case '*': return norm(x * y);
        case '/':
        case '%':
          if (y === 0n) throw new CError(notConstant(e.span, `${what} (division by zero)`));
          return norm(e.op === '/' ? x / y : x % y);
        case '&': return norm(x & y);
        case '|': return norm(x | y);
        case '^': return norm(x ^ y);
        case '<': return bool(x < y);
        case '>': return bool(x > y);
        case '<=': return bool(x <= y);
        case '>=': return bool(x >= y);
        case '==': return bool(x === y);
        case '!=': return bool(x !== y);
      }
    }
  }
  throw new CError(notConstant(e.span, what));
}
