/**
 * The initial state (docs/hv6-model.md §4.6, `initial()`). Upstream's
 * initial() fixes every Refcnt's ghost permutation to the identity shifted
 * by the field's offset (the pair numbering for Refcnt2) and leaves
 * everything else unconstrained. `bootWitness` is one concrete instance of
 * it, those permutations with the state just after boot: init (pid 1) runs, owns its root, hvm and stack pages and is its
 * own parent; nothing else is in use. The witness satisfying the spec
 * invariants and a lemma shows that initial() ∧ invariants ∧ lemma is
 * satisfiable, without asking the solver to find a model of quantified facts.
 */
import { type MapFn, lambdaMap } from '../../smt/fn.ts';
import * as o from '../../smt/ops.ts';
import { BOOL, type Term, bvConst } from '../../smt/term.ts';
import { ENUMS, INITPID, MAX_INT64, PGTYPE } from '../constants.ts';
import { ALL_FIELDS, type FieldSchema } from '../schema.ts';
import type { AbstractState, FieldValue } from '../state.ts';

const SIZE_T = 64;

/** Truncates or zero-extends `t` to `width` bits. */
const fit = (t: Term, width: number): Term => o.resize(t, width, false);

/** The initial() permutations of one Refcnt or Refcnt2 field, around the count `ref`. */
function initialRefcnt(schema: FieldSchema, ref: MapFn): FieldValue {
  const [owner] = schema.index;
  if (schema.kind === 'refcnt') {
    const [owned] = schema.owned!;
    const off = schema.initialOffset ?? 0;
    return {
      kind: 'refcnt',
      ref,
      // slot i holds object i + offset; object x sits in slot x - offset
      perm: lambdaMap([owner, SIZE_T], owned, ([, i]) => fit(o.add(i, bvConst(off, SIZE_T)), owned)),
      permInv: lambdaMap([owner, owned], SIZE_T, ([, x]) => fit(o.sub(x, bvConst(off, owned)), SIZE_T)),
    };
  }
  const [o1, o2] = schema.owned!;
  const sixteen = bvConst(16, SIZE_T);
  return {
    kind: 'refcnt2',
    ref,
    // slot i holds the pair (i / 16 + 1, i % 16): pids from 1, 16 fds each
    perm1: lambdaMap([owner, SIZE_T], o1, ([, i]) => fit(o.add(o.udiv(i, sixteen), bvConst(1, SIZE_T)), o1)),
    perm2: lambdaMap([owner, SIZE_T], o2, ([, i]) => fit(o.urem(i, sixteen), o2)),
    permInv: lambdaMap([owner, o1, o2], SIZE_T, ([, p, f]) =>
      o.add(o.mul(fit(o.sub(p, bvConst(1, o1)), SIZE_T), sixteen), fit(o.smod(f, bvConst(16, o2)), SIZE_T))),
  };
}

const u64 = (n: number | bigint) => bvConst(n, 64);
const PT = ENUMS.page_type;
const PS = ENUMS.proc_state;

// init's three pages: its page-table root, its hvm page and its stack.
const ROOT = 0n;
const HVM = 1n;
const STACK = 2n;

/** Boot values of the fields that are not all-zero / all-false. */
function bootValue(path: string, xs: readonly Term[]): Term | undefined {
  const isInit = (t: Term) => o.eq(t, u64(INITPID));
  const initPage = (t: Term) => o.ult(t, u64(3));
  switch (path) {
    // Regions in address order with room between them, below the PCI hole.
    case 'pages_ptr_to_int': return u64(0x1000000);
    case 'proc_table_ptr_to_int': return u64(0x4000000);
    case 'page_desc_table_ptr_to_int': return u64(0x4100000);
    case 'file_table_ptr_to_int': return u64(0x4200000);
    case 'devices_ptr_to_int': return u64(0x4300000);
    case 'dmapages_ptr_to_int': return u64(0x4400000);
    case 'current': return u64(INITPID);
    case 'procs.state': return o.ite(isInit(xs[0]), u64(PS.PROC_RUNNING), u64(PS.PROC_UNUSED));
    case 'procs.ppid': return o.ite(isInit(xs[0]), u64(INITPID), u64(0));
    case 'procs.nr_children': return o.ite(isInit(xs[0]), u64(1), u64(0));
    case 'procs.nr_pages': return o.ite(isInit(xs[0]), u64(3), u64(0));
    case 'procs.page_table_root': return o.ite(isInit(xs[0]), u64(ROOT), u64(0));
    case 'procs.hvm': return o.ite(isInit(xs[0]), u64(HVM), u64(0));
    case 'procs.stack': return o.ite(isInit(xs[0]), u64(STACK), u64(0));
    case 'pages.owner': return o.ite(initPage(xs[0]), u64(INITPID), u64(0));
    case 'pages.type':
      return o.ite(o.eq(xs[0], u64(ROOT)), u64(PT.PAGE_TYPE_X86_PML4), o.ite(initPage(xs[0]), u64(PT.PAGE_TYPE_PROC_DATA), u64(PT.PAGE_TYPE_FREE)));
    case 'pages.pgtable_type': return u64(PGTYPE.PGTYPE_NONE);
    // No device has an IOMMU root: an invalid page number.
    case 'pci.page_table_root': return u64(MAX_INT64);
  }
  return undefined;
}

function bootMap(schema: FieldSchema): MapFn {
  const range = schema.kind === 'map' ? schema.value : SIZE_T;
  const zero = range === BOOL ? o.FALSE : bvConst(0, range);
  return lambdaMap(schema.index, range, (xs) => bootValue(schema.path, xs) ?? zero);
}

/** Returns the concrete boot state, an instance of upstream's initial(). */
export function bootWitness(): AbstractState {
  const out = new Map<string, FieldValue>();
  for (const schema of ALL_FIELDS) {
    const map = bootMap(schema);
    out.set(schema.path, schema.kind === 'map' ? map : initialRefcnt(schema, map));
  }
  return out;
}
