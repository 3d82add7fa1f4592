/**
 * C's integer arithmetic and conversions on terms: the usual arithmetic
 * conversions, promotions, comparisons, and the value conversions of
 * assignment, cast, argument passing and return. Pure functions of terms and
 * types; the one thing they need from the executor, recording a division or
 * shift condition on the current path, comes in as `check`.
 */
import * as o from '../../smt/ops.ts';
import { type Term, bvConst } from '../../smt/term.ts';
import type { CSpan, Expr } from '../ast.ts';
import { CError, badPointer, internal } from '../errors.ts';
import type { Val } from '../hooks.ts';
import { NULL_PTR, address, ptrNonNull } from '../memory.ts';
import { printExpr } from '../print.ts';
import type { SafetyKind } from '../safety.ts';
import { type CType, type IntType, boolToInt, convertInt, eqTerm, promote, resizeTerm, usualArithmetic } from '../types.ts';
import { isTerm } from './state.ts';

/** Records a safety condition at `span` on the current path, and assumes it from then on. */
export type SafetyCheck = (kind: SafetyKind, cond: Term, span: CSpan, message: string) => void;

/** Converts a value between C types (assignment, cast, argument, return). */
export function convertValue(v: Val, from: CType, to: CType, span: CSpan): Val {
  if (to.kind === 'int') {
    if (isTerm(v)) return convertInt(v, from as IntType, to);
    if (to.bool) return boolToInt(ptrNonNull(v), 8);
    return resizeTerm(address(v), to.width, false);
  }
  if (to.kind === 'pointer') {
    if (!isTerm(v)) return v;
    if (v.op === 'const' && v.value === 0n) return NULL_PTR;
    throw new CError(badPointer(span, 'an integer cannot become a pointer'));
  }
  return v;
}

/** Integer arithmetic with C's conversions; records division and shift conditions through `check`. */
export function arith(
  check: SafetyCheck,
  op: string,
  a: Term,
  at: IntType,
  b: Term,
  bt: IntType,
  e: Expr,
  right: Expr,
): { value: Term; type: IntType } {
  if (op === '<<' || op === '>>') {
    const pa = promote(at);
    const pb = promote(bt);
    const x = convertInt(a, at, pa);
    const y = convertInt(b, bt, pb);
    check('shift', o.ult(y, bvConst(BigInt(pa.width), pb.width)), e.span,
      `shift amount ${printExpr(right)} may not be below ${pa.width} in ${printExpr(e)}`);
    const n = resizeTerm(y, pa.width, false);
    const value = op === '<<' ? o.shl(x, n) : pa.signed ? o.ashr(x, n) : o.lshr(x, n);
    return { value, type: pa };
  }
  const ct = usualArithmetic(at, bt);
  const x = convertInt(a, at, ct);
  const y = convertInt(b, bt, ct);
  let value: Term;
  switch (op) {
    case '+': value = o.add(x, y); break;
    case '-': value = o.sub(x, y); break;
    case '*': value = o.mul(x, y); break;
    case '/':
    case '%':
      check('div-zero', o.not(o.eq(y, bvConst(0n, ct.width))), e.span,
        `${op === '/' ? 'division' : 'remainder'} by zero: ${printExpr(right)} may be 0 in ${printExpr(e)}`);
      // The quotient of the most negative value by -1 does not fit: x86's idiv traps (SIGFPE) for / and % alike.
      if (ct.signed) {
        const min = bvConst(1n << BigInt(ct.width - 1), ct.width);
        check('div-overflow', o.not(o.and(o.eq(x, min), o.eq(y, bvConst(-1n, ct.width)))), e.span,
          `signed ${op === '/' ? 'division' : 'remainder'} overflow: ${printExpr(e)} may be the most negative ${ct.width}-bit value ${op} -1`);
      }
      value = op === '/' ? (ct.signed ? o.sdiv(x, y) : o.udiv(x, y)) : ct.signed ? o.srem(x, y) : o.urem(x, y);
      break;
    case '&': value = o.bvand(x, y); break;
    case '|': value = o.bvor(x, y); break;
    case '^': value = o.bvxor(x, y); break;
    default:
      throw new CError(internal(e.span, `operator ${op}`));
  }
  return { value, type: ct };
}

export function compare(op: string, x: Term, y: Term, signed: boolean): Term {
  switch (op) {
    case '==': return eqTerm(x, y);
    case '!=': return o.not(eqTerm(x, y));
    case '<': return signed ? o.slt(x, y) : o.ult(x, y);
    case '>': return signed ? o.sgt(x, y) : o.ugt(x, y);
    case '<=': return signed ? o.sle(x, y) : o.ule(x, y);
    default: return signed ? o.sge(x, y) : o.uge(x, y);
  }
}
