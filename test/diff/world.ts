/**
 * Random concrete kernel states and handler arguments for the differential
 * test (docs/differential.md). A case is a function of (handler, seed) only.
 *
 * The state mostly satisfies the representation invariants (docs/hv6-model.md §5.3):
 * a RUNNING valid `current`; live processes own a PML4 and two PROC_DATA
 * pages; sleeping ones own their IPC frame; a page is owned by a valid pid
 * iff it is not FREE; fd slots hold 0 or a valid fn with matching refcnts;
 * counters match what each process owns; page and ready-queue links are in
 * range. Around it: page tables with present, absent and junk entries,
 * IOMMU tables, DMA pages, devices, PCI pages, vectors, ports, remappings
 * and files. A few cases break one invariant on purpose (`Case.broken`),
 * which is how assert paths get exercised. Arguments are drawn per handler
 * so that every check of the handler both passes and fails: mostly values
 * that satisfy the check, otherwise one that violates it.
 */
import { rng } from '../../src/core/rng.ts';
import { HANDLERS, type HandlerInfo } from '../../src/core/kernel/handlers.ts';
import type { Layout } from './layout.ts';
import { State } from './state.ts';

export const NPROC = 64;
export const NPAGE = 8192;
export const NOFILE = 16;
export const NFILE = 128;
export const NDMAPAGE = 512;
export const NINTREMAP = 8;
export const NPCIPAGE = 393216;
const M64 = (1n << 64n) - 1n;

export const PT = { FREE: 0, RESERVED: 1, PROC_DATA: 2, FRAME: 3, PML4: 4, PDPT: 5, PD: 6, PT: 7, IOMMU_PML4: 8, IOMMU_PDPT: 9, IOMMU_PD: 10, IOMMU_PT: 11, IOMMU_FRAME: 12 } as const;
export const PS = { UNUSED: 0, EMBRYO: 1, RUNNABLE: 2, RUNNING: 3, SLEEPING: 4, ZOMBIE: 5 } as const;
const PTE_P = 1n;
const PTE_W = 2n;
const PTE_U = 4n;
const PTE_NX = 1n << 63n;

/** Seeded randomness (one stream per case). */
export class Rand {
  private readonly next: () => number;
  constructor(key: string) {
    this.next = rng(key);
  }
  float(): number {
    return this.next();
  }
  /** 0 .. n-1 */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from nothing');
    return xs[this.int(xs.length)];
  }
  u64(): bigint {
    let v = 0n;
    for (let i = 0; i < 4; i++) v = (v << 16n) | BigInt(this.int(65536));
    return v;
  }
  /** A value of `width` bits, often an edge case. */
  bits(width: number): bigint {
    const m = (1n << BigInt(width)) - 1n;
    switch (this.int(6)) {
      case 0: return this.pick([0n, 1n, m, m >> 1n, (m >> 1n) + 1n]);
      case 1: return BigInt(this.int(600));
      case 2: return m - BigInt(this.int(20));
      default: return this.u64() & m;
    }
  }
  /** Picks by weight; entries with weight 0 (or whose candidates are missing) are skipped. */
  weighted<T>(options: readonly (readonly [number, () => T | undefined])[]): T {
    const live = options.filter(([w]) => w > 0);
    for (let tries = 0; tries < 20 && live.length > 0; tries++) {
      const total = live.reduce((s, [w]) => s + w, 0);
      let x = this.float() * total;
      let k = 0;
      for (; k < live.length - 1; k++) {
        x -= live[k][0];
        if (x < 0) break;
      }
      const v = live[k][1]();
      if (v !== undefined) return v;
      live.splice(k, 1);
    }
    throw new Error('no option produced a value');
  }
}

interface Proc {
  readonly pid: number;
  state: number;
  ppid: number;
  root?: number;
  stack?: number;
  hvm?: number;
  useIo: boolean;
  ioA?: number;
  ioB?: number;
  ipcPage?: number;
  ipcFd: number;
  killed: boolean;
  readonly fds: Map<number, number>;
  /** A ZOMBIE child of current that owns nothing (what sys_reap frees). */
  readonly empty?: boolean;
}

interface Page {
  readonly type: number;
  readonly owner: number;
  /** Entries written into the page (index -> value). */
  readonly words: Map<number, bigint>;
}

/** A present table entry from page `from` (of type `fromType`) at `index` to page or DMA page `to`. */
interface Link {
  readonly from: number;
  readonly index: number;
  readonly to: number;
  readonly fromType: number;
}

interface Intremap {
  readonly state: number;
  readonly devid: number;
  readonly vector: number;
}

export interface Case {
  readonly handler: HandlerInfo;
  /** Index into HANDLERS (the driver's handler number). */
  readonly h: number;
  readonly seed: number;
  readonly state: State;
  readonly args: bigint[];
  /** The invariant this case breaks on purpose, if any. */
  readonly broken?: string;
}

const X86_SUB: Record<number, number> = { [PT.PML4]: PT.PDPT, [PT.PDPT]: PT.PD, [PT.PD]: PT.PT, [PT.PT]: PT.FRAME };
const IOMMU_SUB: Record<number, number> = { [PT.IOMMU_PML4]: PT.IOMMU_PDPT, [PT.IOMMU_PDPT]: PT.IOMMU_PD, [PT.IOMMU_PD]: PT.IOMMU_PT };

/** Builds one random world and draws a handler's arguments from it. */
export class World {
  readonly st: State;
  readonly r: Rand;
  current = 1;
  readonly procs = new Map<number, Proc>();
  readonly pages = new Map<number, Page>();
  readonly links: Link[] = [];
  readonly files = new Map<number, { type: number; refcnt: number }>();
  readonly devs = new Map<number, number>();
  readonly vectors = new Map<number, number>();
  readonly ports = new Map<number, number>();
  readonly dma = new Map<number, number>();
  readonly pcipns = new Map<number, { devid: number; valid: boolean }>();
  readonly intremaps = new Map<number, Intremap>();
  private readonly pnBase: number;
  /** FREE pages that still hold old data (free_page does not clear a page). */
  private readonly staleFree: number[] = [];
  /** Absent entries whose address bits still name a page of the right type (what a freed mapping leaves). */
  readonly staleLinks: Link[] = [];
  broken?: string;

  constructor(
    layout: Layout,
    private readonly addr: ReadonlyMap<string, bigint>,
    readonly handler: string,
    seed: number,
  ) {
    this.st = new State(layout);
    this.r = new Rand(`diff:${handler}:${seed}`);
    this.pnBase = this.r.chance(0.2) ? 0 : this.r.chance(0.1) ? NPAGE - 200 : this.r.int(NPAGE - 200);
    for (let k = 4 + this.r.int(6); k > 0; k--) {
      const pn = (this.pnBase + this.r.int(200)) % NPAGE;
      this.staleFree.push(pn);
      for (let w = 1 + this.r.int(4); w > 0; w--) this.st.set('pages', [pn, this.r.int(512)], this.r.u64());
    }
    this.build();
  }

  // ------------------------------------------------------------ addresses and entries

  private base(g: string): bigint {
    const a = this.addr.get(`&${g}`);
    if (a === undefined) throw new Error(`no address for ${g}`);
    return a;
  }

  /** The x86 entry mapping RAM page pn. */
  pte(pn: number, perm: bigint): bigint {
    return ((((this.base('pages') >> 12n) + BigInt(pn)) << 12n) | perm) & M64;
  }

  /** The IOMMU entry for RAM page pn (a byte address). */
  iopte(pn: number, perm: bigint): bigint {
    return (this.base('pages') + BigInt(pn) * 4096n) | perm;
  }

  dmaEntry(dmapn: number, perm: bigint): bigint {
    return (this.base('dmapages') + BigInt(dmapn) * 4096n) | perm;
  }

  // ------------------------------------------------------------ building

  /** A page number not used yet (near this world's window, sometimes 0 or the last page, often one with stale contents). */
  freePn(): number {
    const stale = this.staleFree.filter((pn) => !this.pages.has(pn));
    if (stale.length && this.r.chance(0.3)) return this.r.pick(stale);
    for (let i = 0; i < 1000; i++) {
      const pn = this.r.chance(0.03) ? this.r.pick([0, NPAGE - 1]) : (this.pnBase + this.r.int(200)) % NPAGE;
      if (!this.pages.has(pn)) return pn;
    }
    throw new Error('no free page');
  }

  private addPage(type: number, owner: number, pn = this.freePn()): number {
    this.pages.set(pn, { type, owner, words: new Map() });
    this.st.set('page_desc_table.type', [pn], type);
    this.st.set('page_desc_table.pid', [pn], owner);
    if (this.r.chance(0.7)) {
      this.st.set('page_desc_table.link.prev', [pn], this.r.int(NPAGE));
      this.st.set('page_desc_table.link.next', [pn], this.r.int(NPAGE));
    }
    return pn;
  }

  private setWord(pn: number, index: number, v: bigint): void {
    this.pages.get(pn)?.words.set(index, v);
    this.st.set('pages', [pn, index], v);
  }

  /** Random data words in a page. */
  private scribble(pn: number, n = this.r.int(5)): void {
    for (let i = 0; i < n; i++) this.setWord(pn, this.r.chance(0.3) ? this.r.pick([0, 1, 511]) : this.r.int(512), this.r.u64());
  }

  /** An index of `pn` with nothing written. */
  emptySlot(pn: number): number {
    const used = this.pages.get(pn)?.words;
    for (;;) {
      const i = this.r.chance(0.2) ? this.r.pick([0, 511]) : this.r.int(512);
      if (!used?.has(i)) return i;
    }
  }

  x86Perm(): bigint {
    return this.r.weighted<bigint>([
      [4, () => PTE_P | PTE_W | PTE_U],
      [3, () => PTE_P | PTE_U],
      [2, () => PTE_P],
      [1, () => PTE_P | PTE_W],
      [1, () => PTE_P | PTE_U | PTE_NX],
      [1, () => PTE_P | 0x18n | 0xe00n | PTE_W],
      [1, () => (this.r.u64() & 0x8000000000000e1fn) | PTE_P],
    ]);
  }

  /** Links a new page of the sub type from `from`, recursively down to `depth` more levels. */
  private grow(from: number, fromType: number, owner: number, depth: number, iommu: boolean): void {
    const n = 1 + this.r.int(2);
    for (let k = 0; k < n; k++) {
      const sub = iommu ? IOMMU_SUB[fromType] : X86_SUB[fromType];
      const index = this.emptySlot(from);
      if (iommu && fromType === PT.IOMMU_PT) {
        // IOMMU PT entries point at DMA pages.
        const d = this.newDma(owner);
        if (d === undefined) return;
        this.setWord(from, index, this.dmaEntry(d, BigInt(this.r.int(4))));
        this.links.push({ from, index, to: d, fromType });
        continue;
      }
      if (sub === undefined) return;
      const to = this.addPage(sub, owner);
      this.setWord(from, index, iommu ? this.iopte(to, BigInt(this.r.int(4))) : this.pte(to, this.x86Perm()));
      this.links.push({ from, index, to, fromType });
      if (sub === PT.FRAME) this.scribble(to, this.r.int(3));
      else if (depth > 0) this.grow(to, sub, owner, depth - 1, iommu);
    }
    // An absent entry that still names a page of the sub type (a mapping whose present bit was cleared).
    const sub = iommu ? IOMMU_SUB[fromType] : X86_SUB[fromType];
    const named = sub === undefined ? [] : this.pagesWhere(sub, owner);
    if (!iommu && named.length && this.r.chance(0.4)) {
      const to = this.r.pick(named);
      const index = this.emptySlot(from);
      this.setWord(from, index, this.pte(to, this.x86Perm() & ~PTE_P));
      this.staleLinks.push({ from, index, to, fromType });
    }
    // Junk beside the real entries: present entries to nowhere in particular, absent ones with bits set.
    for (let k = this.r.int(3); k > 0; k--) {
      const v = this.r.chance(0.5) ? (this.r.u64() | PTE_P) : this.r.chance(0.5) ? (this.r.u64() & ~PTE_P) : PTE_W | PTE_U;
      this.setWord(from, this.emptySlot(from), v);
    }
  }

  private newDma(owner: number): number | undefined {
    for (let i = 0; i < 50; i++) {
      const d = this.r.chance(0.05) ? this.r.pick([0, NDMAPAGE - 1]) : this.r.int(NDMAPAGE);
      if (this.dma.has(d)) continue;
      this.dma.set(d, owner);
      this.st.set('dmapage_desc_table.type', [d], PT.IOMMU_FRAME);
      this.st.set('dmapage_desc_table.pid', [d], owner);
      return d;
    }
    return undefined;
  }

  private unusedPid(): number | undefined {
    const free = [];
    for (let p = 1; p < NPROC; p++) if (!this.procs.has(p)) free.push(p);
    return free.length ? this.r.pick(free) : undefined;
  }

  private newDevid(): number {
    for (;;) {
      const d = this.r.chance(0.5) ? this.r.int(16) : this.r.chance(0.1) ? 0xffff : this.r.int(65536);
      if (!this.devs.has(d)) return d;
    }
  }

  private build(): void {
    const r = this.r;
    const h = this.handler;

    // Processes: current first; pid 1 (init) often among them.
    const n = 2 + r.int(6);
    const pids: number[] = [];
    while (pids.length < n) {
      const p = r.chance(0.15) && !pids.includes(1) ? 1 : r.chance(0.1) ? NPROC - 1 : 1 + r.int(NPROC - 1);
      if (!pids.includes(p)) pids.push(p);
    }
    this.current = pids[0];
    for (const pid of pids) {
      const state = pid === this.current ? PS.RUNNING : r.pick([PS.EMBRYO, PS.RUNNABLE, PS.RUNNABLE, PS.SLEEPING, PS.SLEEPING, PS.ZOMBIE, PS.ZOMBIE]);
      this.procs.set(pid, { pid, state, ppid: 0, useIo: false, ipcFd: 0, killed: false, fds: new Map() });
    }
    // Often an empty ZOMBIE child of current (what sys_reap can free).
    if (r.chance(h === 'sys_reap' ? 0.7 : 0.3)) {
      const z = this.unusedPid();
      if (z !== undefined) this.procs.set(z, { pid: z, state: PS.ZOMBIE, ppid: this.current, useIo: false, ipcFd: 0, killed: true, fds: new Map(), empty: true });
    }
    const all = [...this.procs.values()];
    for (const p of all) {
      if (p.pid === this.current) p.ppid = r.chance(0.5) ? 0 : r.pick(pids);
      else if (p.ppid === 0) p.ppid = r.weighted<number>([
        [6, () => this.current],
        [2, () => r.pick(pids)],
        [1, () => 0],
        [1, () => 1 + r.int(NPROC - 1)],
      ]);
      p.killed = p.state === PS.ZOMBIE ? r.chance(0.8) : r.chance(0.15);
    }

    for (const p of all) {
      const live = p.state !== PS.ZOMBIE;
      const empty = p.empty === true;
      if (!empty && (live || r.chance(0.7))) {
        p.root = this.addPage(PT.PML4, p.pid);
        p.stack = this.addPage(PT.PROC_DATA, p.pid);
        p.hvm = this.addPage(PT.PROC_DATA, p.pid);
        this.scribble(p.stack);
        this.scribble(p.hvm);
        if (p.pid === this.current || r.chance(0.6)) this.grow(p.root, PT.PML4, p.pid, 3, false);
        else this.scribble(p.root, r.int(2));
        for (let k = r.int(3); k > 0; k--) this.scribble(this.addPage(r.pick([PT.FRAME, PT.FRAME, PT.PT, PT.PD, PT.PROC_DATA]), p.pid), 2);
      }
      const wantIo = p.pid === this.current ? (h === 'sys_alloc_port' ? 0.8 : h === 'sys_alloc_io_bitmap' ? 0.25 : 0.4) : 0.2;
      if (!empty && r.chance(wantIo)) {
        p.useIo = true;
        p.ioA = this.addPage(PT.PROC_DATA, p.pid);
        p.ioB = this.pages.has(p.ioA + 1) || p.ioA + 1 >= NPAGE ? this.addPage(PT.PROC_DATA, p.pid) : this.addPage(PT.PROC_DATA, p.pid, p.ioA + 1);
        for (const b of [p.ioA, p.ioB]) for (let k = r.int(4); k > 0; k--) this.setWord(b, r.int(512), r.chance(0.7) ? M64 : r.u64());
      }
      if (p.state === PS.SLEEPING) {
        p.ipcPage = this.addPage(PT.FRAME, p.pid);
        this.scribble(p.ipcPage);
      }
      // Files in some slots.
      for (let k = empty ? 0 : r.int(4); k > 0; k--) {
        const fd = r.chance(0.2) ? r.pick([0, NOFILE - 1]) : r.int(NOFILE);
        const fn = this.files.size > 0 && r.chance(0.4) ? r.pick([...this.files.keys()]) : r.chance(0.1) ? NFILE - 1 : 1 + r.int(NFILE - 1);
        if (p.fds.has(fd)) continue;
        p.fds.set(fd, fn);
        if (!this.files.has(fn)) this.files.set(fn, { type: 1 + r.int(3), refcnt: 0 });
        this.files.get(fn)!.refcnt++;
      }
      if (p.state === PS.SLEEPING) {
        p.ipcFd = r.weighted<number>([
          [3, () => { const fd = r.int(NOFILE); return p.fds.has(fd) ? undefined : fd; }],
          [2, () => -1],
          [1, () => NOFILE],
          [1, () => Number(BigInt.asIntN(32, r.bits(32)))],
        ]);
      }
    }

    // Devices, their IOMMU tables and DMA pages; PCI pages; vectors; ports; remappings.
    for (const p of all) {
      if (p.empty) continue;
      if (p.pid !== this.current && p.state !== PS.ZOMBIE && !r.chance(0.3)) continue;
      if (p.pid === this.current ? !r.chance(0.7) : !r.chance(0.5)) continue;
      for (let k = 1 + r.int(2); k > 0; k--) {
        const devid = this.newDevid();
        this.devs.set(devid, p.pid);
        if (r.chance(0.8) && p.state !== PS.UNUSED) {
          const root = this.addPage(PT.IOMMU_PML4, p.pid);
          this.grow(root, PT.IOMMU_PML4, p.pid, 2, true);
        }
      }
    }
    for (const p of all) if (!p.empty && r.chance(0.2)) this.newDma(p.pid);
    const devids = [...this.devs.keys()];
    for (let k = 1 + r.int(4); k > 0; k--) {
      const pcipn = r.chance(0.6) ? r.int(64) : r.chance(0.1) ? NPCIPAGE - 1 : r.int(NPCIPAGE);
      const devid = devids.length && r.chance(0.8) ? r.pick(devids) : r.int(65536);
      this.pcipns.set(pcipn, { devid, valid: r.chance(0.85) });
    }
    for (let v = 0; v < 32; v++) this.vectors.set(v, -1);
    for (let k = r.int(6); k > 0; k--) this.vectors.set(32 + r.int(224), r.chance(0.9) ? r.pick(pids) : -1);
    for (let k = r.int(6); k > 0; k--) {
      const port = r.chance(0.5) ? r.int(0x100) : r.chance(0.5) ? 0x8000 + r.int(0x100) : r.int(65536);
      this.ports.set(port, r.chance(0.85) ? r.pick(pids) : -1);
    }
    const ownedVectors = [...this.vectors].filter(([, o]) => o > 0);
    for (let k = r.int(5); k > 0; k--) {
      const i = r.int(NINTREMAP);
      if (devids.length && r.chance(0.8)) {
        const devid = r.pick(devids);
        const vector = ownedVectors.length && r.chance(0.8) ? r.pick(ownedVectors)[0] : r.int(256);
        this.intremaps.set(i, { state: 1, devid, vector });
      } else if (r.chance(0.5)) {
        this.intremaps.set(i, { state: 0, devid: r.int(65536), vector: r.int(256) });
      }
    }

    this.writeProcs();
    this.writeTables();
  }

  private writeProcs(): void {
    const r = this.r;
    const st = this.st;
    this.st.set('current', [], this.current);
    const count = (pid: number) => {
      let pages = 0;
      for (const pg of this.pages.values()) if (pg.owner === pid) pages++;
      let intremaps = 0;
      for (const ir of this.intremaps.values()) if (ir.state === 1 && this.devs.get(ir.devid) === pid) intremaps++;
      const own = (m: Map<number, number>) => [...m.values()].filter((o) => o === pid).length;
      return {
        nr_children: [...this.procs.values()].filter((q) => q.ppid === pid).length,
        nr_fds: this.procs.get(pid)?.fds.size ?? 0,
        nr_pages: pages,
        nr_dmapages: own(this.dma),
        nr_devs: own(this.devs),
        nr_ports: own(this.ports),
        nr_vectors: own(this.vectors),
        nr_intremaps: intremaps,
      };
    };
    for (const p of this.procs.values()) {
      const i = [p.pid];
      st.set('proc_table.state', i, p.state);
      st.set('proc_table.ppid', i, p.ppid);
      // Invariant: every process's root/stack/hvm is a valid pn, whatever its state.
      st.set('proc_table.page_table_root', i, p.root ?? (r.chance(0.5) ? 0 : r.int(NPAGE)));
      st.set('proc_table.stack', i, p.stack ?? (r.chance(0.5) ? 0 : r.int(NPAGE)));
      st.set('proc_table.hvm', i, p.hvm ?? (r.chance(0.5) ? 0 : r.int(NPAGE)));
      st.set('proc_table.use_io_bitmap', i, p.useIo ? (r.chance(0.8) ? 1 : 1 + r.int(1000)) : 0);
      st.set('proc_table.io_bitmap_a', i, p.ioA ?? (r.chance(0.7) ? 0 : r.int(NPAGE)));
      st.set('proc_table.io_bitmap_b', i, p.ioB ?? (r.chance(0.7) ? 0 : r.int(NPAGE)));
      for (const [fd, fn] of p.fds) st.set('proc_table.ofile', [p.pid, fd], fn);
      for (const [k, v] of Object.entries(count(p.pid))) st.set(`proc_table.${k}`, i, v);
      st.set('proc_table.launched', i, r.int(2));
      st.set('proc_table.killed', i, p.killed ? (r.chance(0.8) ? 1 : r.bits(32)) : 0);
      st.set('proc_table.ipc_from', i, r.weighted<number>([[3, () => 0], [2, () => this.current], [2, () => r.pick([...this.procs.keys()])]]));
      st.set('proc_table.ipc_val', i, r.chance(0.5) ? 0n : r.u64());
      st.set('proc_table.ipc_page', i, p.ipcPage ?? (r.chance(0.5) ? 0 : r.int(NPAGE)));
      st.set('proc_table.ipc_size', i, r.chance(0.5) ? 0 : r.int(513));
      st.set('proc_table.ipc_fd', i, p.ipcFd);
      for (let w = 0; w < 4; w++) if (r.chance(0.3)) st.set('proc_table.intr', [p.pid, w], r.u64());
      if (r.chance(0.3)) st.set('proc_table.name', [p.pid, r.int(2)], r.u64());
    }
    // Ready-queue links of every slot stay below NPROC (invariant 10).
    for (let k = 3 + r.int(6); k > 0; k--) {
      const pid = r.chance(0.6) ? r.pick([...this.procs.keys()]) : r.int(NPROC);
      st.set('proc_table.ready.prev', [pid], r.int(NPROC));
      st.set('proc_table.ready.next', [pid], r.int(NPROC));
    }
    // An unused slot now and then carries leftovers (only the counters must be 0).
    if (r.chance(0.3)) {
      const u = this.unusedPid();
      if (u !== undefined) {
        st.set('proc_table.ppid', [u], r.pick([0, this.current]));
        st.set('proc_table.stack', [u], r.int(NPAGE));
        st.set('proc_table.killed', [u], 1);
      }
    }
  }

  private writeTables(): void {
    const r = this.r;
    const st = this.st;
    for (const [fn, f] of this.files) {
      st.set('file_table.type', [fn], f.type);
      st.set('file_table.refcnt', [fn], f.refcnt);
      st.set('file_table.value', [fn], r.u64());
      st.set('file_table.omode', [fn], r.int(4));
      st.set('file_table.offset', [fn], r.chance(0.5) ? 0 : r.u64());
    }
    // Free files: refcnt 0, sometimes with a stale type.
    for (let k = r.int(3); k > 0; k--) {
      const fn = 1 + r.int(NFILE - 1);
      if (this.files.has(fn)) continue;
      this.files.set(fn, { type: 0, refcnt: 0 });
      if (r.chance(0.3)) st.set('file_table.type', [fn], 1 + r.int(3));
      if (r.chance(0.3)) st.set('file_table.offset', [fn], r.u64());
    }
    for (const [devid, owner] of this.devs) st.set('pci_table', [devid], owner);
    for (const [pcipn, x] of this.pcipns) {
      st.set('pcipages.devid', [pcipn], x.devid);
      st.set('pcipages.valid', [pcipn], x.valid ? 1 : 0);
    }
    for (const [v, owner] of this.vectors) st.set('vector_table', [v], owner);
    for (const [port, owner] of this.ports) st.set('io_table', [port], owner);
    for (const [i, ir] of this.intremaps) {
      st.set('intremap_table.state', [i], ir.state);
      st.set('intremap_table.devid', [i], ir.devid);
      st.set('intremap_table.vector', [i], ir.vector);
    }
    // Devices' metadata and DMA page bytes are never touched by a handler; set a little anyway.
    if (r.chance(0.3)) st.set('devices.reg_base', [r.int(64), r.int(6)], r.u64());
    if (r.chance(0.3)) st.set('dmapages', [r.int(NDMAPAGE), r.int(4096)], r.int(256));
    // The free-list head's links.
    if (r.chance(0.5)) {
      st.set('page_desc_table.link.prev', [0], r.int(NPAGE));
      st.set('page_desc_table.link.next', [0], r.int(NPAGE));
    }
  }

  /**
   * About one case in ten breaks one invariant, aimed at what the handler's
   * arguments touch, so that the kernel's asserts (and, for the ready-queue
   * and table-index invariants, its array bounds) are exercised. Returns the
   * arguments, possibly changed.
   */
  breakFor(handler: HandlerInfo, args: bigint[]): bigint[] {
    const r = this.r;
    if (!r.chance(0.1)) return args;
    const st = this.st;
    const pidArgs = handler.args.flatMap((a, i) => (a.sort === 'pid_t' && args[i] > 0n && args[i] < BigInt(NPROC) ? [Number(args[i])] : []));
    const procs = [this.current, ...pidArgs];
    const pnArgs = handler.args.flatMap((a, i) => (a.sort === 'pn_t' && this.pages.has(Number(args[i])) && args[i] < BigInt(NPAGE) ? [Number(args[i])] : []));
    const fdArgs = handler.args.flatMap((a, i) => (a.sort === 'fd_t' && args[i] < BigInt(NOFILE) ? [Number(args[i])] : []));
    const bad = () => r.pick([0n, 64n, M64, 1000n]);
    const options: (() => string | undefined)[] = [
      () => {
        const c = r.pick([0, NPROC, -1]);
        st.set('current', [], c);
        return `current is ${c}`;
      },
      () => {
        const s = r.pick([PS.EMBRYO, PS.RUNNABLE, PS.SLEEPING, PS.ZOMBIE]);
        st.set('proc_table.state', [this.current], s);
        // With the argument pid = current: the kernel asserts it is not.
        if (handler.args[0]?.sort === 'pid_t' && r.chance(0.7)) args = [BigInt(this.current), ...args.slice(1)];
        return `current's state is ${s}`;
      },
      () => {
        if (!pnArgs.length) return undefined;
        const pn = r.pick(pnArgs);
        const owner = bad();
        st.set('page_desc_table.pid', [pn], owner);
        return `page ${pn} is owned by ${BigInt.asIntN(64, owner)}`;
      },
      () => {
        const p = r.pick(procs);
        const fd = fdArgs.length && r.chance(0.8) ? r.pick(fdArgs) : r.int(NOFILE);
        const fn = r.pick([NFILE, NFILE + 1, 0x1000]);
        st.set('proc_table.ofile', [p, fd], fn);
        return `proc ${p} fd ${fd} holds fn ${fn}`;
      },
      () => {
        const p = r.pick(procs);
        const fd = r.int(NOFILE);
        st.set('proc_table.ipc_fd', [p], fd);
        st.set('proc_table.ofile', [p, fd], 1 + r.int(NFILE - 1));
        return `proc ${p} has its ipc_fd ${fd} occupied`;
      },
      () => {
        const p = r.pick(procs);
        const f = r.pick(['stack', 'hvm', 'ipc_page', 'io_bitmap_a', 'io_bitmap_b', 'page_table_root']);
        const pn = r.pick([BigInt(NPAGE), BigInt(NPAGE + 7), M64]);
        st.set(`proc_table.${f}`, [p], pn);
        if (f.startsWith('io_')) st.set('proc_table.use_io_bitmap', [p], 1);
        return `proc ${p} has ${f} ${pn}`;
      },
      () => {
        const p = r.pick(procs);
        const f = r.pick(['prev', 'next']);
        const v = r.pick([BigInt(NPROC), 1000n, M64]);
        st.set(`proc_table.ready.${f}`, [p], v);
        return `proc ${p} has ready.${f} ${BigInt.asIntN(64, v)}`;
      },
      () => {
        const p = r.pick(procs);
        const f = r.pick(['nr_pages', 'nr_fds', 'nr_children', 'nr_devs', 'nr_intremaps']);
        st.set(`proc_table.${f}`, [p], r.pick([0n, M64]));
        return `proc ${p} has ${f} off`;
      },
      () => {
        const v = 32 + r.int(224);
        const owner = bad();
        st.set('vector_table', [v], owner);
        return `vector ${v} is owned by ${BigInt.asIntN(64, owner)}`;
      },
    ];
    for (let tries = 0; tries < 10; tries++) {
      const what = r.pick(options)();
      if (what !== undefined) {
        this.broken = what;
        return args;
      }
    }
    return args;
  }

  // ------------------------------------------------------------ argument pools

  private procsWhere(f: (p: Proc) => boolean): number[] {
    return [...this.procs.values()].filter(f).map((p) => p.pid);
  }

  some(xs: readonly number[]): number | undefined {
    return xs.length ? this.r.pick(xs) : undefined;
  }

  /** A pid that is not a valid one. */
  badPid(): bigint {
    return this.r.pick([0n, 64n, 65n, M64, 1n << 63n, this.r.u64()]);
  }

  pid(goodWeight: number, good: () => number | undefined): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [goodWeight, () => { const p = good(); return p === undefined ? undefined : BigInt(p); }],
      [1.5, () => BigInt(r.pick([...this.procs.keys()]))],
      [0.5, () => { const p = this.unusedPid(); return p === undefined ? undefined : BigInt(p); }],
      [0.7, () => this.badPid()],
    ]);
  }

  /** current, or an embryo child of current. */
  ownOrEmbryo(): number | undefined {
    return this.r.chance(0.5) ? this.current : this.some(this.procsWhere((p) => p.state === PS.EMBRYO && p.ppid === this.current)) ?? this.current;
  }

  pagesWhere(type: number | undefined, owner: number | undefined): number[] {
    const out: number[] = [];
    for (const [pn, p] of this.pages) if ((type === undefined || p.type === type) && (owner === undefined || p.owner === owner)) out.push(pn);
    return out;
  }

  /** A pn: mostly of `type` owned by `owner`, else of another type or owner, FREE, or invalid. */
  pn(type: number | undefined, owner: number | undefined, good = 6): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [good, () => { const p = this.some(this.pagesWhere(type, owner)); return p === undefined ? undefined : BigInt(p); }],
      [1, () => { const p = this.some(this.pagesWhere(type, undefined)); return p === undefined ? undefined : BigInt(p); }],
      [1, () => { const p = this.some(this.pagesWhere(undefined, owner)); return p === undefined ? undefined : BigInt(p); }],
      [0.7, () => BigInt(this.freePn())],
      [0.5, () => r.pick([BigInt(NPAGE), BigInt(NPAGE + 1), M64, r.u64()])],
    ]);
  }

  /** A FREE pn mostly, else a used one or an invalid one. */
  freeArg(good = 6): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [good, () => BigInt(this.freePn())],
      [1, () => BigInt(r.pick([...this.pages.keys()]))],
      [0.5, () => r.pick([BigInt(NPAGE), M64, r.u64()])],
    ]);
  }

  /** An entry index of page pn: mostly empty, else written, else out of range. */
  index(pn: bigint, emptyWeight = 5): bigint {
    const r = this.r;
    const p = pn < BigInt(NPAGE) ? Number(pn) : -1;
    return r.weighted<bigint>([
      [emptyWeight, () => BigInt(this.emptySlot(p))],
      [2, () => { const w = this.pages.get(p)?.words; return w && w.size ? BigInt(r.pick([...w.keys()])) : undefined; }],
      [0.6, () => r.pick([512n, 513n, M64, r.u64()])],
    ]);
  }

  /** x86 permission bits: mostly allowed and present, else without P, with a forbidden bit, or random. */
  perm(allowW = true): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [6, () => { const p = this.x86Perm(); return allowW ? p : p & ~PTE_W; }],
      [allowW ? 0 : 1.5, () => this.x86Perm() | PTE_W],
      [1, () => this.x86Perm() & ~PTE_P],
      [1, () => this.x86Perm() | r.pick([0x20n, 0x40n, 0x80n, 0x100n, 1n << 12n, 1n << 40n, 1n << 62n])],
      [0.5, () => r.u64()],
    ]);
  }

  ioPerm(): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [6, () => BigInt(r.int(4))],
      [1, () => r.pick([4n, 0x800n, 1n << 62n, 5n])],
      [0.5, () => r.u64()],
    ]);
  }

  /** A present link at level `fromType` (of current, mostly). */
  link(fromType: number, owner?: number): Link | undefined {
    const ls = this.links.filter((l) => l.fromType === fromType && (owner === undefined || this.pages.get(l.from)?.owner === owner));
    return ls.length ? this.r.pick(ls) : undefined;
  }

  fd(p: number | undefined, want: 'used' | 'empty' | 'any', good = 6): bigint {
    const r = this.r;
    const fds = p === undefined ? new Map<number, number>() : (this.procs.get(p)?.fds ?? new Map<number, number>());
    const empty = () => { for (let i = 0; i < 30; i++) { const f = r.int(NOFILE); if (!fds.has(f)) return BigInt(f); } return undefined; };
    const used = () => (fds.size ? BigInt(r.pick([...fds.keys()])) : undefined);
    return r.weighted<bigint>([
      [want === 'used' ? good : want === 'empty' ? 1.5 : 3, used],
      [want === 'empty' ? good : want === 'used' ? 1.5 : 3, empty],
      [1, () => r.pick([0xffffffffn, 16n, 17n, 0x80000000n, 0x7fffffffn, r.bits(32)])],
    ]);
  }

  fn(free: boolean): bigint {
    const r = this.r;
    const frees = [...this.files].filter(([, f]) => f.refcnt === 0).map(([fn]) => fn);
    const used = [...this.files].filter(([, f]) => f.refcnt > 0).map(([fn]) => fn);
    return r.weighted<bigint>([
      [free ? 5 : 1, () => { const f = this.some(frees) ?? 1 + r.int(NFILE - 1); return this.files.get(f)?.refcnt ? undefined : BigInt(f); }],
      [free ? 1 : 5, () => { const f = this.some(used); return f === undefined ? undefined : BigInt(f); }],
      [0.7, () => r.pick([0n, 128n, 129n, M64, r.u64()])],
    ]);
  }

  size(): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [5, () => BigInt(r.int(513))],
      [2, () => r.pick([0n, 511n, 512n, 4095n, 4096n])],
      [1, () => r.pick([4097n, M64, r.u64()])],
    ]);
  }

  vector(owned: 'current' | 'zombie' | 'free' | 'owned'): bigint {
    const r = this.r;
    const by = (f: (o: number) => boolean) => this.some([...this.vectors].filter(([, o]) => f(o)).map(([v]) => v));
    const zombie = (o: number) => this.procs.get(o)?.state === PS.ZOMBIE;
    return BigInt(r.weighted<number>([
      [owned === 'current' ? 5 : 1, () => by((o) => o === this.current)],
      [owned === 'zombie' ? 5 : 1, () => by(zombie)],
      [owned === 'owned' ? 5 : 1, () => by((o) => o > 0)],
      [owned === 'free' ? 5 : 1, () => { for (;;) { const v = r.int(256); if (!this.vectors.has(v)) return v; } }],
      [0.5, () => r.int(32)],
    ]));
  }

  devid(owned: 'current' | 'zombie' | 'free'): bigint {
    const r = this.r;
    const by = (f: (o: number) => boolean) => this.some([...this.devs].filter(([, o]) => f(o)).map(([d]) => d));
    return BigInt(r.weighted<number>([
      [owned === 'current' ? 5 : 1, () => by((o) => o === this.current)],
      [owned === 'zombie' ? 5 : 1, () => by((o) => this.procs.get(o)?.state === PS.ZOMBIE)],
      [1, () => by(() => true)],
      [owned === 'free' ? 5 : 1, () => this.newDevid()],
    ]));
  }

  dmapn(owner: 'current' | 'zombie' | 'free'): bigint {
    const r = this.r;
    const by = (f: (o: number) => boolean) => this.some([...this.dma].filter(([, o]) => f(o)).map(([d]) => d));
    return r.weighted<bigint>([
      [owner === 'current' ? 5 : 1, () => { const d = by((o) => o === this.current); return d === undefined ? undefined : BigInt(d); }],
      [owner === 'zombie' ? 5 : 1, () => { const d = by((o) => this.procs.get(o)?.state === PS.ZOMBIE); return d === undefined ? undefined : BigInt(d); }],
      [1, () => { const d = by(() => true); return d === undefined ? undefined : BigInt(d); }],
      [owner === 'free' ? 5 : 1, () => { for (;;) { const d = r.int(NDMAPAGE); if (!this.dma.has(d)) return BigInt(d); } }],
      [0.5, () => r.pick([BigInt(NDMAPAGE), M64, r.u64()])],
    ]);
  }

  port(owned: 'zombie' | 'free'): bigint {
    const r = this.r;
    const by = (f: (o: number) => boolean) => this.some([...this.ports].filter(([, o]) => f(o)).map(([p]) => p));
    return BigInt(r.weighted<number>([
      [owned === 'zombie' ? 5 : 1, () => by((o) => this.procs.get(o)?.state === PS.ZOMBIE)],
      [1.5, () => by(() => true)],
      [owned === 'free' ? 5 : 1, () => { for (;;) { const p = r.chance(0.5) ? r.int(0x200) : r.int(65536); if (!this.ports.has(p)) return p; } }],
      [0.5, () => r.pick([0x7fff, 0x8000, 0xffff])],
    ]));
  }

  intremapIndex(state: 0 | 1): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [5, () => { const is = [...Array(NINTREMAP).keys()].filter((i) => (this.intremaps.get(i)?.state ?? 0) === state); return is.length ? BigInt(r.pick(is)) : undefined; }],
      [2, () => BigInt(r.int(NINTREMAP))],
      [0.7, () => r.pick([8n, 9n, M64, r.u64()])],
    ]);
  }

  pcipn(): bigint {
    const r = this.r;
    return r.weighted<bigint>([
      [5, () => { const ps = [...this.pcipns].filter(([, x]) => x.valid && this.devs.get(x.devid) === this.current).map(([p]) => p); return ps.length ? BigInt(r.pick(ps)) : undefined; }],
      [2, () => (this.pcipns.size ? BigInt(r.pick([...this.pcipns.keys()])) : undefined)],
      [1, () => BigInt(r.int(NPCIPAGE))],
      [0.5, () => r.pick([BigInt(NPCIPAGE), M64, r.u64()])],
    ]);
  }
}

// ------------------------------------------------------------------ per handler

type ArgGen = (w: World) => bigint[];

const M = (n: number) => BigInt(n);

function mapPage(w: World, fromType: number, rest: (w: World, pid: bigint, from: bigint) => bigint[]): bigint[] {
  const pid = w.pid(6, () => w.ownOrEmbryo());
  const owner = pid < 64n ? Number(pid) : undefined;
  const from = w.pn(fromType, owner);
  return rest(w, pid, from);
}

function kernelTable(pages: number): ArgGen {
  return (w) => mapPage(w, PT.PT, (w2, pid, from) => {
    const n = w2.r.weighted<bigint>([[6, () => M(w2.r.int(pages))], [1, () => M(pages)], [0.5, () => w2.r.pick([M(pages + 1), M64, w2.r.u64()])]]);
    return [pid, from, w2.index(from), n, w2.perm(false)];
  });
}

function allocTable(fromType: number): ArgGen {
  return (w) => mapPage(w, fromType, (w2, pid, from) => [pid, from, w2.index(from), w2.freeArg(), w2.perm()]);
}

/** (from, index, to) of a present link of current at `fromType`, sometimes perturbed. */
function linkArgs(w: World, fromType: number): [bigint, bigint, bigint] {
  const r = w.r;
  const stale = w.staleLinks.filter((x) => x.fromType === fromType && w.pages.get(x.from)?.owner === w.current);
  const l = stale.length && r.chance(0.15) ? r.pick(stale) : w.link(fromType, r.chance(0.85) ? w.current : undefined);
  if (!l || r.chance(0.15)) {
    const from = w.pn(fromType, w.current);
    return [from, w.index(from, 2), w.pn(X86_SUB[fromType] ?? IOMMU_SUB[fromType], w.current)];
  }
  let from = M(l.from);
  let index = M(l.index);
  let to = M(l.to);
  switch (r.int(8)) {
    case 0: index = w.index(from); break;
    case 1: to = w.pn(X86_SUB[fromType], w.current); break;
    case 2: from = w.pn(fromType, undefined); break;
    case 3: to = r.pick([to + 1n, to - 1n, M(NPAGE), M64]); break;
    default: break;
  }
  return [from, index, to];
}

function freeTable(fromType: number): ArgGen {
  return (w) => linkArgs(w, fromType);
}

function iommuTable(fromType: number): ArgGen {
  return (w) => {
    const from = w.pn(fromType, w.current);
    return [from, w.index(from), w.freeArg(), w.ioPerm()];
  };
}

const zombieOwner = (w: World) => w.some([...w.procs.values()].filter((p) => p.state === PS.ZOMBIE).map((p) => p.pid));

export const ARGS: Record<string, ArgGen> = {
  sys_map_pml4: (w) => {
    const pid = w.pid(6, () => w.ownOrEmbryo());
    const root = pid < 64n ? w.st.get('proc_table.page_table_root', [pid]) : 0n;
    return [pid, w.index(root), w.perm(false)];
  },
  sys_map_page_desc: kernelTable(64),
  sys_map_proc: kernelTable(6),
  sys_map_dev: kernelTable(2),
  sys_map_file: kernelTable(2),
  sys_alloc_pdpt: allocTable(PT.PML4),
  sys_alloc_pd: allocTable(PT.PDPT),
  sys_alloc_pt: allocTable(PT.PD),
  sys_alloc_frame: allocTable(PT.PT),
  sys_copy_frame: (w) => {
    const pid = w.pid(6, () => w.ownOrEmbryo());
    return [w.pn(PT.FRAME, w.current), pid, w.pn(PT.FRAME, pid < 64n ? Number(pid) : undefined)];
  },
  sys_protect_frame: (w) => {
    const [pt, index, frame] = linkArgs(w, PT.PT);
    return [pt, index, frame, w.perm()];
  },
  sys_free_pdpt: freeTable(PT.PML4),
  sys_free_pd: freeTable(PT.PDPT),
  sys_free_pt: freeTable(PT.PD),
  sys_free_frame: freeTable(PT.PT),
  sys_reclaim_page: (w) => [w.pn(undefined, w.r.chance(0.7) ? zombieOwner(w) : undefined)],
  clone_proc: (w) => {
    const r = w.r;
    const pid = w.r.weighted<bigint>([
      [6, () => { for (let i = 0; i < 50; i++) { const p = 1 + r.int(63); if (!w.procs.has(p)) return M(p); } return undefined; }],
      [1.5, () => M(r.pick([...w.procs.keys()]))],
      [0.7, () => w.badPid()],
    ]);
    const a = w.freeArg(8);
    const b = r.chance(0.1) ? a : w.freeArg(8);
    const c = r.chance(0.1) ? r.pick([a, b]) : w.freeArg(8);
    return [pid, a, b, c];
  },
  sys_set_proc_name: (w) => [w.r.u64(), w.r.bits(64)],
  sys_set_runnable: (w) => [w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.EMBRYO).map((p) => p.pid)))],
  switch_proc: (w) => [w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.RUNNABLE).map((p) => p.pid)))],
  sys_kill: (w) => [w.pid(2, () => w.current)],
  sys_reap: (w) => [w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.ZOMBIE).map((p) => p.pid)))],
  sys_reparent: (w) => [w.pid(5, () => w.some([...w.procs.values()].filter((p) => w.procs.get(p.ppid)?.state === PS.ZOMBIE).map((p) => p.pid)))],
  send_proc: (w) => {
    const pid = w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.SLEEPING).map((p) => p.pid)));
    return [pid, w.r.u64(), w.pn(undefined, w.current), w.size(), w.fd(w.current, 'used')];
  },
  recv_proc: (w) => {
    const pid = w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.RUNNABLE).map((p) => p.pid)));
    return [pid, w.pn(PT.FRAME, w.current), w.fd(w.current, 'empty')];
  },
  reply_wait_proc: (w) => {
    const pid = w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.SLEEPING).map((p) => p.pid)));
    return [pid, w.r.u64(), w.pn(undefined, w.current), w.size(), w.fd(w.current, 'used'), w.pn(PT.FRAME, w.current)];
  },
  call_proc: (w) => {
    const pid = w.pid(5, () => w.some([...w.procs.values()].filter((p) => p.state === PS.SLEEPING).map((p) => p.pid)));
    return [pid, w.r.u64(), w.pn(undefined, w.current), w.size(), w.pn(PT.FRAME, w.current), w.fd(w.current, 'empty')];
  },
  sys_create: (w) => {
    const r = w.r;
    const type = r.weighted<bigint>([[6, () => M(1 + r.int(3))], [1, () => 0n], [0.5, () => r.u64()]]);
    return [w.fd(w.current, 'empty'), w.fn(true), type, r.u64(), r.bits(64)];
  },
  sys_close: (w) => {
    const pid = w.pid(6, () => (w.r.chance(0.6) ? w.current : zombieOwner(w)));
    return [pid, w.fd(pid < 64n ? Number(pid) : undefined, 'used')];
  },
  sys_dup: (w) => {
    const pid = w.pid(6, () => w.ownOrEmbryo());
    return [w.fd(w.current, 'used'), pid, w.fd(pid < 64n ? Number(pid) : undefined, 'empty')];
  },
  sys_dup2: (w) => {
    const pid = w.pid(6, () => w.ownOrEmbryo());
    const oldfd = w.fd(w.current, 'used');
    const newfd = w.r.chance(0.15) ? oldfd : w.fd(pid < 64n ? Number(pid) : undefined, 'any');
    return [oldfd, pid, newfd];
  },
  sys_lseek: (w) => {
    const r = w.r;
    const inode = [...(w.procs.get(w.current)?.fds ?? [])].filter(([, fn]) => w.files.get(fn)?.type === 2).map(([fd]) => M(fd));
    const fd = inode.length && r.chance(0.6) ? r.pick(inode) : w.fd(w.current, 'used');
    return [fd, r.weighted<bigint>([[5, () => r.u64() >> 1n], [1, () => 0n], [2, () => r.u64() | (1n << 63n)]])];
  },
  sys_map_pcipage: (w) => {
    const pt = w.pn(PT.PT, w.current);
    return [pt, w.index(pt), w.pcipn(), w.perm()];
  },
  sys_alloc_iommu_root: (w) => [w.devid('free'), w.freeArg()],
  sys_alloc_iommu_pdpt: iommuTable(PT.IOMMU_PML4),
  sys_alloc_iommu_pd: iommuTable(PT.IOMMU_PDPT),
  sys_alloc_iommu_pt: iommuTable(PT.IOMMU_PD),
  sys_alloc_iommu_frame: (w) => {
    const from = w.pn(PT.IOMMU_PT, w.current);
    return [from, w.index(from), w.dmapn('free'), w.ioPerm()];
  },
  sys_map_iommu_frame: (w) => {
    const pt = w.pn(PT.PT, w.current);
    return [pt, w.index(pt), w.dmapn('current'), w.perm()];
  },
  sys_reclaim_iommu_frame: (w) => [w.dmapn('zombie')],
  sys_reclaim_iommu_root: (w) => [w.devid('zombie')],
  sys_alloc_vector: (w) => [w.vector('free')],
  sys_reclaim_vector: (w) => [w.vector('zombie')],
  sys_alloc_intremap: (w) => [w.intremapIndex(0), w.devid('current'), w.vector('current')],
  sys_reclaim_intremap: (w) => [w.intremapIndex(1)],
  sys_ack_intr: (w) => [M(w.r.int(256))],
  sys_alloc_io_bitmap: (w) => {
    const r = w.r;
    // Two FREE pages followed by a used one.
    const before = [...w.pages.keys()].filter((p) => p >= 2 && !w.pages.has(p - 1) && !w.pages.has(p - 2));
    if (before.length && r.chance(0.1)) {
      const p = r.pick(before);
      return [M(p - 2), M(p - 1), M(p)];
    }
    for (let i = 0; i < 100 && r.chance(0.85); i++) {
      const p = w.freePn();
      if (p + 2 < NPAGE && !w.pages.has(p + 1) && !w.pages.has(p + 2)) {
        return r.chance(0.85) ? [M(p), M(p + 1), M(p + 2)] : [M(p), M(p + 1), r.pick([M(p + 3), M(p + 1), M(p)])];
      }
    }
    const a = w.freeArg(3);
    return r.chance(0.5) ? [a, a + 1n, a + 2n] : [a, w.freeArg(3), w.freeArg(3)];
  },
  sys_alloc_port: (w) => {
    // A used bitmap is mostly ones (sys_alloc_io_bitmap fills it so): set the port's word in both pages.
    const port = w.port('free');
    const cur = w.procs.get(w.current);
    const word = Number(port % 0x8000n) >> 6;
    for (const b of [cur?.ioA, cur?.ioB]) if (b !== undefined && w.r.chance(0.8)) w.st.set('pages', [b, word], w.r.chance(0.7) ? M64 : w.r.u64());
    return [port];
  },
  sys_reclaim_port: (w) => [w.port('zombie')],
  extintr: (w) => [w.vector('owned')],
};

/** The case of handler number h for `seed`: a function of (h, seed) and the native addresses only. */
export function generateCase(layout: Layout, addr: ReadonlyMap<string, bigint>, h: number, seed: number): Case {
  const handler = HANDLERS[h];
  const w = new World(layout, addr, handler.name, seed);
  const gen = ARGS[handler.name];
  if (!gen) throw new Error(`no argument generator for ${handler.name}`);
  const args = w.breakFor(handler, gen(w)).map((a, i) => BigInt.asUintN(handler.args[i].width, a));
  if (args.length !== handler.args.length) throw new Error(`${handler.name}: ${args.length} arguments generated`);
  return { handler, h, seed, state: w.st, args, broken: w.broken };
}
