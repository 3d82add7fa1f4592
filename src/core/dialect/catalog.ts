/**
 * Every name a spec may use, with a one-line signature and a short
 * explanation, for editor completion and hover. Built from the same tables
 * the interpreter uses (schema, constants, built-in modules), so the two
 * cannot drift apart.
 */
import * as K from '../kernel/constants.ts';
import { type FieldSchema, SCALARS, STRUCTS } from '../kernel/schema.ts';
import { DT_BITVECS, DT_INTS, dtModule } from './builtins/dt.ts';
import { helpersModule } from './builtins/helpers.ts';
import { utilModule } from './builtins/util.ts';
import { z3Module } from './builtins/z3.ts';
import type { ModuleValue } from './objects.ts';

export type CatalogKind = 'field' | 'constant' | 'sort' | 'enum' | 'helper' | 'z3' | 'util' | 'method';

export interface CatalogEntry {
  readonly label: string;
  readonly kind: CatalogKind;
  /** One line: "procs[pid].state : proc_state_t (64-bit)". */
  readonly detail: string;
  /** One or two sentences. */
  readonly doc: string;
  /** What to insert when it differs from the label (e.g. "nr_pages()"). */
  readonly insertText?: string;
}


/** The dt sort name of each field's value (the schema keeps widths only). */
const VALUE_SORT: ReadonlyMap<string, string> = new Map(Object.entries({
  pages_ptr_to_int: 'uint64_t', proc_table_ptr_to_int: 'uint64_t', page_desc_table_ptr_to_int: 'uint64_t',
  file_table_ptr_to_int: 'uint64_t', devices_ptr_to_int: 'uint64_t', dmapages_ptr_to_int: 'uint64_t',
  current: 'pid_t', iotlbinv: 'bool_t',
  'procs.state': 'proc_state_t', 'procs.ppid': 'pid_t', 'procs.killed': 'bool_t', 'procs.ipc_from': 'pid_t',
  'procs.ipc_val': 'uint64_t', 'procs.ipc_page': 'pn_t', 'procs.ipc_size': 'size_t', 'procs.ipc_fd': 'fd_t',
  'procs.ofile': 'fn_t', 'procs.stack': 'pn_t', 'procs.hvm': 'pn_t', 'procs.page_table_root': 'pn_t',
  'procs.use_io_bitmap': 'bool_t', 'procs.io_bitmap_a': 'pn_t', 'procs.io_bitmap_b': 'pn_t', 'procs.intr': 'uint64_t',
  'procs.tlbinv': 'bool_t',
  'pages.data': 'uint64_t', 'pages.owner': 'pid_t', 'pages.type': 'page_type_t', 'pages.pgtable_pn': 'uint64_t',
  'pages.pgtable_perm': 'uint64_t', 'pages.pgtable_type': 'uint64_t', 'pages.pgtable_reverse_pn': 'pn_t',
  'pages.pgtable_reverse_idx': 'pn_t',
  'dmapages.owner': 'pid_t', 'dmapages.type': 'page_type_t',
  'files.type': 'file_type_t', 'files.value': 'uint64_t', 'files.omode': 'uint64_t', 'files.offset': 'size_t',
  'pci.owner': 'pid_t', 'pci.page_table_root': 'pn_t', 'pcipages.owner': 'devid_t', 'pcipages.valid': 'bool_t',
  'vectors.owner': 'pid_t', 'io.owner': 'pid_t',
  'intremaps.state': 'intremap_state_t', 'intremaps.devid': 'devid_t', 'intremaps.vector': 'uint8_t',
}));

const OWNED_SORT: ReadonlyMap<string, string> = new Map(Object.entries({
  nr_children: 'pid_t', nr_fds: 'fd_t', nr_pages: 'pn_t', nr_dmapages: 'dmapn_t', nr_devs: 'devid_t',
  nr_ports: 'uint16_t', nr_vectors: 'uint8_t', nr_intremaps: 'size_t',
}));

const FIELD_DOC: ReadonlyMap<string, string> = new Map(Object.entries({
  pages_ptr_to_int: 'Byte address of the RAM page array; a fresh symbol that no handler changes.',
  proc_table_ptr_to_int: 'Byte address of the process table.',
  page_desc_table_ptr_to_int: 'Byte address of the page descriptor table.',
  file_table_ptr_to_int: 'Byte address of the file table.',
  devices_ptr_to_int: 'Byte address of the PCI device metadata array.',
  dmapages_ptr_to_int: 'Byte address of the DMA page array.',
  current: 'The running process. Handlers that switch processes write it.',
  iotlbinv: 'Set when the IOTLB was flushed; write it with new.flush_iotlb().',
  'procs.state': 'Life-cycle state of the process (dt.proc_state).',
  'procs.ppid': 'Pid of the parent process.',
  'procs.killed': 'Marked for death; a killed process becomes a zombie at its next switch.',
  'procs.ipc_from': 'Sender the process accepts IPC from (0: anyone).',
  'procs.ipc_val': 'Value received by the last IPC.',
  'procs.ipc_page': 'Page that receives IPC data.',
  'procs.ipc_size': 'Size of the last IPC message.',
  'procs.ipc_fd': 'Descriptor slot that receives a transferred file (32-bit).',
  'procs.ofile': 'Open file table: the fn held in descriptor fd; read with old.procs[pid].ofile(fd).',
  'procs.nr_children': 'Number of children (Refcnt); read with nr_children(), update with [child] += 1 / -= 1.',
  'procs.nr_fds': 'Number of open descriptors (Refcnt over fds).',
  'procs.nr_pages': 'Number of RAM pages owned (Refcnt over pns).',
  'procs.nr_dmapages': 'Number of DMA pages owned (Refcnt over dmapns).',
  'procs.nr_devs': 'Number of PCI devices owned (Refcnt over devids).',
  'procs.nr_ports': 'Number of I/O ports owned (Refcnt over ports).',
  'procs.nr_vectors': 'Number of interrupt vectors owned (Refcnt over vectors).',
  'procs.nr_intremaps': 'Number of interrupt-remapping entries owned (Refcnt over indices).',
  'procs.stack': 'Page holding the kernel stack of the process.',
  'procs.hvm': 'Page holding the virtual-machine control state.',
  'procs.page_table_root': 'The PML4 page of the process.',
  'procs.use_io_bitmap': 'Whether the process uses an I/O permission bitmap.',
  'procs.io_bitmap_a': 'First page of the I/O permission bitmap.',
  'procs.io_bitmap_b': 'Second page of the I/O permission bitmap.',
  'procs.intr': 'Pending-interrupt bitset, four 64-bit words; read with old.procs[pid].intr(idx).',
  'procs.tlbinv': 'Set when the TLB of the process was flushed; write it with new.flush_tlb(pid).',
  'pages.data': 'Word idx (0..511) of page pn; read with old.pages[pn].data(idx).',
  'pages.owner': 'Pid owning the page (0 when free).',
  'pages.type': 'Page type (dt.page_type).',
  'pages.pgtable_pn': 'Ghost: for a present entry, the index of its target within its region.',
  'pages.pgtable_perm': 'Ghost: permission bits of the entry.',
  'pages.pgtable_type': 'Ghost: a PGTYPE_* kind naming the region the entry points into.',
  'pages.pgtable_reverse_pn': 'Ghost: the page-table page that points to this page.',
  'pages.pgtable_reverse_idx': 'Ghost: the entry index in that page-table page.',
  'dmapages.owner': 'Pid owning the DMA page (0 when free).',
  'dmapages.type': 'Page type of the DMA page (FREE or IOMMU_FRAME).',
  'files.type': 'File type (dt.file_type); FD_NONE for an unused file.',
  'files.refcnt': 'Number of (pid, fd) slots referring to the file (Refcnt2); update with [(pid, fd)] += 1.',
  'files.value': 'Opaque value stored in the file.',
  'files.omode': 'The mode the file was opened with.',
  'files.offset': 'Current read/write offset in the file.',
  'pci.owner': 'Pid owning the device (0: free).',
  'pci.page_table_root': 'Ghost: root of the device IOMMU page table.',
  'pcipages.owner': 'Device the PCI page belongs to.',
  'pcipages.valid': 'Whether the PCI page exists.',
  'vectors.owner': 'Pid owning the interrupt vector.',
  'io.owner': 'Pid owning the I/O port (0: free, -1: reserved).',
  'intremaps.state': 'State of the remapping entry (dt.intremap_state).',
  'intremaps.devid': 'Device of the remapping entry.',
  'intremaps.vector': 'Vector of the remapping entry.',
}));

const CONST_DOC: ReadonlyMap<string, string> = new Map(Object.entries({
  NPAGE: 'Number of RAM pages (Python int).',
  NDMAPAGE: 'Number of DMA pages (Python int).',
  NPROC: 'Size of the process table; valid pids are 1..NPROC-1 (Python int).',
  NOFILE: 'Descriptors per process (Python int).',
  NFILE: 'Size of the file table; valid fns are 1..NFILE-1 (Python int).',
  NPCIDEV: 'Size of the device metadata array (Python int).',
  NINTREMAP: 'Number of interrupt-remapping entries (Python int).',
  NPCIPAGE: 'Pages in the PCI hole (Python int).',
  PAGE_SIZE: 'Bytes per page (Python int).',
  PCI_START: 'Start of the PCI hole (Python int).',
  PCI_END: 'End of the PCI hole, exclusive (Python int).',
  NPAGES_PAGES: 'Pages of the RAM page array (Python int).',
  NPAGES_PROC_TABLE: 'Pages of the process table (Python int).',
  NPAGES_FILE_TABLE: 'Pages of the file table (Python int).',
  NPAGES_PAGE_DESC_TABLE: 'Pages of the page descriptor table (Python int).',
  NPAGES_DEVICES: 'Pages of the device metadata array (Python int).',
  INITPID: 'The pid of init, 1, as a 64-bit BitVecVal.',
  MAX_INT64: 'All-ones 64-bit value (despite its name); used with ^ to complement a mask.',
  PTE_PERM_MASK: 'The entry bits a user may set.',
  PTE_PFN_SHIFT: 'Shift of the frame number in an entry (12).',
  DMAR_PTE_ADDR_SHIFT: 'Shift of the address in an IOMMU entry (12).',
}));

const PTE_DOC: ReadonlyMap<string, string> = new Map(Object.entries({
  PTE_P: 'Present bit (bit 0) of an x86 page-table entry.',
  PTE_W: 'Writable bit (bit 1).',
  PTE_U: 'User-accessible bit (bit 2).',
  PTE_PWT: 'Write-through bit (bit 3).',
  PTE_PCD: 'Cache-disable bit (bit 4).',
  PTE_A: 'Accessed bit (bit 5).',
  PTE_D: 'Dirty bit (bit 6).',
  PTE_PS: 'Page-size bit (bit 7).',
  PTE_G: 'Global bit (bit 8).',
  PTE_AVL: 'Bits 9-11, free for software use.',
  PTE_NX: 'Execute-disable bit (bit 63).',
  DMAR_PTE_R: 'IOMMU entry read permission (bit 0).',
  DMAR_PTE_W: 'IOMMU entry write permission (bit 1).',
  DMAR_PTE_SNP: 'IOMMU entry snoop bit (bit 11).',
  DMAR_PTE_TM: 'IOMMU entry transient-mapping bit (bit 62).',
}));

const SORT_DOC: ReadonlyMap<string, string> = new Map(Object.entries({
  bool_t: 'z3 Bool: flags such as killed and tlbinv.',
  pid_t: 'Process id, 64 bits; the C type is signed, so < and > compare signed.',
  fd_t: 'File descriptor, 32 bits and signed (C int): fd = -1 is invalid.',
  devid_t: 'PCI device id, 16 bits.',
  pn_t: 'RAM page number, 64 bits.',
  dmapn_t: 'DMA page number, 64 bits.',
  fn_t: 'File-table index, 64 bits; 0 means no file.',
  off_t: 'File offset, 64 bits and signed.',
  pte_t: 'x86 page-table entry, 64 bits.',
  dmar_pte_t: 'IOMMU page-table entry, 64 bits.',
  int: '32-bit bit-vector (the same as int32_t).',
}));

function sortDoc(name: string, width: number): string {
  const doc = SORT_DOC.get(name);
  if (doc) return doc;
  if (name.endsWith('_state_t') || name.endsWith('_type_t')) return `Enumeration values (${name.replace(/_t$/, '')}), forced to 64 bits.`;
  return `${width}-bit bit-vector (${name}).`;
}

function fieldDetail(f: FieldSchema): { detail: string; insertText?: string } {
  const width = (s: string | undefined) => {
    const w = s === undefined || !Object.hasOwn(K.SORTS, s) ? undefined : K.SORTS[s];
    return w === 0 ? 'Bool' : `${w}-bit`;
  };
  if (!f.struct) {
    const s = VALUE_SORT.get(f.path);
    return { detail: `${f.name} : ${s} (${width(s)})` };
  }
  const [i, j] = f.indexNames;
  if (f.kind === 'refcnt') {
    return { detail: `${f.struct}[${i}].${f.name}() : size_t; Refcnt(pid_t, ${OWNED_SORT.get(f.name)})`, insertText: `${f.name}()` };
  }
  if (f.kind === 'refcnt2') {
    return { detail: `${f.struct}[${i}].${f.name}() : size_t; Refcnt2(fn_t, (pid_t, fd_t))`, insertText: `${f.name}()` };
  }
  const s = VALUE_SORT.get(f.path);
  if (f.index.length === 2) {
    return { detail: `${f.struct}[${i}].${f.name}(${j}) : ${s} (${width(s)})`, insertText: `${f.name}(${j})` };
  }
  return { detail: `${f.struct}[${i}].${f.name} : ${s} (${width(s)})` };
}

function moduleEntries(m: ModuleValue, kind: CatalogKind, prefix: string): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  for (const [name, v] of m.attrs) {
    if (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'builtin' && v.info) {
      out.push({ label: name, kind, detail: `${prefix}${v.info.sig}`, doc: v.info.doc });
    }
  }
  return out;
}

let cached: CatalogEntry[] | undefined;

/** Every name of the dialect, for completion and hover. */
export function dialectCatalog(): CatalogEntry[] {
  if (cached) return cached;
  const out: CatalogEntry[] = [];
  for (const f of [...SCALARS, ...STRUCTS.flatMap((s) => s.fields)]) {
    out.push({ label: f.name, kind: 'field', ...fieldDetail(f), doc: (FIELD_DOC.get(f.path) ?? '') + (f.ghost ? ' Never compared with the C state.' : '') });
  }
  for (const s of STRUCTS) {
    out.push({
      label: s.name,
      kind: 'field',
      detail: `${s.name}[${s.indexName}] : ${s.className}`,
      doc: `The ${s.className} records, indexed by ${s.indexName}; old.${s.name}[i].<field> reads one.`,
    });
  }
  for (const [name, v] of Object.entries(DT_INTS)) {
    out.push({ label: name, kind: 'constant', detail: `dt.${name} = ${v} (Python int)`, doc: CONST_DOC.get(name) ?? 'A size limit (Python int).' });
  }
  for (const [name, v] of Object.entries(DT_BITVECS)) {
    const doc =
      CONST_DOC.get(name) ?? PTE_DOC.get(name) ?? 'Ghost kind of a page-table entry, stored in pgtable_type: what the entry points into.';
    out.push({ label: name, kind: 'constant', detail: `dt.${name} = 0x${v.toString(16)} : BitVec(64)`, doc });
  }
  for (const [name, w] of Object.entries(K.SORTS)) {
    out.push({ label: name, kind: 'sort', detail: `dt.${name} : ${w === 0 ? 'BoolSort' : `BitVecSort(${w})`}`, doc: sortDoc(name, w) });
  }
  for (const [e, members] of Object.entries(K.ENUMS)) {
    out.push({ label: e, kind: 'enum', detail: `dt.${e} : enum of ${e}_t (64-bit)`, doc: `Members are 64-bit constants: dt.${e}.${Object.keys(members)[0]}.` });
    for (const [m, v] of Object.entries(members)) {
      out.push({ label: m, kind: 'enum', detail: `dt.${e}.${m} = ${v <= 0xffffn ? v : `0x${v.toString(16)}`} : ${e}_t`, doc: `A member of dt.${e}.` });
    }
  }
  out.push(...moduleEntries(dtModule(), 'helper', 'dt.'));
  out.push(...moduleEntries(helpersModule(), 'helper', ''));
  out.push(...moduleEntries(z3Module(), 'z3', 'z3.'));
  out.push(...moduleEntries(utilModule(), 'util', 'util.'));
  out.push(
    { label: 'copy', kind: 'method', detail: 'old.copy() : KernelState', doc: 'A deep copy of the state; write the post-state into it.', insertText: 'copy()' },
    { label: 'flush_tlb', kind: 'method', detail: 'new.flush_tlb(pid)', doc: "Records a TLB flush of pid (sets procs[pid].tlbinv).", insertText: 'flush_tlb(' },
    { label: 'flush_iotlb', kind: 'method', detail: 'new.flush_iotlb()', doc: 'Records an IOTLB flush (sets iotlbinv).', insertText: 'flush_iotlb()' },
  );
  cached = out;
  return out;
}
