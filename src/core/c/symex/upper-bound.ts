/**
 * Bound analysis: an upper bound on a bit-vector term read off its shape, so
 * that an index the code already masked or narrowed needs no bounds
 * condition. Syntactic and cheap; where it finds no bound the condition is
 * simply kept for the solver.
 */
import type { Term } from '../../smt/term.ts';

/**
 * An upper bound on the unsigned value of a bit-vector term, from its shape
 * alone (constants, masks, zero extension, remainders, right shifts), so
 * that `a[x & 7]` or `vector_table[(uint8_t)v]` need no bounds condition.
 */
export function upperBound(t: Term, memo = new Map<Term, bigint>(), depth = 0): bigint {
  const hit = memo.get(t);
  if (hit !== undefined) return hit;
  // Deeper shapes are not worth the stack; without a bound, the check is kept.
  const b = depth > 64 ? (1n << BigInt(t.sort)) - 1n : upperBoundOf(t, (u) => upperBound(u, memo, depth + 1));
  memo.set(t, b);
  return b;
}

function upperBoundOf(t: Term, upperBound: (u: Term) => bigint): bigint {
  const all = (1n << BigInt(t.sort)) - 1n;
  const k = (x: Term) => (x.op === 'const' ? (x.value as bigint) : undefined);
  switch (t.op) {
    case 'const':
      return t.value as bigint;
    case 'zext':
      return upperBound(t.args[0]);
    case 'sext': {
      // Sign extension keeps the value when the sign bit is known clear.
      const x = t.args[0];
      const b = upperBound(x);
      return b < 1n << BigInt(x.sort - 1) ? b : all;
    }
    case 'bvand':
      return upperBound(t.args[0]) < upperBound(t.args[1]) ? upperBound(t.args[0]) : upperBound(t.args[1]);
    case 'urem': {
      const c = k(t.args[1]);
      return c !== undefined && c > 0n && c - 1n < upperBound(t.args[0]) ? c - 1n : upperBound(t.args[0]);
    }
    case 'udiv': {
      const c = k(t.args[1]);
      return c !== undefined && c > 0n ? upperBound(t.args[0]) / c : all;
    }
    case 'lshr': {
      const c = k(t.args[1]);
      return c !== undefined ? upperBound(t.args[0]) >> c : upperBound(t.args[0]);
    }
    case 'ite': {
      const a = upperBound(t.args[1]);
      const b = upperBound(t.args[2]);
      return a > b ? a : b;
    }
    default:
      return all;
  }
}
