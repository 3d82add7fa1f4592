/**
 * The helper predicates of docs/hv6-model.md §3, stated over an abstract state,
 * and the small toolkit the invariants and lemmas are written with: reading a
 * field, building a quantified fact, and choosing its triggers.
 *
 * Triggers name the uninterpreted functions of the state a fact is stated
 * over. They only matter when that state is a fresh symbolic pre-state (the
 * facts are then assumed and instantiated); over a post-state the facts are
 * skolemised and triggers are ignored, except the per-domain "seed" trigger,
 * which lets the checker instantiate the assumptions at a goal's skolems.
 */
import type { MapFn } from '../../smt/fn.ts';
import * as o from '../../smt/ops.ts';
import { type Term, bvConst, variable } from '../../smt/term.ts';
import { DEFAULT_DEPTH } from '../../smt/instantiate.ts';
import type { Quantified, Trigger } from '../../smt/quantified.ts';
import { ENUMS, PCI_START, PGTYPE, PTE } from '../constants.ts';
import { STRUCTS } from '../schema.ts';
import { type AbstractState, type FieldValue, type Refcnt2Value, type RefcntValue, countOf, isRefcnt } from '../state.ts';

export {
  isDmapnValid,
  isFdValid,
  isFnValid,
  isIntremapValid,
  isPidValid,
  isPnValid,
} from '../equiv.ts';

export const PT = ENUMS.page_type;
export const PS = ENUMS.proc_state;

export const u64 = (n: number | bigint): Term => bvConst(n, 64);
const ZERO64 = u64(0);

// ------------------------------------------------------------------ reading a state

function field(s: AbstractState, path: string): FieldValue {
  const v = s.get(path);
  if (!v) throw new Error(`the state has no field ${path}`);
  return v;
}

/** The value of field `path` at `xs` (a Refcnt's count); scalars take no indices. */
export function rd(s: AbstractState, path: string, ...xs: Term[]): Term {
  return countOf(field(s, path)).apply(xs);
}

/** The Refcnt stored in `path`. */
export function refcntOf(s: AbstractState, path: string): RefcntValue {
  const v = field(s, path);
  if (!isRefcnt(v) || v.kind !== 'refcnt') throw new Error(`${path} is not a Refcnt`);
  return v;
}

/** The Refcnt2 stored in `path`. */
export function refcnt2Of(s: AbstractState, path: string): Refcnt2Value {
  const v = field(s, path);
  if (!isRefcnt(v) || v.kind !== 'refcnt2') throw new Error(`${path} is not a Refcnt2`);
  return v;
}

/** Bool: `v & bit != 0`. */
export function hasBit(v: Term, bit: bigint): Term {
  return o.not(o.eq(o.bvand(v, u64(bit)), ZERO64));
}

const eqAny = (t: Term, values: readonly bigint[]): Term => o.or(...values.map((v) => o.eq(t, u64(v))));

// ------------------------------------------------------------------ helper predicates

/** One of the four x86 page-table levels. */
export function isPageTableType(t: Term): Term {
  return eqAny(t, [PT.PAGE_TYPE_X86_PML4, PT.PAGE_TYPE_X86_PDPT, PT.PAGE_TYPE_X86_PD, PT.PAGE_TYPE_X86_PT]);
}

/** One of the four IOMMU page-table levels. */
export function isIommuPageTableType(t: Term): Term {
  return eqAny(t, [PT.PAGE_TYPE_IOMMU_PML4, PT.PAGE_TYPE_IOMMU_PDPT, PT.PAGE_TYPE_IOMMU_PD, PT.PAGE_TYPE_IOMMU_PT]);
}

/** Embryo, runnable, running or sleeping: neither unused nor a zombie. */
export function isStatusLive(st: Term): Term {
  return eqAny(st, [PS.PROC_EMBRYO, PS.PROC_RUNNABLE, PS.PROC_RUNNING, PS.PROC_SLEEPING]);
}

/** Every page-table index of a virtual address is below 512. */
export function isVaValid(va: readonly Term[]): Term {
  return o.and(...va.map((i) => o.ult(i, u64(512))));
}

function subTypeChain(t: Term, chain: readonly bigint[]): Term {
  // Outside the chain the value is unconstrained (upstream: a fresh constant).
  // One shared constant does as well: every use is guarded by the type being
  // in the chain, so nothing ever constrains it; and being one term, the same
  // fact over an unchanged state is the same term (see the checker).
  let out = variable('sub_type.other', 64);
  for (let i = chain.length - 2; i >= 0; i--) out = o.ite(o.eq(t, u64(chain[i])), u64(chain[i + 1]), out);
  return out;
}

/** The level below an x86 table type: PML4 -> PDPT -> PD -> PT -> FRAME. */
export function getSubType(t: Term): Term {
  return subTypeChain(t, [PT.PAGE_TYPE_X86_PML4, PT.PAGE_TYPE_X86_PDPT, PT.PAGE_TYPE_X86_PD, PT.PAGE_TYPE_X86_PT, PT.PAGE_TYPE_FRAME]);
}

/** The level below an IOMMU table type, ending in IOMMU_FRAME. */
export function getIommuSubType(t: Term): Term {
  return subTypeChain(t, [
    PT.PAGE_TYPE_IOMMU_PML4,
    PT.PAGE_TYPE_IOMMU_PDPT,
    PT.PAGE_TYPE_IOMMU_PD,
    PT.PAGE_TYPE_IOMMU_PT,
    PT.PAGE_TYPE_IOMMU_FRAME,
  ]);
}

/** `UDiv(x, 4096)`: the page number of a byte address. */
export function pageOf(x: Term): Term {
  return o.udiv(x, u64(4096));
}

/**
 * The page number of the region a shadow entry kind is relative to (0 for
 * none): `UDiv(base, 4096)` with the base chosen by kind. The division is
 * taken inside each branch, which is the same value; it makes the terms for
 * one region identical in every state and in the spec's own entries, so the
 * solver relates them by congruence instead of by bit-level reasoning.
 */
function regionPage(s: AbstractState, type: Term): Term {
  const bases: [bigint, Term][] = [
    [PGTYPE.PGTYPE_PAGE, rd(s, 'pages_ptr_to_int')],
    [PGTYPE.PGTYPE_PROC, rd(s, 'proc_table_ptr_to_int')],
    [PGTYPE.PGTYPE_PAGE_DESC, rd(s, 'page_desc_table_ptr_to_int')],
    [PGTYPE.PGTYPE_FILE_TABLE, rd(s, 'file_table_ptr_to_int')],
    [PGTYPE.PGTYPE_DEVICES, rd(s, 'devices_ptr_to_int')],
    [PGTYPE.PGTYPE_IOMMU_FRAME, rd(s, 'dmapages_ptr_to_int')],
    [PGTYPE.PGTYPE_PCIPAGE, u64(PCI_START)],
  ];
  let out = ZERO64;
  for (let i = bases.length - 1; i >= 0; i--) out = o.ite(o.eq(type, u64(bases[i][0])), pageOf(bases[i][1]), out);
  return out;
}

/** The x86 entry for page `off` of the region of kind `type`, with permission bits `perm`. */
export function pgentry2pfn(s: AbstractState, off: Term, perm: Term, type: Term): Term {
  return o.bvor(o.shl(o.add(regionPage(s, type), off), u64(PTE.PTE_PFN_SHIFT)), perm);
}

export interface Walk {
  /** The page the walk ends in (a pn, or a dmapn for IOMMU tables). */
  readonly frame: Term;
  readonly writable: Term;
  readonly present: Term;
}

/**
 * Follows the shadow page table from `root` through four levels. Present:
 * PTE_P at every level and the last entry's shadow kind is PGTYPE_PAGE;
 * writable: PTE_W at every level, with the same kind condition.
 */
export function pageWalk(s: AbstractState, root: Term, va: readonly Term[]): Walk {
  const levels: Term[] = [root];
  for (const i of va) levels.push(rd(s, 'pages.pgtable_pn', levels[levels.length - 1], i));
  const entries = va.map((i, k) => rd(s, 'pages.data', levels[k], i));
  const lastIsPage = o.eq(rd(s, 'pages.pgtable_type', levels[3], va[3]), u64(PGTYPE.PGTYPE_PAGE));
  return {
    frame: levels[4],
    present: o.and(...entries.map((e) => hasBit(e, PTE.PTE_P)), lastIsPage),
    writable: o.and(...entries.map((e) => hasBit(e, PTE.PTE_W)), lastIsPage),
  };
}

// ------------------------------------------------------------------ facts and triggers

/**
 * A quantifier domain: the facts over one tuple of variables share its key, so
 * that a goal's skolems of that domain seed the assumptions of the same domain.
 */
export interface Domain {
  readonly key: string;
  readonly sorts: readonly number[];
}

export const SEED_PREFIX = 'seed:';

/** The trigger a goal's skolems fire through (see the checker). */
export function seedTrigger(domain: Domain): Trigger {
  return { fn: `${SEED_PREFIX}${domain.key}`, positions: domain.sorts.map((_, i) => i) };
}

/**
 * A quantified fact as the lemmas state it. Its instantiation hints (`depth`,
 * `pairs`) are the engine's (smt/instantiate.ts); deeper facts are the ones
 * whose proofs chain (a Refcnt's permutation and its inverse), shallow ones
 * would otherwise fan out.
 */
export interface Fact extends Quantified {
  /** Follows from the lemma's other facts: assumed, never re-proved. */
  readonly derived?: boolean;
}

export function isDerived(f: Quantified): boolean {
  return (f as Fact).derived === true;
}

/** `forall domain. body`, triggered by `triggers` and by the domain's seed. */
export function fact(
  name: string,
  gloss: string,
  domain: Domain,
  triggers: readonly Trigger[],
  body: (xs: readonly Term[]) => Term,
  depth = DEFAULT_DEPTH,
): Fact {
  return { name, gloss, vars: domain.sorts, triggers: [seedTrigger(domain), ...triggers], body, depth };
}

/** A fact without variables. */
export function ground(name: string, gloss: string, body: () => Term): Quantified {
  return { name, gloss, vars: [], triggers: [], body: () => body() };
}

/** Marks a fact as derived (an assumption helper). */
export function derived(f: Fact): Fact {
  return { ...f, derived: true };
}

/**
 * The function symbol behind a map, when the map is an uninterpreted function
 * (a fresh state's field); undefined for updated or concrete maps.
 */
function symbolOf(f: MapFn): string | undefined {
  if (f.domain.length === 0) return undefined;
  const probe = f.apply(f.domain.map((sort, i) => bvConst(i, sort)));
  return probe.op === 'app' ? probe.decl!.name : undefined;
}

/** A trigger on map `f` reading variable i at argument `positions[i]`, if `f` is a symbol. */
export function on(f: MapFn, positions: readonly number[]): Trigger[] {
  const fn = symbolOf(f);
  return fn ? [{ fn, positions }] : [];
}

/** Triggers on every field of struct `name` (a Refcnt by its count), reading the variable as the struct index. */
export function onStruct(s: AbstractState, name: string): Trigger[] {
  const st = STRUCTS.find((x) => x.name === name);
  if (!st) throw new Error(`no struct ${name}`);
  return st.fields.flatMap((f) => on(countOf(field(s, f.path)), [0]));
}

/** Triggers on the listed fields, each reading the variables at `positions`. */
export function onFields(s: AbstractState, paths: readonly string[], positions: readonly number[]): Trigger[] {
  return paths.flatMap((p) => on(countOf(field(s, p)), positions));
}

// The domains the hv6 facts quantify over.
export const D = {
  pid: { key: 'pid', sorts: [64] },
  pn: { key: 'pn', sorts: [64] },
  pnIdx: { key: 'pn,idx', sorts: [64, 64] },
  pidFd: { key: 'pid,fd', sorts: [64, 32] },
  dmapn: { key: 'dmapn', sorts: [64] },
  devid: { key: 'devid', sorts: [16] },
  port: { key: 'port', sorts: [16] },
  vector: { key: 'vector', sorts: [8] },
  intremap: { key: 'intremap', sorts: [64] },
  pidVa: { key: 'pid,va', sorts: [64, 64, 64, 64, 64] },
  devidVa: { key: 'devid,va', sorts: [16, 64, 64, 64, 64] },
} as const satisfies Record<string, Domain>;

// Triggers are chosen narrowly, because instances bring new terms: a fact
// over a pid instantiated at every pid-sorted index would reach the pid's
// pages (root, hvm, stack, ...), whose owners are pids again, and so on. A
// fact over a pid fires on a read of that process's state (every fact about
// a process reads it, and so does every goal about one); a fact over a page
// fires on a read of the page's owner or type. The goal's own skolems reach
// every fact of their domain through the seed trigger.

/** Triggers for facts over one pid: a read of the process's state. */
export const onPid = (s: AbstractState): Trigger[] => onFields(s, ['procs.state'], [0]);
/** Triggers for facts over one pn: a read of the page's owner or type. */
export const onPn = (s: AbstractState): Trigger[] => onFields(s, ['pages.owner', 'pages.type'], [0]);
/** Triggers for facts over one page-table entry (pn, idx). */
export const onPnIdx = (s: AbstractState): Trigger[] =>
  onFields(s, ['pages.data', 'pages.pgtable_pn', 'pages.pgtable_perm', 'pages.pgtable_type'], [0, 1]);
