/**
 * The representation invariants of the C kernel (docs/hv6-model.md §5.3): facts about
 * the C globals every handler may assume and must re-establish. Stated over a
 * C memory, each as a quantified fact with its triggers.
 */
import * as o from '../smt/ops.ts';
import { type Term, bvConst } from '../smt/term.ts';
import type { Quantified, Trigger } from '../smt/quantified.ts';
import { ENUMS, NFILE, NOFILE, NPROC } from './constants.ts';
import { type CMemory, isPidValid, isPnValid } from './equiv.ts';

const u64 = (n: number | bigint) => bvConst(n, 64);
const PT = ENUMS.page_type;
const PS = ENUMS.proc_state;

/** The function symbol behind a memory entry of a *fresh* memory (for triggers). */
function symbolOf(mem: CMemory, key: string): string | undefined {
  const f = mem.get(key);
  if (!f) return undefined;
  const probe = f.apply(f.domain.map((s, i) => bvConst(i, s)));
  return probe.op === 'app' ? probe.decl!.name : undefined;
}

/** Triggers on the given memory entries, reading the variables from `positions`. */
function triggersOn(mem: CMemory, keys: readonly string[], positions: number[]): Trigger[] {
  const out: Trigger[] = [];
  for (const key of keys) {
    const f = mem.get(key);
    if (!f || f.domain.length < positions.length) continue;
    const fn = symbolOf(mem, key);
    if (fn) out.push({ fn, positions });
  }
  return out;
}

/** Reads a C memory entry. */
function rd(mem: CMemory, key: string, ...idx: Term[]): Term {
  const f = mem.get(key);
  if (!f) throw new Error(`the kernel has no global leaf '${key}'`);
  return f.apply(idx);
}

function ownedAs(mem: CMemory, pn: Term, pid: Term, type: bigint): Term {
  return o.and(
    isPnValid(pn),
    o.eq(rd(mem, 'page_desc_table.pid', pn), pid),
    o.eq(rd(mem, 'page_desc_table.type', pn), u64(type)),
  );
}

const stateIs = (mem: CMemory, pid: Term, s: bigint) => o.eq(rd(mem, 'proc_table.state', pid), u64(s));

const NR_FIELDS = ['nr_children', 'nr_fds', 'nr_pages', 'nr_dmapages', 'nr_devs', 'nr_ports', 'nr_vectors', 'nr_intremaps'];

/**
 * The invariants over `mem`. `triggerMem` is the fresh memory whose symbols
 * trigger instantiation (the pre-state); pass the same memory when stating
 * assumptions.
 */
export function implInvariants(mem: CMemory, triggerMem: CMemory = mem): Quantified[] {
  // Each invariant fires where the query reads one of the fields it talks about.
  const on = (keys: string[], positions = [0]) => triggersOn(triggerMem, keys, positions);
  const state = ['proc_table.state'];
  const pages = ['proc_table.page_table_root', 'proc_table.hvm', 'proc_table.stack'];
  const desc = ['page_desc_table.pid', 'page_desc_table.type'];
  const W = 64;
  const q = (name: string, gloss: string, vars: number[], triggers: Trigger[], body: (xs: readonly Term[]) => Term): Quantified =>
    ({ name, gloss, vars, triggers, body });

  return [
    q('inv_proc_owns_pns', 'a live process owns its page-table root (PML4) and its hvm and stack pages (PROC_DATA)', [W], on([...state, ...pages]), ([p]) =>
      o.implies(
        o.and(isPidValid(p), o.or(stateIs(mem, p, PS.PROC_EMBRYO), stateIs(mem, p, PS.PROC_RUNNING), stateIs(mem, p, PS.PROC_RUNNABLE), stateIs(mem, p, PS.PROC_SLEEPING))),
        o.and(
          ownedAs(mem, rd(mem, 'proc_table.page_table_root', p), p, PT.PAGE_TYPE_X86_PML4),
          ownedAs(mem, rd(mem, 'proc_table.hvm', p), p, PT.PAGE_TYPE_PROC_DATA),
          ownedAs(mem, rd(mem, 'proc_table.stack', p), p, PT.PAGE_TYPE_PROC_DATA),
        ),
      )),
    q('inv_io_bitmap', 'a non-zombie process using an I/O bitmap owns both bitmap pages (PROC_DATA)', [W], on(['proc_table.use_io_bitmap', 'proc_table.io_bitmap_a', 'proc_table.io_bitmap_b']), ([p]) =>
      o.implies(
        o.and(isPidValid(p), o.not(stateIs(mem, p, PS.PROC_ZOMBIE)), o.not(o.eq(rd(mem, 'proc_table.use_io_bitmap', p), bvConst(0, 32)))),
        o.and(
          ownedAs(mem, rd(mem, 'proc_table.io_bitmap_a', p), p, PT.PAGE_TYPE_PROC_DATA),
          ownedAs(mem, rd(mem, 'proc_table.io_bitmap_b', p), p, PT.PAGE_TYPE_PROC_DATA),
        ),
      )),
    q('inv_sleeping_proc_owns_ipc', 'a sleeping process owns its IPC page, a FRAME', [W], on([...state, 'proc_table.ipc_page']), ([p]) =>
      o.implies(
        o.and(isPidValid(p), stateIs(mem, p, PS.PROC_SLEEPING)),
        ownedAs(mem, rd(mem, 'proc_table.ipc_page', p), p, PT.PAGE_TYPE_FRAME),
      )),
    q('inv_proc_pns_valid', 'every process slot (any pid) names valid root, hvm and stack pages', [W], on(pages), ([p]) =>
      o.and(
        isPnValid(rd(mem, 'proc_table.page_table_root', p)),
        isPnValid(rd(mem, 'proc_table.hvm', p)),
        isPnValid(rd(mem, 'proc_table.stack', p)),
      )),
    q('inv_sleeping_proc_ipc_fd_valid_empty', 'a sleeping process keeps the fd slot it receives into empty', [W], on([...state, 'proc_table.ipc_fd']), ([p]) => {
      const fd = rd(mem, 'proc_table.ipc_fd', p);
      const fdOk = o.and(o.sge(fd, bvConst(0, 32)), o.slt(fd, bvConst(NOFILE, 32)));
      return o.implies(
        o.and(isPidValid(p), stateIs(mem, p, PS.PROC_SLEEPING), fdOk),
        o.eq(rd(mem, 'proc_table.ofile', p, o.sext(32, fd)), u64(0)),
      );
    }),
    q('inv_page_owner', 'a page has a valid owner exactly when it is not FREE', [W], on(desc), ([pn]) =>
      o.implies(
        isPnValid(pn),
        o.eq(isPidValid(rd(mem, 'page_desc_table.pid', pn)), o.not(o.eq(rd(mem, 'page_desc_table.type', pn), u64(PT.PAGE_TYPE_FREE)))),
      )),
    q('inv_proc_unused_refs', 'an unused process owns nothing: all its counters are 0', [W], on([...state, ...NR_FIELDS.map((f) => `proc_table.${f}`)]), ([p]) =>
      o.implies(
        o.and(isPidValid(p), stateIs(mem, p, PS.PROC_UNUSED)),
        o.and(...NR_FIELDS.map((f) => o.eq(rd(mem, `proc_table.${f}`, p), u64(0)))),
      )),
    q('inv_proc_fds_valid', 'every fd slot of a process is empty (0) or holds a valid file number', [W, W], on(['proc_table.ofile'], [0, 1]), ([p, i]) => {
      const fn = rd(mem, 'proc_table.ofile', p, i);
      return o.implies(
        o.and(isPidValid(p), o.ult(i, u64(NOFILE))),
        o.or(o.eq(fn, u64(0)), o.and(o.ugt(fn, u64(0)), o.ult(fn, u64(NFILE)))),
      );
    }),
    q('inv_page_freelist_valid', 'the free-page list links of every page are valid page numbers', [W], on(['page_desc_table.link.prev', 'page_desc_table.link.next']), ([pn]) =>
      o.implies(isPnValid(pn), o.and(isPnValid(rd(mem, 'page_desc_table.link.prev', pn)), isPnValid(rd(mem, 'page_desc_table.link.next', pn))))),
    q('inv_proc_freelist_valid', 'the ready-queue links of every process slot are below NPROC', [W], on(['proc_table.ready.prev', 'proc_table.ready.next']), ([p]) =>
      o.implies(
        o.ult(p, u64(NPROC)),
        o.and(o.ult(rd(mem, 'proc_table.ready.prev', p), u64(NPROC)), o.ult(rd(mem, 'proc_table.ready.next', p), u64(NPROC))),
      )),
    q('inv_current_valid', 'the current pid is valid', [], [], () => isPidValid(rd(mem, 'current'))),
    q('inv_current_running', 'the current process is RUNNING', [], [], () => stateIs(mem, rd(mem, 'current'), PS.PROC_RUNNING)),
  ];
}

