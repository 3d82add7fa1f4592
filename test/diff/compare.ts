/**
 * The symbolic side of the differential test and the comparison with gcc
 * (docs/differential.md). Each handler is executed symbolically once; a
 * case then evaluates the resulting terms under an interpretation built
 * from its concrete initial state: the UF `c:<key>` at concrete indices is
 * the cell's initial value (0 if unset), `&G` is the native address of G and
 * `arg.<name>` the argument.
 */
import { type CProgram, type SafetyCondition, IOTLBINV, TLBINV, execFunction, freshMemory } from '../../src/core/c/index.ts';
import type { HandlerInfo } from '../../src/core/kernel/handlers.ts';
import { type Interpretation, type Value, evaluate } from '../../src/core/smt/eval.ts';
import { BOOL, type Term, boundVar, variable } from '../../src/core/smt/term.ts';
import type { Layout, LeafLayout } from './layout.ts';
import type { NativeDriver, NativeResult } from './native.ts';
import type { CellMap } from './state.ts';
import { type Case, NPAGE, NPROC, Rand } from './world.ts';

/** Index variables of the post-state terms; the interpretation supplies the cell being checked. */
const IDX = [boundVar('diff.idx0', 64), boundVar('diff.idx1', 64)];

export interface Model {
  readonly handler: HandlerInfo;
  readonly ret: Term;
  readonly safety: readonly SafetyCondition[];
  /** Every leaf the handler may write: its post-state value over IDX. Other leaves keep their initial value. */
  readonly post: ReadonlyMap<string, Term>;
  /** `#tlbinv` after the handler, over IDX[0]; `#iotlbinv` after it. */
  readonly tlb: Term;
  readonly iotlb: Term;
}

/** Runs handler `h` symbolically on a fresh memory and fresh arguments `arg.<name>`. */
export function buildModel(program: CProgram, h: HandlerInfo, name = h.name): Model {
  const mem = freshMemory(program);
  const r = execFunction(program, name, mem, h.args.map((a) => variable(`arg.${a.name}`, a.width)));
  if (!r.ok) throw new Error(`cannot execute ${name}: ${r.error.message}`);
  const post = new Map<string, Term>();
  for (const [key, f] of r.mem) {
    if (key === TLBINV || key === IOTLBINV || f === mem.get(key)) continue;
    post.set(key, f.apply(IDX.slice(0, f.domain.length)));
  }
  return { handler: h, ret: r.ret, safety: r.safety, post, tlb: r.mem.get(TLBINV)!.apply([IDX[0]]), iotlb: r.mem.get(IOTLBINV)!.apply([]) };
}

/** The interpretation of one case; `idx` is the cell currently evaluated. */
class CaseInterpretation implements Interpretation {
  idx: bigint[] = [0n, 0n];

  constructor(
    private readonly cells: CellMap,
    private readonly consts: ReadonlyMap<string, bigint>,
  ) {}

  constant(name: string, _sort: number): Value {
    if (name === 'diff.idx0') return this.idx[0];
    if (name === 'diff.idx1') return this.idx[1];
    // A leaf without indices (`current`) is a constant `c:<key>`.
    if (name.startsWith('c:')) return this.apply({ name, range: _sort }, []);
    const v = this.consts.get(name);
    if (v === undefined) throw new Error(`the terms depend on free constant '${name}', which has no concrete value`);
    return v;
  }

  apply(decl: { name: string; range: number }, args: Value[]): Value {
    if (!decl.name.startsWith('c:')) throw new Error(`the terms depend on function '${decl.name}', which has no concrete value`);
    const key = decl.name.slice(2);
    if (key === TLBINV || key === IOTLBINV) return false;
    const v = this.cells.get(key)?.get(args.join(',')) ?? 0n;
    return decl.range === BOOL ? v !== 0n : v;
  }
}

export interface Outcome {
  /** `ok <ret as signed int>`, `assert`, `panic` or a native trap. */
  readonly kind: string;
  readonly mismatches: string[];
  /** Cells compared (for statistics). */
  readonly cells: number;
}

const hex = (v: Value) => (typeof v === 'boolean' ? String(v) : `0x${v.toString(16)}`);

function cellName(key: string, idx: readonly (number | bigint)[]): string {
  return `${key}${idx.map((i) => `[${i}]`).join('')}`;
}

function allTuples(dims: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of dims) {
    const next: number[][] = [];
    for (const t of out) for (let i = 0; i < n; i++) next.push([...t, i]);
    out = next;
  }
  return out;
}

/** Leaves up to this many cells are compared in full; larger ones on the cells a case involves. */
const FULL_LIMIT = 4096;
const SAMPLES = 16;

/**
 * Compares our evaluation of `model` on case `c` with gcc's run `nat`.
 * Returns the outcome and every disagreement as a readable line.
 */
export function compareCase(model: Model, layout: Layout, driver: NativeDriver, c: Case, nat: NativeResult): Outcome {
  try {
    return compareUnguarded(model, layout, driver, c, nat);
  } catch (e) {
    // E.g. a term that depends on an uninitialised local (`undef:x`): a disagreement to report, not a crash.
    return { kind: 'error', mismatches: [`cannot evaluate our terms: ${e instanceof Error ? e.message : String(e)}`], cells: 0 };
  }
}

function compareUnguarded(model: Model, layout: Layout, driver: NativeDriver, c: Case, nat: NativeResult): Outcome {
  const initial = c.state.cells;
  const consts = new Map<string, bigint>();
  for (const g of driver.globals) consts.set(`&${g.name}`, g.addr);
  c.handler.args.forEach((a, i) => consts.set(`arg.${a.name}`, c.args[i]));
  const interp = new CaseInterpretation(initial, consts);
  const memo = new Map<number, Value>();
  const ev = (t: Term) => evaluate(t, interp, memo);
  const bad: string[] = [];

  const failed = model.safety.filter((s) => ev(s.ok) === false);
  const describe = (s: SafetyCondition) => `${s.kind} at ${s.file}:${s.span.line} (${s.message})`;
  if (nat.status.startsWith('trap')) {
    // gcc's build traps on an out-of-bounds index, a bad shift, a division by zero or a signed overflow.
    // From a state that keeps the invariants that is a kernel bug. From one broken on purpose it is
    // expected exactly where our executor finds a failing bounds, shift or division condition.
    const undefinedOp = failed.length > 0 && ['bounds', 'shift', 'div-zero', 'div-overflow'].includes(failed[0].kind);
    if (!c.broken || !undefinedOp) {
      bad.push(
        `gcc's build faulted (${nat.status}: out-of-bounds index, bad shift, division by zero or signed overflow)` +
          `${c.broken ? '' : ' from a state that keeps the invariants: a kernel bug'}; ` +
          `ours: ${failed.length ? `${describe(failed[0])} fails` : 'every safety condition holds'}`,
      );
    }
    return { kind: undefinedOp ? 'fault' : nat.status, mismatches: bad, cells: 0 };
  }
  const nativeFailed = nat.status === 'assert' || nat.status === 'panic';
  if (failed.length > 0 || nativeFailed) {
    if (!nativeFailed) bad.push(`ours: ${describe(failed[0])} fails; gcc: no assert or panic (returned ${hex(nat.ret)})`);
    else if (failed.length === 0) bad.push(`gcc: ${nat.status} fired; ours: every safety condition holds`);
    else if (failed[0].kind !== nat.status) bad.push(`gcc: ${nat.status} fired; ours: ${describe(failed[0])} fails`);
    return { kind: nativeFailed ? nat.status : `ok ${BigInt.asIntN(32, nat.ret)}`, mismatches: bad, cells: 0 };
  }

  const ret = ev(model.ret);
  if (ret !== nat.ret) bad.push(`return value: ours ${hex(ret)}, gcc ${hex(nat.ret)}`);

  // Flags. #tlbinv is compared at every pid below NPROC, at gcc's pids, at current and at every argument.
  const pids = new Set<bigint>(Array.from({ length: NPROC }, (_, i) => BigInt(i)));
  for (const p of nat.tlb) pids.add(p);
  c.handler.args.forEach((a, i) => {
    pids.add(c.args[i]);
    pids.add(BigInt.asUintN(64, BigInt.asIntN(a.width, c.args[i])));
  });
  pids.add(c.state.get('current', []));
  const nativeTlb = new Set(nat.tlb);
  for (const p of pids) {
    interp.idx[0] = p;
    const ours = ev(model.tlb);
    if (ours !== nativeTlb.has(p)) bad.push(`#tlbinv[${BigInt.asIntN(64, p)}]: ours ${ours}, gcc ${nativeTlb.has(p)}`);
  }
  if (nat.ntlb > nat.tlb.length) bad.push(`gcc called hvm_invalidate_tlb ${nat.ntlb} times (more than the driver records)`);
  const io = ev(model.iotlb);
  if (io !== nat.iotlb) bad.push(`#iotlbinv: ours ${io}, gcc ${nat.iotlb}`);

  // gcc's changes, as cells: the initial value with the changed bytes replaced.
  const changed = new Map<string, Map<string, { idx: number[]; value: bigint }>>();
  for (const ch of nat.changes) {
    for (let b = 0; b < ch.bytes.length; b++) {
      const at = layout.locate(ch.g, ch.off + b);
      if (!at) {
        bad.push(`gcc wrote padding: byte ${ch.off + b} of ${layout.globals[ch.g].name}`);
        continue;
      }
      let m = changed.get(at.leaf.key);
      if (!m) changed.set(at.leaf.key, (m = new Map()));
      const k = at.idx.join(',');
      let cell = m.get(k);
      if (!cell) m.set(k, (cell = { idx: at.idx, value: initial.get(at.leaf.key)?.get(k) ?? 0n }));
      const shift = BigInt(8 * at.byte);
      cell.value = (cell.value & ~(0xffn << shift)) | (BigInt(ch.bytes[b]) << shift);
    }
  }

  const involvedPns = involvedPages(c);
  const rand = new Rand(`diff-sample:${c.handler.name}:${c.seed}`);
  let cells = 0;
  for (const key of new Set([...model.post.keys(), ...changed.keys()])) {
    const l = layout.leaf(key);
    const term = model.post.get(key);
    const init = initial.get(key);
    const theirs = changed.get(key);
    for (const idx of cellsToCheck(l, init, theirs, involvedPns, c, rand)) {
      const k = idx.join(',');
      const before = init?.get(k) ?? 0n;
      let ours: Value = before;
      if (term) {
        interp.idx[0] = BigInt(idx[0] ?? 0);
        interp.idx[1] = BigInt(idx[1] ?? 0);
        ours = ev(term);
      }
      const gcc = theirs?.get(k)?.value ?? before;
      cells++;
      if (ours !== gcc) bad.push(`${cellName(key, idx)}: ours ${hex(ours)}, gcc ${hex(gcc)} (initially ${hex(before)})`);
    }
  }
  return { kind: `ok ${BigInt.asIntN(32, nat.ret)}`, mismatches: bad, cells };
}

/**
 * Pages whose every word is compared: the pn arguments, and the pages a
 * handler writes through process fields (the IPC page of a pid argument,
 * current's I/O bitmap). Pages gcc changed are compared in full too.
 */
function involvedPages(c: Case): Set<number> {
  const out = new Set<number>();
  const add = (pn: bigint) => pn < BigInt(NPAGE) && out.add(Number(pn));
  const current = c.state.get('current', []);
  c.handler.args.forEach((a, i) => {
    if (a.sort === 'pn_t') add(c.args[i]);
    if (a.sort === 'pid_t' && c.args[i] < BigInt(NPROC)) add(c.state.get('proc_table.ipc_page', [c.args[i]]));
  });
  if (current < BigInt(NPROC)) for (const f of ['io_bitmap_a', 'io_bitmap_b']) add(c.state.get(`proc_table.${f}`, [current]));
  return out;
}

function cellsToCheck(
  l: LeafLayout,
  init: ReadonlyMap<string, bigint> | undefined,
  theirs: ReadonlyMap<string, { idx: number[] }> | undefined,
  pns: ReadonlySet<number>,
  c: Case,
  rand: Rand,
): number[][] {
  const total = l.dims.reduce((a, b) => a * b, 1);
  if (total <= FULL_LIMIT) return allTuples(l.dims);
  const seen = new Map<string, number[]>();
  const add = (idx: number[]) => seen.set(idx.join(','), idx);
  for (const k of init?.keys() ?? []) add(k.split(',').map(Number));
  for (const x of theirs?.values() ?? []) add(x.idx);
  if (l.key === 'pages') {
    const full = new Set(pns);
    for (const x of theirs?.values() ?? []) full.add(x.idx[0]);
    for (const pn of full) for (let w = 0; w < 512; w++) add([pn, w]);
  } else if (l.key.startsWith('page_desc_table.')) {
    for (const pn of pns) add([pn]);
  } else if (l.dims.length === 1) {
    // pci_table, io_table, pcipages: the arguments that index them.
    const sort = l.key === 'io_table' ? 'uint16_t' : 'devid_t';
    c.handler.args.forEach((a, i) => a.sort === sort && c.args[i] < BigInt(l.dims[0]) && add([Number(c.args[i])]));
  }
  for (let s = 0; s < SAMPLES; s++) add(l.dims.map((n) => rand.int(n)));
  return [...seen.values()];
}
