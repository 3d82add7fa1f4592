/**
 * The abstract kernel state of hv6 (docs/hv6-model.md §2): which structs it
 * has, which fields each struct has, their index and value sorts, and which
 * fields are ghost (never compared with the implementation).
 *
 * A field is addressed by its path: "current" for a KernelState scalar,
 * "procs.state" for a field of a sub-struct.
 */
import { BOOL } from '../smt/term.ts';

export type FieldKind = 'map' | 'refcnt' | 'refcnt2';

export interface FieldSchema {
  /** "procs.state", "current", ... */
  readonly path: string;
  /** The sub-struct ("procs") or null for a KernelState scalar. */
  readonly struct: string | null;
  readonly name: string;
  readonly kind: FieldKind;
  /**
   * Index sorts. For a map: all indices (struct index first). For a Refcnt:
   * [owner]; the owned sorts are in `owned`.
   */
  readonly index: readonly number[];
  /** The value sort (for a Refcnt, the count's sort, size_t). */
  readonly value: number;
  /** Refcnt/Refcnt2 only: sorts of the owned object (one or two components). */
  readonly owned?: readonly number[];
  /** Refcnt only: the `initial_offset` of the ghost permutation. */
  readonly initialOffset?: number;
  /** Spec-only: never compared with the C state. */
  readonly ghost: boolean;
  /** Conventional names of the indices ("pid", "fd"), for people. */
  readonly indexNames: readonly string[];
}

export interface StructSchema {
  /** Attribute name on KernelState ("procs"). */
  readonly name: string;
  /** Conventional name of the struct's index ("pid"). */
  readonly indexName: string;
  /** The spec class name ("Proc"). */
  readonly className: string;
  /** Sort of the struct's index (pid_t for Proc). */
  readonly indexSort: number;
  readonly fields: readonly FieldSchema[];
}

const W64 = 64;

/** Index names by struct, and of the second index of two-index fields. */
const STRUCT_INDEX: Record<string, string> = {
  procs: 'pid', pages: 'pn', dmapages: 'dmapn', files: 'fn', pci: 'devid', pcipages: 'pcipn', vectors: 'vector', io: 'port', intremaps: 'index',
};
const INNER_INDEX: Record<string, string> = { 'procs.ofile': 'fd' };

function f(
  struct: string | null,
  name: string,
  index: number[],
  value: number,
  opts: { ghost?: boolean; kind?: FieldKind; owned?: number[]; initialOffset?: number } = {},
): FieldSchema {
  const outer = struct ? STRUCT_INDEX[struct] : undefined;
  const inner = index.length > 1 ? INNER_INDEX[`${struct}.${name}`] ?? 'idx' : undefined;
  return {
    indexNames: [outer, inner].filter((x): x is string => x !== undefined),
    path: struct ? `${struct}.${name}` : name,
    struct,
    name,
    kind: opts.kind ?? 'map',
    index,
    value,
    owned: opts.owned,
    initialOffset: opts.initialOffset,
    ghost: opts.ghost ?? false,
  };
}

const pid = W64;
const pn = W64;
const fd = 32;

function refcnt(owned: number, initialOffset = 0) {
  return { kind: 'refcnt' as const, owned: [owned], initialOffset };
}

/** KernelState's own (arity-0) fields, in declaration order. */
export const SCALARS: readonly FieldSchema[] = [
  f(null, 'pages_ptr_to_int', [], W64),
  f(null, 'proc_table_ptr_to_int', [], W64),
  f(null, 'page_desc_table_ptr_to_int', [], W64),
  f(null, 'file_table_ptr_to_int', [], W64),
  f(null, 'devices_ptr_to_int', [], W64),
  f(null, 'dmapages_ptr_to_int', [], W64),
  f(null, 'current', [], pid),
  f(null, 'iotlbinv', [], BOOL),
];

export const STRUCTS: readonly StructSchema[] = [
  {
    name: 'procs',
    indexName: STRUCT_INDEX.procs,
    className: 'Proc',
    indexSort: pid,
    fields: [
      f('procs', 'state', [pid], W64),
      f('procs', 'ppid', [pid], pid),
      f('procs', 'killed', [pid], BOOL),
      f('procs', 'ipc_from', [pid], pid),
      f('procs', 'ipc_val', [pid], W64),
      f('procs', 'ipc_page', [pid], pn),
      f('procs', 'ipc_size', [pid], W64),
      f('procs', 'ipc_fd', [pid], fd),
      f('procs', 'ofile', [pid, fd], W64),
      f('procs', 'nr_children', [pid], W64, refcnt(pid, 1)),
      f('procs', 'nr_fds', [pid], W64, refcnt(fd)),
      f('procs', 'nr_pages', [pid], W64, refcnt(pn)),
      f('procs', 'nr_dmapages', [pid], W64, refcnt(pn)),
      f('procs', 'nr_devs', [pid], W64, refcnt(16)),
      f('procs', 'nr_ports', [pid], W64, refcnt(16)),
      f('procs', 'nr_vectors', [pid], W64, refcnt(8)),
      f('procs', 'nr_intremaps', [pid], W64, refcnt(W64)),
      f('procs', 'stack', [pid], pn),
      f('procs', 'hvm', [pid], pn),
      f('procs', 'page_table_root', [pid], pn),
      f('procs', 'use_io_bitmap', [pid], BOOL),
      f('procs', 'io_bitmap_a', [pid], pn),
      f('procs', 'io_bitmap_b', [pid], pn),
      f('procs', 'intr', [pid, W64], W64),
      f('procs', 'tlbinv', [pid], BOOL),
    ],
  },
  {
    name: 'pages',
    indexName: STRUCT_INDEX.pages,
    className: 'Page',
    indexSort: pn,
    fields: [
      f('pages', 'data', [pn, W64], W64),
      f('pages', 'owner', [pn], pid),
      f('pages', 'type', [pn], W64),
      f('pages', 'pgtable_pn', [pn, W64], W64, { ghost: true }),
      f('pages', 'pgtable_perm', [pn, W64], W64, { ghost: true }),
      f('pages', 'pgtable_type', [pn, W64], W64, { ghost: true }),
      f('pages', 'pgtable_reverse_pn', [pn], pn, { ghost: true }),
      f('pages', 'pgtable_reverse_idx', [pn], pn, { ghost: true }),
    ],
  },
  {
    name: 'dmapages',
    indexName: STRUCT_INDEX.dmapages,
    className: 'DMAPage',
    indexSort: pn,
    fields: [f('dmapages', 'owner', [pn], pid), f('dmapages', 'type', [pn], W64)],
  },
  {
    name: 'files',
    indexName: STRUCT_INDEX.files,
    className: 'File',
    indexSort: W64,
    fields: [
      f('files', 'type', [W64], W64),
      f('files', 'refcnt', [W64], W64, { kind: 'refcnt2', owned: [pid, fd] }),
      f('files', 'value', [W64], W64),
      f('files', 'omode', [W64], W64),
      f('files', 'offset', [W64], W64),
    ],
  },
  {
    name: 'pci',
    indexName: STRUCT_INDEX.pci,
    className: 'PCI',
    indexSort: 16,
    fields: [f('pci', 'owner', [16], pid), f('pci', 'page_table_root', [16], pn, { ghost: true })],
  },
  {
    name: 'pcipages',
    indexName: STRUCT_INDEX.pcipages,
    className: 'PCIPage',
    indexSort: pn,
    fields: [f('pcipages', 'owner', [pn], 16), f('pcipages', 'valid', [pn], BOOL)],
  },
  { name: 'vectors', indexName: STRUCT_INDEX.vectors, className: 'Vectors', indexSort: 8, fields: [f('vectors', 'owner', [8], pid)] },
  { name: 'io', indexName: STRUCT_INDEX.io, className: 'IO', indexSort: 16, fields: [f('io', 'owner', [16], pid)] },
  {
    name: 'intremaps',
    indexName: STRUCT_INDEX.intremaps,
    className: 'Intremap',
    indexSort: W64,
    fields: [
      f('intremaps', 'state', [W64], W64),
      f('intremaps', 'devid', [W64], 16),
      f('intremaps', 'vector', [W64], 8),
    ],
  },
];

export const ALL_FIELDS: readonly FieldSchema[] = [...SCALARS, ...STRUCTS.flatMap((s) => s.fields)];
