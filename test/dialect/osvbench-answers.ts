/**
 * Answers written here in the style OSVBench's results files hold: bare
 * functions with no import lines (OSVBench's checker appends them to a
 * header that already imports everything), correct ones and wrong ones of
 * each kind. `expect` is the category hv6's Python 2 + z3py grading gives
 * (OSVBench's three categories; no timeouts here), reasoned case by case in
 * `why`. Used by test/dialect/answers.test.ts and perf/spec-answers.ts.
 */
export interface OsvAnswer {
  readonly id: string;
  readonly handler: string;
  readonly expect: 'pass' | 'semantic' | 'syntax';
  readonly why: string;
  /** Set where OSVLab's category deliberately differs from upstream's (docs/spec-errors.md says why). */
  readonly osvlab?: 'pass' | 'semantic' | 'syntax';
  readonly code: string;
}

/** The header an answer may carry instead (the imports hv6's specs.py and upstream answers use). */
export const IMPORT_HEADER = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid, is_pn_valid, is_dmapn_valid, is_pcipn_valid, is_intremap_valid
from hv6py.base import Accessor, BaseStruct, Struct, Map, Refcnt, Refcnt2
import types
`;

const kill = (cond: string, extra = '') => `def sys_kill(old, pid):
${extra}    cond = z3.And(${cond})
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state == dt.proc_state.PROC_RUNNING,
                                   old.procs[pid].state, dt.proc_state.PROC_ZOMBIE)
    return cond, util.If(cond, new, old)
`;
const FORALL = "z3.ForAll([z3.BitVec('q', 64)], z3.Implies(z3.ULT(z3.BitVec('q', 64), pid), z3.ULE(z3.BitVec('q', 64), pid)))";
const KILL_COND = 'is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE';

const runnable = (body: string) => `def sys_set_runnable(old, pid):
    ok = z3.And(is_pid_valid(pid), old.procs[pid].ppid == old.current,
                old.procs[pid].state == dt.proc_state.PROC_EMBRYO)
    new = old.copy()
${body}    return ok, util.If(ok, new, old)
`;

const port = (body: string, pre = '') => `def sys_reclaim_port(old, port):
    who = old.io[port].owner
${pre}    c = z3.And(is_pid_valid(who), old.procs[who].state == dt.proc_state.PROC_ZOMBIE)
    new = old.copy()
${body}    return c, util.If(c, new, old)
`;

const vector = (body: string) => `def sys_alloc_vector(old, vector):
    me = old.current
    free = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)
    new = old.copy()
${body}    return free, util.If(free, new, old)
`;

const ack = (mask: string) => `def sys_ack_intr(old, vector):
    me = old.current
    v = z3.ZeroExt(56, vector)
    w = z3.UDiv(v, util.i64(64))
    bit = util.i64(1) << z3.URem(v, util.i64(64))
    new = old.copy()
    new.procs[me].intr[w] = ${mask}
    return z3.BoolVal(True), new
`;

const MAP_PROC_ENTRY = '((z3.UDiv(new.proc_table_ptr_to_int, util.i64(dt.PAGE_SIZE)) + n) << dt.PTE_PFN_SHIFT) | perm';
const MAP_PROC_TYPE = '    new.pages[frm].pgtable_type[index] = dt.PGTYPE_PROC\n';
const mapProc = (shadowPerm: string, entry = MAP_PROC_ENTRY, shadowType = MAP_PROC_TYPE) => `def sys_map_proc(old, pid, frm, index, n, perm):
    cur = old.current
    cond = z3.And(z3.ULT(n, dt.NPAGES_PROC_TABLE), is_pid_valid(pid),
                  z3.Or(pid == cur, z3.And(old.procs[pid].ppid == cur, old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
                  is_pn_valid(frm), old.pages[frm].type == dt.page_type.PAGE_TYPE_X86_PT, old.pages[frm].owner == pid,
                  z3.ULT(index, 512),
                  perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
                  perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t), perm & dt.PTE_W == z3.BitVecVal(0, dt.pte_t),
                  old.pages[frm].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t))
    new = old.copy()
    new.pages[frm].data[index] = ${entry}
    new.pages[frm].pgtable_pn[index] = n
    new.pages[frm].pgtable_perm[index] = ${shadowPerm}
${shadowType}    new.flush_tlb(pid)
    return cond, util.If(cond, new, old)
`;

export const ANSWERS: readonly OsvAnswer[] = [
  { id: 'kill-ok', handler: 'sys_kill', expect: 'pass', why: 'correct', code: kill(KILL_COND) },
  {
    id: 'kill-no-zombie-check',
    handler: 'sys_kill',
    expect: 'semantic',
    why: 'killing a zombie succeeds in the spec, not in the kernel',
    code: kill('is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED'),
  },
  { id: 'kill-typo', handler: 'sys_kill', expect: 'syntax', why: 'NameError: is_pid_vaild', code: kill(KILL_COND.replace('is_pid_valid', 'is_pid_vaild')) },
  {
    id: 'kill-if-eq-guard',
    handler: 'sys_kill',
    expect: 'pass',
    why: "bool(pid == 0) is a.eq(b) in z3py: False, so the early return is dead code",
    code: kill(KILL_COND, '    if pid == 0:\n        return z3.BoolVal(False), old\n'),
  },
  {
    id: 'kill-forall',
    handler: 'sys_kill',
    expect: 'pass',
    why: 'the quantified conjunct is valid: Z3 proves the refinement, upstream and here',
    code: kill(`${KILL_COND}, ${FORALL}`),
  },
  {
    id: 'kill-forall-wrong',
    handler: 'sys_kill',
    expect: 'semantic',
    why: "Z3 refutes it (semantic), upstream and here; here the counterexample is the solver's, not replayed through the quantifier, with the SPEC031 warning (docs/spec-errors.md)",
    code: kill(`is_pid_valid(pid), ${FORALL}`),
  },
  {
    id: 'kill-clashing-name',
    handler: 'sys_kill',
    expect: 'pass',
    why: "a constant the answer names 'arg.pid' (32-bit) is its own constant, unrelated to the verifier's argument",
    code: kill(`${KILL_COND}, z3.Implies(z3.BitVec('arg.pid', 32) == 5, z3.BitVec('arg.pid', 32) != 6)`),
  },
  { id: 'runnable-ok', handler: 'sys_set_runnable', expect: 'pass', why: 'correct', code: runnable('    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n') },
  {
    id: 'runnable-wrong-state',
    handler: 'sys_set_runnable',
    expect: 'semantic',
    why: 'RUNNING instead of RUNNABLE',
    code: runnable('    new.procs[pid].state = dt.proc_state.PROC_RUNNING\n'),
  },
  {
    id: 'runnable-python-if-eq',
    handler: 'sys_set_runnable',
    expect: 'semantic',
    why: 'the Python if on an equality is False upstream, so the state is never written: refuted',
    code: runnable('    if old.procs[pid].state == dt.proc_state.PROC_EMBRYO:\n        new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n'),
  },
  {
    id: 'runnable-python-if-ult',
    handler: 'sys_set_runnable',
    expect: 'syntax',
    why: 'bool() of ULT raises "Symbolic expressions cannot be cast to concrete Boolean values"',
    code: runnable('    if z3.ULT(pid, 64):\n        new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n'),
  },
  {
    id: 'port-ok',
    handler: 'sys_reclaim_port',
    expect: 'pass',
    why: 'correct',
    code: port('    new.procs[who].nr_ports[port] -= 1\n    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)\n'),
  },
  {
    id: 'port-no-refcnt',
    handler: 'sys_reclaim_port',
    expect: 'semantic',
    why: "the owner's port count is not decremented",
    code: port('    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)\n'),
  },
  {
    id: 'port-accessor-compare',
    handler: 'sys_reclaim_port',
    expect: 'pass',
    why: 'nr_ports without its call is an Accessor; Accessor == 0 is False in Python, so the guard is dead code',
    code: port(
      '    new.procs[who].nr_ports[port] -= 1\n    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)\n',
      '    if old.procs[who].nr_ports == 0:\n        return z3.BoolVal(False), old\n',
    ),
  },
  {
    id: 'port-accessor-term',
    handler: 'sys_reclaim_port',
    expect: 'syntax',
    why: 'an Accessor compared with a z3 term: z3py raises "Python value cannot be used as a Z3 integer"',
    code: port(
      '    new.procs[who].nr_ports[port] -= 1\n    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)\n',
      '    busy = old.procs[who].nr_ports[port] == z3.BitVecVal(0, dt.size_t)\n',
    ),
  },
  {
    id: 'vector-ok',
    handler: 'sys_alloc_vector',
    expect: 'pass',
    why: 'correct',
    code: vector('    new.vectors[vector].owner = me\n    new.procs[me].nr_vectors[vector] += 1\n'),
  },
  {
    id: 'vector-struct-assign',
    handler: 'sys_alloc_vector',
    expect: 'pass',
    why: 'new.vectors = old.vectors is shadowed by Struct.__getattribute__: no effect',
    code: vector('    new.vectors = old.vectors\n    new.vectors[vector].owner = me\n    new.procs[me].nr_vectors[vector] += 1\n'),
  },
  { id: 'vector-no-refcnt', handler: 'sys_alloc_vector', expect: 'semantic', why: 'the count of vectors is not incremented', code: vector('    new.vectors[vector].owner = me\n') },
  { id: 'ack-ok', handler: 'sys_ack_intr', expect: 'pass', why: 'correct', code: ack('old.procs[me].intr(w) & ~bit') },
  { id: 'ack-no-not', handler: 'sys_ack_intr', expect: 'semantic', why: 'keeps only the acknowledged bit', code: ack('old.procs[me].intr(w) & bit') },
  { id: 'ack-extract', handler: 'sys_ack_intr', expect: 'syntax', why: 'Extract(70, 0) of a 64-bit value raises in z3py', code: ack('z3.Extract(70, 0, old.procs[me].intr(w) & ~bit)') },
  { id: 'map-proc-ok', handler: 'sys_map_proc', expect: 'pass', why: 'correct', code: mapProc('perm') },
  {
    id: 'map-proc-ghost-width',
    handler: 'sys_map_proc',
    expect: 'pass',
    why: "a 32-bit value into the 64-bit ghost pgtable_perm: partial_update's closure would raise when called, but state_equiv never reads the shadow table",
    code: mapProc('z3.Extract(31, 0, perm)'),
  },
  {
    id: 'map-proc-ghost-lambda',
    handler: 'sys_map_proc',
    expect: 'pass',
    why: 'a whole-map lambda without oldfn into the ghost pgtable_type: calling it would raise a TypeError, but nothing reads the field',
    code: mapProc('perm', MAP_PROC_ENTRY, '    new.pages.pgtable_type = lambda pn, idx: util.If(z3.And(pn == frm, idx == index), dt.PGTYPE_PROC, old.pages[pn].pgtable_type(idx))\n'),
  },
  {
    id: 'map-proc-entry-width',
    handler: 'sys_map_proc',
    expect: 'syntax',
    why: 'a 32-bit value into the compared pages.data: state_equiv reads it and the closure raises a sort mismatch',
    code: mapProc('perm', 'z3.Extract(31, 0, perm)'),
  },
];

/** The same answer with the import header in front. */
export function withImports(code: string): string {
  return `${IMPORT_HEADER}\n${code}`;
}
