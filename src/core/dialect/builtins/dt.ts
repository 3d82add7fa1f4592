/**
 * The `dt` (datatypes) module: constants, sorts and enumerations of
 * docs/hv6-model.md §1, exactly as upstream types them. Limits such as NPROC
 * and PAGE_SIZE are Python ints; INITPID, MAX_INT64, the PTE bits, the
 * PGTYPE_* kinds and the enum members are 64-bit BitVecVals.
 */
import * as K from '../../kernel/constants.ts';
import { STRUCTS } from '../../kernel/schema.ts';
import * as o from '../../smt/ops.ts';
import { type Term, bvConst, freshName, variable } from '../../smt/term.ts';
import { arity, argSpan, bvPair, smallInt, toBv } from '../coerce.ts';
import { expr, isTerm } from '../values.ts';
import { EnumClass, ModuleValue, OpaqueClass, PyList, type PyValue, SortValue } from '../objects.ts';
import { fn, termFn } from './define.ts';

const W = 64;
const bv = (v: bigint) => bvConst(v, W);

/** Python-int constants of dt. */
export const DT_INTS: Readonly<Record<string, bigint>> = {
  NPAGE: BigInt(K.NPAGE),
  NDMAPAGE: BigInt(K.NDMAPAGE),
  NPROC: BigInt(K.NPROC),
  NOFILE: BigInt(K.NOFILE),
  NFILE: BigInt(K.NFILE),
  NPCIDEV: BigInt(K.NPCIDEV),
  NINTREMAP: BigInt(K.NINTREMAP),
  NPCIPAGE: BigInt(K.NPCIPAGE),
  PAGE_SIZE: BigInt(K.PAGE_SIZE),
  PCI_START: K.PCI_START,
  PCI_END: K.PCI_END,
  ...Object.fromEntries(Object.entries(K.NPAGES).map(([k, v]) => [k, BigInt(v)])),
};

/** 64-bit BitVecVal constants of dt. */
export const DT_BITVECS: Readonly<Record<string, bigint>> = {
  INITPID: K.INITPID,
  MAX_INT64: K.MAX_INT64,
  ...K.PTE,
  ...K.PGTYPE,
};

/** Where each enum member lives, for "did you mean dt.proc_state.PROC_RUNNING?". */
const ENUM_OF_MEMBER = new Map<string, string>();
for (const [e, members] of Object.entries(K.ENUMS)) for (const m of Object.keys(members)) ENUM_OF_MEMBER.set(m, e);

/** The qualified name of an enum member, when `name` is one. */
export function enumMemberPath(name: string): string | undefined {
  const e = ENUM_OF_MEMBER.get(name);
  return e ? `dt.${e}.${name}` : undefined;
}

let cached: ModuleValue | undefined;

export function dtModule(): ModuleValue {
  if (cached) return cached;
  const attrs = new Map<string, PyValue>();
  for (const [k, v] of Object.entries(DT_INTS)) attrs.set(k, v);
  // One object per constant, as a module attribute is: dt.NPROC is dt.NPROC.
  for (const [k, v] of Object.entries(DT_BITVECS)) attrs.set(k, expr(bv(v)));
  for (const [k, w] of Object.entries(K.SORTS)) attrs.set(k, new SortValue(w));
  for (const [e, members] of Object.entries(K.ENUMS)) {
    attrs.set(e, new EnumClass(e, new Map(Object.entries(members).map(([m, v]) => [m, expr(bv(v))]))));
  }
  attrs.set('KernelState', new OpaqueClass('KernelState'));
  for (const s of STRUCTS) attrs.set(s.className, new OpaqueClass(s.className));
  attrs.set(
    'BIT64',
    termFn('dt.BIT64', 'BIT64(b)', 'The 64-bit value with only bit b set.', (args, _kw, site) => {
      arity(site, 'BIT64', args, 1);
      const b = args[0];
      if (isTerm(b)) return o.shl(bv(1n), toBv(b, argSpan(site, 0), 'dt.BIT64'));
      return bv(1n << BigInt(smallInt(b, argSpan(site, 0), 'dt.BIT64 bit', 63)));
    }),
  );
  attrs.set(
    'has_bit',
    termFn('dt.has_bit', 'has_bit(v, bit)', 'The z3 Bool (v & bit) != 0.', (args, _kw, site) => {
      arity(site, 'has_bit', args, 2);
      toBv(args[0], argSpan(site, 0), 'dt.has_bit');
      const [x, m] = bvPair(args[0], args[1], [argSpan(site, 0), argSpan(site, 1)], 'dt.has_bit');
      return o.not(o.eq(o.bvand(x, m), bvConst(0n, x.sort)));
    }),
  );
  attrs.set(
    'FreshVA',
    fn('dt.FreshVA', 'FreshVA()', 'A list of four fresh 64-bit page-table indices (for page-walk statements).', (args, _kw, site) => {
      arity(site, 'FreshVA', args, 0);
      const vs: Term[] = [];
      for (let i = 0; i < 4; i++) vs.push(variable(freshName(`va${i}`), W));
      return new PyList(vs.map(expr));
    }),
  );
  cached = new ModuleValue('dt', attrs, enumMemberPath);
  return cached;
}
