/**
 * The `z3` module as specs see it: z3py's functions over our terms, with
 * z3py's coercions (a Python int takes the width of the bit-vector next to
 * it; a Python bool becomes BoolVal). Integer and real arithmetic are not
 * part of the dialect.
 */
import * as o from '../../smt/ops.ts';
import { substitute } from '../../smt/subst.ts';
import { BOOL, type Sort, Term, boolConst, boundVar, bvConst, freshName, isFalse, isTrue, variable } from '../../smt/term.ts';
import { ufMap } from '../../smt/fn.ts';
import { MAX_WIDTH, arity, argSpan, bvPair, mustBeValue, pyInt, smallInt, sortPhrase, toBool, toBv, tryToSort, widthArg } from '../coerce.ts';
import { sortMismatch, typeError, unsupportedConstruct, valueError } from '../errors.ts';
import { describe, expr, intOf, isPyInt, isTerm, termOf } from '../values.ts';
import { Builtin, type CallSite, MapFnValue, ModuleValue, type PyValue, PyList, SortValue } from '../objects.ts';
import { fn, flatArgs, sortTag, userSymbol } from './define.ts';

/** A z3 function; a term it returns becomes a new expression object (ExprRef), as z3py makes one per call. */
type Impl = (args: PyValue[], site: CallSite) => PyValue | Term;

const defs: Array<[string, string, string, Impl]> = [];
const def = (name: string, sig: string, doc: string, impl: Impl) => defs.push([name, sig, doc, impl]);

function boolArgs(name: string, args: PyValue[], site: CallSite): Term[] {
  return flatArgs(args).map((a, i) => toBool(a, argSpan(site, i), `z3.${name}`));
}

def('And', 'And(*conds)', 'Conjunction of z3 Bools (Python bools allowed); And() is True.', (args, site) =>
  o.and(...boolArgs('And', args, site)),
);
def('Or', 'Or(*conds)', 'Disjunction of z3 Bools (Python bools allowed); Or() is False.', (args, site) =>
  o.or(...boolArgs('Or', args, site)),
);
def('Not', 'Not(c)', 'Negation of a z3 Bool (Python not does not work on terms).', (args, site) => {
  arity(site, 'Not', args, 1);
  return o.not(toBool(args[0], argSpan(site, 0), 'z3.Not'));
});
def('Implies', 'Implies(a, b)', 'Logical implication a => b.', (args, site) => {
  arity(site, 'Implies', args, 2);
  return o.implies(toBool(args[0], argSpan(site, 0), 'z3.Implies'), toBool(args[1], argSpan(site, 1), 'z3.Implies'));
});
def('Xor', 'Xor(a, b)', 'Exclusive or of two z3 Bools.', (args, site) => {
  arity(site, 'Xor', args, 2);
  return o.not(o.eq(toBool(args[0], argSpan(site, 0), 'z3.Xor'), toBool(args[1], argSpan(site, 1), 'z3.Xor')));
});

/** Two values of one sort for If/Distinct-like functions (Python values take the term's sort). */
function sameSort(a: PyValue, b: PyValue, site: CallSite, i: number, j: number, what: string): [Term, Term] {
  mustBeValue(a, argSpan(site, i));
  mustBeValue(b, argSpan(site, j));
  const ta = termOf(a);
  const tb = termOf(b);
  if (ta && tb) {
    if (ta.sort !== tb.sort) {
      throw sortMismatch(site.span, `sort mismatch in ${what}: ${sortPhrase(ta.sort)} and ${sortPhrase(tb.sort)}`);
    }
    return [ta, tb];
  }
  const t = ta ?? tb;
  if (!t) {
    if (typeof a === 'boolean' && typeof b === 'boolean') return [boolConst(a), boolConst(b)];
    if (isPyInt(a) && isPyInt(b)) {
      throw unsupportedConstruct(site.span, 'z3 Int terms', 'give one branch a bit-vector sort, e.g. z3.BitVecVal(k, 64)');
    }
    throw typeError(site.span, `${what} expects z3 terms, got ${describe(a)} and ${describe(b)}`);
  }
  const other = isTerm(a) ? b : a;
  const c = tryToSort(other, t.sort);
  if (!c) {
    const at = argSpan(site, isTerm(a) ? j : i);
    if (isTerm(other)) throw sortMismatch(at, `sort mismatch in ${what}: ${sortPhrase(t.sort)} and ${describe(other)}`);
    throw typeError(at, `${what} cannot combine ${sortPhrase(t.sort)} with ${describe(other)}`);
  }
  return ta ? [ta, c] : [c, tb!];
}

def('If', 'If(c, a, b)', 'z3 if-then-else on terms; Python ints in either branch take the other branch\'s sort.', (args, site) => {
  arity(site, 'If', args, 3);
  const c = toBool(args[0], argSpan(site, 0), 'z3.If');
  const [a, b] = sameSort(args[1], args[2], site, 1, 2, 'z3.If');
  return o.ite(c, a, b);
});

function cmp(name: string, f: (a: Term, b: Term) => Term, doc: string) {
  def(name, `${name}(a, b)`, doc, (args, site) => {
    arity(site, name, args, 2);
    const [a, b] = bvPair(args[0], args[1], [argSpan(site, 0), argSpan(site, 1)], `z3.${name}`);
    return f(a, b);
  });
}
cmp('ULT', o.ult, 'Unsigned less-than on bit-vectors (the < operator is signed).');
cmp('ULE', o.ule, 'Unsigned less-or-equal on bit-vectors.');
cmp('UGT', o.ugt, 'Unsigned greater-than on bit-vectors.');
cmp('UGE', o.uge, 'Unsigned greater-or-equal on bit-vectors.');
cmp('UDiv', o.udiv, 'Unsigned division (the / operator is signed); x / 0 is all ones.');
cmp('URem', o.urem, 'Unsigned remainder; x URem 0 is x.');
cmp('SRem', o.srem, 'Signed remainder, sign of the dividend (the % operator takes the sign of the divisor).');
cmp('LShR', o.lshr, 'Logical (unsigned) shift right (the >> operator is arithmetic).');

/**
 * `a` rotated left by `b` (unsigned, modulo the width), as z3's
 * ext_rotate_left: the bits shifted out at the top come back at the bottom.
 * Built from shifts, which are 0 at a shift of the whole width.
 */
function rotateLeft(a: Term, b: Term): Term {
  const r = o.urem(b, bvConst(BigInt(a.sort), a.sort));
  return o.bvor(o.shl(a, r), o.lshr(a, o.sub(bvConst(BigInt(a.sort), a.sort), r)));
}
cmp('RotateLeft', rotateLeft, 'a rotated left by b bits (b unsigned, modulo the width): bits leaving the top come back at the bottom.');
cmp('RotateRight', (a, b) => rotateLeft(a, o.sub(bvConst(BigInt(a.sort), a.sort), o.urem(b, bvConst(BigInt(a.sort), a.sort)))), 'a rotated right by b bits (b unsigned, modulo the width).');

def('Extract', 'Extract(hi, lo, x)', 'Bits hi..lo of x, a bit-vector of width hi-lo+1.', (args, site) => {
  arity(site, 'Extract', args, 3);
  const hi = smallInt(args[0], argSpan(site, 0), 'z3.Extract high bit');
  const lo = smallInt(args[1], argSpan(site, 1), 'z3.Extract low bit');
  const x = toBv(args[2], argSpan(site, 2), 'z3.Extract');
  if (lo > hi || hi >= x.sort) throw valueError(site.span, `Extract(${hi}, ${lo}) does not fit a ${x.sort}-bit value`);
  return o.extract(hi, lo, x);
});
function widened(x: Term, n: number, site: CallSite): Term {
  if (x.sort + n > MAX_WIDTH) throw valueError(site.span, `the result would be wider than ${MAX_WIDTH} bits`);
  return x;
}

def('ZeroExt', 'ZeroExt(n, x)', 'x widened by n zero bits.', (args, site) => {
  arity(site, 'ZeroExt', args, 2);
  const n = smallInt(args[0], argSpan(site, 0), 'z3.ZeroExt count', MAX_WIDTH);
  return o.zext(n, widened(toBv(args[1], argSpan(site, 1), 'z3.ZeroExt'), n, site));
});
def('SignExt', 'SignExt(n, x)', 'x widened by n copies of its sign bit.', (args, site) => {
  arity(site, 'SignExt', args, 2);
  const n = smallInt(args[0], argSpan(site, 0), 'z3.SignExt count', MAX_WIDTH);
  return o.sext(n, widened(toBv(args[1], argSpan(site, 1), 'z3.SignExt'), n, site));
});
def('Concat', 'Concat(*xs)', 'The bit-vectors side by side, the first one in the high bits.', (args, site) => {
  const xs = flatArgs(args).map((a, i) => toBv(a, argSpan(site, i), 'z3.Concat'));
  if (xs.length === 0) throw valueError(site.span, 'z3.Concat needs at least one argument');
  if (xs.reduce((w, x) => w + x.sort, 0) > MAX_WIDTH) throw valueError(site.span, `the result would be wider than ${MAX_WIDTH} bits`);
  return o.concat(...xs);
});

def('BitVecVal', 'BitVecVal(v, width_or_sort)', 'The constant v (a Python int, reduced modulo 2^width).', (args, site) => {
  arity(site, 'BitVecVal', args, 2);
  const w = widthArg(args[1], argSpan(site, 1), 'z3.BitVecVal');
  return bvConst(pyInt(args[0], argSpan(site, 0), 'z3.BitVecVal'), w);
});
def('BoolVal', 'BoolVal(b)', 'The z3 Bool constant True or False.', (args, site) => {
  arity(site, 'BoolVal', args, 1);
  const v = args[0];
  if (isPyInt(v)) return boolConst(intOf(v) !== 0n);
  throw typeError(argSpan(site, 0), `z3.BoolVal expects a Python bool, got ${describe(v)}`);
});

function symbolName(v: PyValue, site: CallSite, what: string): string {
  if (typeof v !== 'string') throw typeError(argSpan(site, 0), `${what} expects a name string, got ${describe(v)}`);
  if (v === '' || /[|\\]/.test(v)) throw valueError(argSpan(site, 0), `${what}: invalid symbol name ${JSON.stringify(v)}`);
  return v;
}

def('BitVec', 'BitVec(name, width_or_sort)', 'A bit-vector constant named name (same name and width, same constant).', (args, site) => {
  arity(site, 'BitVec', args, 2);
  const w = widthArg(args[1], argSpan(site, 1), 'z3.BitVec');
  return variable(userSymbol(symbolName(args[0], site, 'z3.BitVec'), sortTag(w)), w);
});
def('BitVecs', 'BitVecs(names, width_or_sort)', 'Several bit-vector constants from a space-separated string of names.', (args, site) => {
  arity(site, 'BitVecs', args, 2);
  const w = widthArg(args[1], argSpan(site, 1), 'z3.BitVecs');
  const names = symbolName(args[0], site, 'z3.BitVecs').split(/\s+/).filter(Boolean);
  return new PyList(names.map((n) => expr(variable(userSymbol(n, sortTag(w)), w))));
});
def('Bool', 'Bool(name)', 'A Bool constant named name.', (args, site) => {
  arity(site, 'Bool', args, 1);
  return variable(userSymbol(symbolName(args[0], site, 'z3.Bool'), sortTag(BOOL)), BOOL);
});
def('Bools', 'Bools(names)', 'Several Bool constants from a space-separated string of names.', (args, site) => {
  arity(site, 'Bools', args, 1);
  return new PyList(symbolName(args[0], site, 'z3.Bools').split(/\s+/).filter(Boolean).map((n) => expr(variable(userSymbol(n, sortTag(BOOL)), BOOL))));
});
def('Const', 'Const(name, sort)', 'A constant of the given sort.', (args, site) => {
  arity(site, 'Const', args, 2);
  const s = args[1];
  if (!(typeof s === 'object' && s !== null && !isTerm(s) && s.kind === 'sort')) {
    throw typeError(argSpan(site, 1), `z3.Const expects a sort, got ${describe(s)}`);
  }
  return variable(userSymbol(symbolName(args[0], site, 'z3.Const'), sortTag(s.sort)), s.sort);
});
def('BitVecSort', 'BitVecSort(n)', 'The sort of n-bit bit-vectors.', (args, site) => {
  arity(site, 'BitVecSort', args, 1);
  return new SortValue(widthArg(args[0], argSpan(site, 0), 'z3.BitVecSort'));
});
def('BoolSort', 'BoolSort()', 'The sort of z3 Bool terms.', (args, site) => {
  arity(site, 'BoolSort', args, 0);
  return new SortValue(BOOL);
});

def('Distinct', 'Distinct(*xs)', 'True when all arguments are pairwise different.', (args, site) => {
  const xs = flatArgs(args);
  const t = xs.map(termOf).find((x) => x !== undefined);
  if (!t) throw typeError(site.span, 'z3.Distinct needs at least one z3 term');
  const terms = xs.map((x, i) => {
    mustBeValue(x, argSpan(site, i));
    const c = tryToSort(x, t.sort);
    if (!c) {
      throw isTerm(x)
        ? sortMismatch(argSpan(site, i), `sort mismatch in z3.Distinct: ${sortPhrase(t.sort)} and ${sortPhrase(x.term.sort)}`)
        : typeError(argSpan(site, i), `z3.Distinct cannot compare ${describe(x)} with ${sortPhrase(t.sort)}`);
    }
    return c;
  });
  return o.distinct(...terms);
});

function quantifier(name: 'ForAll' | 'Exists', build: (vs: Term[], body: Term) => Term) {
  def(name, `${name}(vars, body)`, `${name === 'ForAll' ? 'Universal' : 'Existential'} quantifier over constants made with z3.BitVec or util.FreshBitVec.`, (args, site) => {
    arity(site, name, args, 2);
    const vs = flatArgs([args[0]]);
    const map = new Map<Term, Term>();
    const bound: Term[] = [];
    vs.forEach((pv) => {
      const v = termOf(pv);
      if (!v || v.op !== 'var' || v.hasBound) {
        throw typeError(argSpan(site, 0), `z3.${name} binds constants made with z3.BitVec, got ${describe(pv)}`);
      }
      const b = boundVar(freshName(v.name!), v.sort);
      map.set(v, b);
      bound.push(b);
    });
    const body = toBool(args[1], argSpan(site, 1), `z3.${name}`);
    return build(bound, substitute(body, map));
  });
}
quantifier('ForAll', o.forall);
quantifier('Exists', o.exists);

def('simplify', 'simplify(e)', 'Returns e; terms are already simplified as they are built.', (args, site) => {
  if (args.length < 1) arity(site, 'simplify', args, 1);
  return termOf(args[0]) ?? args[0];
});
def('is_true', 'is_true(e)', 'Python True when e is the z3 constant True.', (args, site) => {
  arity(site, 'is_true', args, 1);
  return isTerm(args[0]) && isTrue(args[0].term);
});
def('is_false', 'is_false(e)', 'Python True when e is the z3 constant False.', (args, site) => {
  arity(site, 'is_false', args, 1);
  return isTerm(args[0]) && isFalse(args[0].term);
});
def('is_bool', 'is_bool(e)', 'Python True when e is a z3 Bool term.', (args, site) => {
  arity(site, 'is_bool', args, 1);
  return isTerm(args[0]) && args[0].term.sort === BOOL;
});
def('is_bv', 'is_bv(e)', 'Python True when e is a z3 bit-vector term.', (args, site) => {
  arity(site, 'is_bv', args, 1);
  return isTerm(args[0]) && args[0].term.sort !== BOOL;
});
def('eq', 'eq(a, b)', 'Python True when a and b are the same term (structural equality, not a z3 ==).', (args, site) => {
  arity(site, 'eq', args, 2);
  const [a, b] = args;
  return a === b || (isTerm(a) && isTerm(b) && a.term === b.term);
});
def('Function', 'Function(name, *sorts)', 'An uninterpreted function; the last sort is the range.', (args, site) => {
  if (args.length < 2) arity(site, 'Function', args, 2, Infinity);
  const name = symbolName(args[0], site, 'z3.Function');
  const sorts: Sort[] = args.slice(1).map((s, i) => {
    if (typeof s === 'object' && s !== null && !isTerm(s) && s.kind === 'sort') return s.sort;
    throw typeError(argSpan(site, i + 1), `z3.Function expects sorts, got ${describe(s)}`);
  });
  const range = sorts.pop()!;
  return new MapFnValue(ufMap(userSymbol(name, [...sorts, range].map(sortTag).join('>')), sorts, range), name);
});

const unsupportedZ3 = ['Int', 'Ints', 'IntVal', 'IntSort', 'Real', 'Reals', 'RealVal', 'RealSort', 'BV2Int', 'Int2BV', 'Array', 'Select', 'Store', 'Solver', 'prove', 'solve'];

let cached: ModuleValue | undefined;

/** The z3 module (built once; its functions are stateless). */
export function z3Module(): ModuleValue {
  if (cached) return cached;
  const attrs = new Map<string, PyValue>();
  for (const [name, sig, doc, impl] of defs) {
    attrs.set(name, fn(`z3.${name}`, sig, doc, (args, _kw, site) => {
      const r = impl(args, site);
      return r instanceof Term ? expr(r) : r;
    }));
  }
  for (const name of unsupportedZ3) {
    // No catalog info: these are names to refuse helpfully, not part of the dialect.
    attrs.set(
      name,
      new Builtin(`z3.${name}`, (_args, _kw, site) => {
        throw unsupportedConstruct(
          site.span,
          `z3 integer, real, array and solver functions (z3.${name})`,
          'the dialect works on bit-vectors and Bools only',
        );
      }, true),
    );
  }
  cached = new ModuleValue('z3', attrs);
  return cached;
}
