/**
 * The equivalence between the C kernel's globals and the abstract state
 * (docs/hv6-model.md §2.2-2.10): for every implementation-backed field, which C memory
 * entry backs it, how its indices map to C indices, how a C value maps to the
 * abstract value, and under which guard the two are compared.
 *
 * The abstract pre-state is built as a view of the C pre-state through this
 * relation, so the two start equivalent by construction; ghost fields get
 * fresh symbols of their own.
 */
import type { CMemory } from '../c/memory.ts';
import { type MapFn, lambdaMap } from '../smt/fn.ts';
import * as o from '../smt/ops.ts';
import { type Term, bvConst, variable } from '../smt/term.ts';
import { NFILE, NINTREMAP, NOFILE, NPAGE, NPCIPAGE, NPROC, NDMAPAGE } from './constants.ts';
import { ALL_FIELDS, type FieldSchema } from './schema.ts';
import { type AbstractState, type FieldValue, countOf, freshField } from './state.ts';

/** The C memory: one functional map per scalar leaf of every global (docs/c-subset.md). */
export type { CMemory };

const u64 = (n: number | bigint) => bvConst(n, 64);

export const isPidValid = (p: Term): Term => o.and(o.sgt(p, u64(0)), o.slt(p, u64(NPROC)));
export const isPnValid = (p: Term): Term => o.ult(p, u64(NPAGE));
export const isDmapnValid = (p: Term): Term => o.ult(p, u64(NDMAPAGE));
export const isFnValid = (f: Term): Term => o.and(o.ugt(f, u64(0)), o.ult(f, u64(NFILE)));
export const isFdValid = (fd: Term): Term =>
  o.and(o.sge(fd, bvConst(0, fd.sort)), o.slt(fd, bvConst(NOFILE, fd.sort)));
export const isIntremapValid = (i: Term): Term => o.ult(i, u64(NINTREMAP));
const isPcipnValid = (p: Term): Term => o.ult(p, u64(NPCIPAGE));

/** How one abstract field relates to the C memory. */
export interface Backing {
  /** The C memory key ("proc_table.state"), or `&name` for a global's address. */
  readonly key: string;
  /** Abstract indices -> C indices. */
  readonly index: (xs: readonly Term[]) => Term[];
  /** C value -> abstract value. */
  readonly value: (c: Term) => Term;
  /** When the abstract and C values must agree. */
  readonly guard: (xs: readonly Term[]) => Term;
}

const same = (xs: readonly Term[]) => [...xs];
const id = (t: Term) => t;
const always = () => o.TRUE;
const nonzero = (t: Term) => o.not(o.eq(t, bvConst(0, t.sort)));
const wide = (xs: readonly Term[]) => xs.map((x) => o.zext(64 - x.sort, x));

function b(key: string, guard: Backing['guard'], extra: Partial<Backing> = {}): Backing {
  return { key, index: same, value: id, guard, ...extra };
}

const pidGuard = (xs: readonly Term[]) => isPidValid(xs[0]);
const pnGuard = (xs: readonly Term[]) => isPnValid(xs[0]);
const fnGuard = (xs: readonly Term[]) => isFnValid(xs[0]);

const BACKING: Record<string, Backing> = {
  pages_ptr_to_int: b('&pages', always),
  proc_table_ptr_to_int: b('&proc_table', always),
  page_desc_table_ptr_to_int: b('&page_desc_table', always),
  file_table_ptr_to_int: b('&file_table', always),
  devices_ptr_to_int: b('&devices', always),
  dmapages_ptr_to_int: b('&dmapages', always),
  current: b('current', always),
  iotlbinv: b('#iotlbinv', always),

  'procs.state': b('proc_table.state', pidGuard),
  'procs.ppid': b('proc_table.ppid', pidGuard),
  'procs.killed': b('proc_table.killed', pidGuard, { value: nonzero }),
  'procs.ipc_from': b('proc_table.ipc_from', pidGuard),
  'procs.ipc_val': b('proc_table.ipc_val', pidGuard),
  'procs.ipc_page': b('proc_table.ipc_page', pidGuard),
  'procs.ipc_size': b('proc_table.ipc_size', pidGuard),
  'procs.ipc_fd': b('proc_table.ipc_fd', pidGuard),
  // docs/hv6-model.md §2.3 relates ofile(pid, fd) to ofile[ZeroExt(32, fd)]; we use the
  // sign extension C applies to an `int` index. Both are injective and agree
  // on every valid fd (the only ones compared), and matching C's own index
  // terms spares the solver proving sext(fd) == zext(fd) at every read.
  'procs.ofile': b('proc_table.ofile', (xs) => o.and(isPidValid(xs[0]), isFdValid(xs[1])), {
    index: (xs) => [xs[0], o.sext(32, xs[1])],
  }),
  'procs.nr_children': b('proc_table.nr_children', pidGuard),
  'procs.nr_fds': b('proc_table.nr_fds', pidGuard),
  'procs.nr_pages': b('proc_table.nr_pages', pidGuard),
  'procs.nr_dmapages': b('proc_table.nr_dmapages', pidGuard),
  'procs.nr_devs': b('proc_table.nr_devs', pidGuard),
  'procs.nr_ports': b('proc_table.nr_ports', pidGuard),
  'procs.nr_vectors': b('proc_table.nr_vectors', pidGuard),
  'procs.nr_intremaps': b('proc_table.nr_intremaps', pidGuard),
  'procs.stack': b('proc_table.stack', pidGuard),
  'procs.hvm': b('proc_table.hvm', pidGuard),
  'procs.page_table_root': b('proc_table.page_table_root', pidGuard),
  'procs.use_io_bitmap': b('proc_table.use_io_bitmap', pidGuard, { value: nonzero }),
  'procs.io_bitmap_a': b('proc_table.io_bitmap_a', pidGuard),
  'procs.io_bitmap_b': b('proc_table.io_bitmap_b', pidGuard),
  'procs.intr': b('proc_table.intr', (xs) => o.and(isPidValid(xs[0]), o.ult(xs[1], u64(4)))),
  'procs.tlbinv': b('#tlbinv', always),

  'pages.data': b('pages', (xs) => o.and(isPnValid(xs[0]), o.ult(xs[1], u64(512)))),
  'pages.owner': b('page_desc_table.pid', pnGuard),
  'pages.type': b('page_desc_table.type', pnGuard),

  'dmapages.owner': b('dmapage_desc_table.pid', (xs) => isDmapnValid(xs[0])),
  'dmapages.type': b('dmapage_desc_table.type', (xs) => isDmapnValid(xs[0])),

  'files.type': b('file_table.type', fnGuard),
  'files.refcnt': b('file_table.refcnt', fnGuard),
  'files.value': b('file_table.value', fnGuard),
  'files.omode': b('file_table.omode', fnGuard),
  'files.offset': b('file_table.offset', fnGuard),

  'pci.owner': b('pci_table', always, { index: wide }),
  'pcipages.owner': b('pcipages.devid', (xs) => isPcipnValid(xs[0])),
  'pcipages.valid': b('pcipages.valid', (xs) => isPcipnValid(xs[0]), { value: nonzero }),
  'vectors.owner': b('vector_table', always, { index: wide }),
  'io.owner': b('io_table', always, { index: wide }),
  'intremaps.state': b('intremap_table.state', (xs) => isIntremapValid(xs[0])),
  'intremaps.devid': b('intremap_table.devid', (xs) => isIntremapValid(xs[0])),
  'intremaps.vector': b('intremap_table.vector', (xs) => isIntremapValid(xs[0])),
};

/** The backing of an abstract field, or undefined for a ghost field. */
export function backing(path: string): Backing | undefined {
  return BACKING[path];
}

/** The C memory entry (or address constant) a backing reads. */
function readC(mem: CMemory, key: string, cIndex: readonly Term[]): Term {
  if (key.startsWith('&')) return variable(key, 64);
  const f = mem.get(key);
  if (!f) throw new Error(`the C program has no global leaf '${key}' (needed by the equivalence)`);
  return f.apply(cIndex);
}

/** The abstract value of a backed field at abstract indices, read from the C memory. */
export function abstractRead(mem: CMemory, path: string, xs: readonly Term[]): Term {
  const bk = BACKING[path];
  return bk.value(readC(mem, bk.key, bk.index(xs)));
}

function viewOf(mem: CMemory, schema: FieldSchema): MapFn {
  const bk = BACKING[schema.path];
  const direct = bk.index === same && bk.value === id && !bk.key.startsWith('&') ? mem.get(bk.key) : undefined;
  if (direct) return direct;
  const domain = schema.index;
  const range = schema.kind === 'map' ? schema.value : 64;
  return lambdaMap(domain, range, (xs) => abstractRead(mem, schema.path, xs));
}

/**
 * Returns the abstract pre-state that the C memory `mem` represents: backed
 * fields read through the equivalence, ghost fields (and Refcnt permutations)
 * fresh and named with `ghostPrefix`.
 */
export function abstractOf(mem: CMemory, ghostPrefix = 'old.'): AbstractState {
  const out = new Map<string, FieldValue>();
  for (const s of ALL_FIELDS) {
    const fresh = freshField(s, ghostPrefix);
    if (s.ghost || !BACKING[s.path]) {
      out.set(s.path, fresh);
      continue;
    }
    const view = viewOf(mem, s);
    if (s.kind === 'map') out.set(s.path, view);
    else out.set(s.path, { ...(fresh as Exclude<FieldValue, MapFn>), ref: view });
  }
  return out;
}

/**
 * Fresh symbolic indices for comparing one field. Fields share them by
 * position and sort: proving all fields equal at once negates to
 * "some field differs at some index", and an existential distributes over
 * the disjunction, so one skolem per (position, sort) is as good as one per
 * field, and it keeps the ground terms (and so the instantiated invariants) few.
 */
export function skolems(schema: FieldSchema, tag: string): Term[] {
  return schema.index.map((s, i) => variable(`sk.${tag}.${i}.${s}`, s));
}

/** The backed fields, in schema order. */
export const BACKED_FIELDS: readonly FieldSchema[] = ALL_FIELDS.filter((s) => !s.ghost && BACKING[s.path]);


/**
 * The C maps that represent a concrete abstract state (one of the state
 * bank's, verify/state-bank.ts), by C memory key, for every backed field
 * whose C map is not the abstract map itself: a C cell holds the abstract
 * value at the abstract indices it backs (an `int` fd's sign extension, a
 * 16-bit port's zero extension), a flag stored as a number holds 1 or 0.
 * Cells no abstract index maps to hold 0. `mem` gives the C maps' sorts.
 * Each read folds to a constant, so a case is evaluated, not solved: the
 * refutations it offers are still checked against the whole query
 * (verify/query.ts, `refutes`).
 */
export function concreteMemory(mem: CMemory, state: AbstractState): Map<string, MapFn> {
  const out = new Map<string, MapFn>();
  for (const s of BACKED_FIELDS) {
    const bk = BACKING[s.path];
    const symbolic = bk.key.startsWith('&') ? undefined : mem.get(bk.key);
    const field = state.get(s.path);
    if (!symbolic || !field || (bk.index === same && bk.value === id)) continue;
    const abstract = countOf(field);
    out.set(bk.key, lambdaMap(symbolic.domain, symbolic.range, (cs) => {
      // The abstract indices whose C indices are `cs`: their low bits, if they map back to `cs`.
      const xs = s.index.map((sort, i) => (cs[i].sort === sort ? cs[i] : o.extract(sort - 1, 0, cs[i])));
      const zero = bvConst(0, symbolic.range);
      if (!o.and(...bk.index(xs).map((c, i) => o.eq(c, cs[i]))).value) return zero;
      const v = abstract.apply(xs);
      if (v.sort === symbolic.range) return v;
      // A flag: the C number whose abstract value is `v`.
      const one = bvConst(1, symbolic.range);
      return o.ite(o.eq(bk.value(one), v), one, zero);
    }));
  }
  return out;
}
