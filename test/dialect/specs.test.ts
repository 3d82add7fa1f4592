/**
 * Realistic hv6-style specs, written here from docs/hv6-model.md and the descriptions, run through the
 * interpreter and checked against reference semantics over concrete values
 * (many pseudo-random interpretations of the symbolic pre-state). When the
 * oracle spec of the same handler exists in tasks/hv6/specs/, Z3 checks that
 * the two agree on the condition and on every field of the post-state.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { findHandler } from '../../src/core/kernel/handlers.ts';
import { type AbstractState, type FieldValue, freshState, isRefcnt } from '../../src/core/kernel/state.ts';
import type { MapFn } from '../../src/core/smt/fn.ts';
import * as o from '../../src/core/smt/ops.ts';
import { type Term, mask, variable } from '../../src/core/smt/term.ts';
import { runSpec } from '../../src/core/dialect/index.ts';
import { RandomModel, at, field, val } from './concrete.ts';
import { SPEC_HEADER } from '../specs.ts';


const SYS_KILL = `${SPEC_HEADER}
def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    # A running process is only marked; any other one becomes a zombie now.
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE, old.procs[pid].state)
    return cond, util.If(cond, new, old)
`;

const SYS_DUP = `${SPEC_HEADER}
def owns_or_embryo(old, pid):
    cur = old.current
    return z3.Or(pid == cur,
                 z3.And(old.procs[pid].ppid == cur,
                        old.procs[pid].state == dt.proc_state.PROC_EMBRYO))

def sys_dup(old, oldfd, pid, newfd):
    cur = old.current
    fn = old.procs[cur].ofile(oldfd)
    cond = z3.And(is_pid_valid(pid), owns_or_embryo(old, pid),
                  is_fd_valid(oldfd), is_fn_valid(fn),
                  is_fd_valid(newfd), z3.Not(is_fn_valid(old.procs[pid].ofile(newfd))))
    new = old.copy()
    new.procs[pid].ofile[newfd] = fn
    new.procs[pid].nr_fds[newfd] += 1
    new.files[fn].refcnt[(pid, newfd)] += 1
    return cond, util.If(cond, new, old)
`;

const SYS_CLOSE = `${SPEC_HEADER}
def sys_close(old, pid, fd):
    cur = old.current
    fn = old.procs[pid].ofile(fd)
    cond = z3.And(is_pid_valid(pid), is_fd_valid(fd),
                  z3.Or(pid == cur, old.procs[pid].state == dt.proc_state.PROC_ZOMBIE),
                  is_fn_valid(fn))
    new = old.copy()
    new.procs[pid].ofile[fd] = z3.BitVecVal(0, dt.fn_t)
    new.procs[pid].nr_fds[fd] -= 1
    new.files[fn].refcnt[(pid, fd)] -= 1
    # The last reference gone: the file becomes free.
    freed = new.copy()
    freed.files[fn].type = dt.file_type.FD_NONE
    freed.files[fn].value = z3.BitVecVal(0, dt.uint64_t)
    freed.files[fn].offset = z3.BitVecVal(0, dt.off_t)
    freed.files[fn].omode = z3.BitVecVal(0, dt.uint64_t)
    last = new.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t)
    return cond, util.If(cond, util.If(last, freed, new), old)
`;

// Uses a whole-map lambda (the page copy) and Refcnt2 (the fd transfer).
const SYS_SEND = `${SPEC_HEADER}
def sys_send(old, pid, val, pn, size, fd):
    cur = old.current
    cond = z3.And(is_pid_valid(pid),
                  old.procs[pid].state == dt.proc_state.PROC_SLEEPING,
                  is_pn_valid(pn),
                  old.pages[pn].owner == cur,
                  z3.ULE(size, dt.PAGE_SIZE),
                  z3.Implies(is_fd_valid(fd), is_fn_valid(old.procs[cur].ofile(fd))))
    new = old.copy()
    new.procs[pid].ipc_from = cur
    new.procs[pid].ipc_val = val
    new.procs[pid].ipc_size = size
    dst = old.procs[pid].ipc_page
    new.pages.data = lambda p, i, oldfn: util.If(z3.And(p == dst, z3.ULT(i, size)),
                                                 oldfn(pn, i), oldfn(p, i))
    f = old.procs[cur].ofile(fd)
    slot = old.procs[pid].ipc_fd
    moved = new.copy()
    moved.procs[pid].ofile[slot] = f
    moved.procs[pid].nr_fds[slot] += 1
    moved.files[f].refcnt[(pid, slot)] += 1
    new = util.If(z3.And(is_fd_valid(fd), is_fd_valid(slot)), moved, new)
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    new.procs[cur].state = dt.proc_state.PROC_RUNNABLE
    new.current = pid
    return cond, util.If(cond, new, old)

send_proc = sys_send
`;

const M64 = mask(64);
const SEEDS = Array.from({ length: 60 }, (_, i) => i + 100);

function run(source: string, handler: string) {
  const h = findHandler(handler)!;
  const pre = freshState();
  const args = h.args.map((a) => variable(a.name, a.width));
  const r = runSpec(source, handler, pre, args);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}\n${r.error.detail}`);
  return { ...r, pre, args };
}

const signed = (v: bigint, w: number) => (v >= 1n << BigInt(w - 1) ? v - (1n << BigInt(w)) : v);
const pidValid = (p: bigint) => signed(p, 64) > 0n && signed(p, 64) < 64n;
const fdValid = (d: bigint) => signed(d, 32) >= 0n && signed(d, 32) < 16n;
const fnValid = (f: bigint) => f > 0n && f < 128n;

describe('realistic specs', () => {
  it('sys_kill: condition and effects', () => {
    const r = run(SYS_KILL, 'sys_kill');
    let held = 0;
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      const st = at(field(r.pre, 'procs.state'), m, pid) as bigint;
      const cond = pidValid(pid) && st !== 0n && st !== 5n;
      expect(val(r.cond, m)).toBe(cond);
      if (cond) held++;
      expect(at(field(r.post, 'procs.killed'), m, pid)).toBe(cond ? true : at(field(r.pre, 'procs.killed'), m, pid));
      expect(at(field(r.post, 'procs.state'), m, pid)).toBe(cond && st !== 3n ? 5n : st);
      const other = (pid + 1n) & M64;
      expect(at(field(r.post, 'procs.state'), m, other)).toBe(at(field(r.pre, 'procs.state'), m, other));
    }
    expect(held).toBeGreaterThan(0);
    expect(r.post.get('pages.data')).toBe(r.pre.get('pages.data'));
  });

  it('sys_dup: condition, descriptor table and both counters', () => {
    const r = run(SYS_DUP, 'sys_dup');
    let held = 0;
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const [oldfd, pid, newfd] = [m.constant('oldfd', 32), m.constant('pid', 64), m.constant('newfd', 32)] as bigint[];
      const cur = at(field(r.pre, 'current'), m) as bigint;
      const fn = at(field(r.pre, 'procs.ofile'), m, cur, oldfd) as bigint;
      const owns = pid === cur || (at(field(r.pre, 'procs.ppid'), m, pid) === cur && at(field(r.pre, 'procs.state'), m, pid) === 1n);
      const cond =
        pidValid(pid) && owns && fdValid(oldfd) && fnValid(fn) && fdValid(newfd) && !fnValid(at(field(r.pre, 'procs.ofile'), m, pid, newfd) as bigint);
      expect(val(r.cond, m)).toBe(cond);
      if (cond) held++;
      expect(at(field(r.post, 'procs.ofile'), m, pid, newfd)).toBe(cond ? fn : at(field(r.pre, 'procs.ofile'), m, pid, newfd));
      const fds = at(field(r.pre, 'procs.nr_fds'), m, pid) as bigint;
      expect(at(field(r.post, 'procs.nr_fds'), m, pid)).toBe(cond ? (fds + 1n) & M64 : fds);
      const refs = at(field(r.pre, 'files.refcnt'), m, fn) as bigint;
      expect(at(field(r.post, 'files.refcnt'), m, fn)).toBe(cond ? (refs + 1n) & M64 : refs);
    }
    expect(held).toBeGreaterThan(0);
  });

  it('sys_close: Refcnt2 decrement and the nested If that frees the file', () => {
    const r = run(SYS_CLOSE, 'sys_close');
    let freed = 0;
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const [pid, fd] = [m.constant('pid', 64), m.constant('fd', 32)] as bigint[];
      const cur = at(field(r.pre, 'current'), m) as bigint;
      const fn = at(field(r.pre, 'procs.ofile'), m, pid, fd) as bigint;
      // Every other model holds the last reference to fn, so that closing frees it.
      if (seed % 2 === 0) m.fixApp('old.files.refcnt', [fn], 1n);
      const cond = pidValid(pid) && fdValid(fd) && (pid === cur || at(field(r.pre, 'procs.state'), m, pid) === 5n) && fnValid(fn);
      expect(val(r.cond, m)).toBe(cond);
      const refs = ((at(field(r.pre, 'files.refcnt'), m, fn) as bigint) - 1n) & M64;
      expect(at(field(r.post, 'files.refcnt'), m, fn)).toBe(cond ? refs : at(field(r.pre, 'files.refcnt'), m, fn));
      const free = cond && refs === 0n;
      if (free) freed++;
      expect(at(field(r.post, 'files.type'), m, fn)).toBe(free ? 0n : at(field(r.pre, 'files.type'), m, fn));
      expect(at(field(r.post, 'files.omode'), m, fn)).toBe(free ? 0n : at(field(r.pre, 'files.omode'), m, fn));
      expect(at(field(r.post, 'procs.ofile'), m, pid, fd)).toBe(cond ? 0n : fn);
    }
    expect(freed).toBeGreaterThan(0);
  });

  it('sys_send: the page copy (whole-map lambda) and the fd transfer (Refcnt2)', () => {
    const r = run(SYS_SEND, 'send_proc');
    expect(r.entryName).toBe('send_proc');
    let transfers = 0;
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const [pid, pn, size, fd] = [m.constant('pid', 64), m.constant('pn', 64), m.constant('size', 64), m.constant('fd', 32)] as bigint[];
      const cur = at(field(r.pre, 'current'), m) as bigint;
      const f = at(field(r.pre, 'procs.ofile'), m, cur, fd) as bigint;
      const cond =
        pidValid(pid) && at(field(r.pre, 'procs.state'), m, pid) === 4n && pn < 8192n && at(field(r.pre, 'pages.owner'), m, pn) === cur &&
        size <= 4096n && (!fdValid(fd) || fnValid(f));
      expect(val(r.cond, m)).toBe(cond);
      const dst = at(field(r.pre, 'procs.ipc_page'), m, pid) as bigint;
      for (const i of [0n, 1n, 5n, 600n]) {
        const copied = cond && i < size;
        expect(at(field(r.post, 'pages.data'), m, dst, i)).toBe(at(field(r.pre, 'pages.data'), m, copied ? pn : dst, i));
      }
      const slot = at(field(r.pre, 'procs.ipc_fd'), m, pid) as bigint;
      const moves = cond && fdValid(fd) && fdValid(slot);
      if (moves) transfers++;
      const refs = at(field(r.pre, 'files.refcnt'), m, f) as bigint;
      expect(at(field(r.post, 'files.refcnt'), m, f)).toBe(moves ? (refs + 1n) & M64 : refs);
      expect(at(field(r.post, 'procs.ofile'), m, pid, slot)).toBe(moves ? f : at(field(r.pre, 'procs.ofile'), m, pid, slot));
      expect(at(field(r.post, 'current'), m)).toBe(cond ? pid : cur);
      expect(at(field(r.post, 'procs.state'), m, cur)).toBe(cond ? 2n : at(field(r.pre, 'procs.state'), m, cur));
    }
    expect(transfers).toBeGreaterThan(0);
  });
});

// ------------------------------------------------------------------ agreement with the oracles

const ORACLES = new URL('../../tasks/hv6/specs/', import.meta.url);

function oracleSource(handler: string): string | undefined {
  const file = new URL(`${handler}.py`, ORACLES);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const uses = [...text.matchAll(/^# uses: (\w+)\s*$/gm)].map((m) => m[1]);
  return [...uses.map((u) => readFileSync(new URL(`_shared/${u}.py`, ORACLES), 'utf8')), text].join('\n');
}

/** Every map of a field value, each applied at fresh indices. */
function reads(v: FieldValue): Term[] {
  const maps: MapFn[] = isRefcnt(v) ? (v.kind === 'refcnt' ? [v.ref, v.perm, v.permInv] : [v.ref, v.perm1, v.perm2, v.permInv]) : [v];
  return maps.map((f) => f.apply(f.domain.map((s, i) => variable(`cmp!${i}`, s))));
}

/** A term that is satisfiable exactly when the two runs differ somewhere. */
function difference(a: { cond: Term; post: AbstractState }, b: { cond: Term; post: AbstractState }): Term {
  const diffs = [o.not(o.eq(a.cond, b.cond))];
  for (const [path, va] of a.post) {
    const ra = reads(va);
    const rb = reads(b.post.get(path)!);
    ra.forEach((t, i) => diffs.push(o.not(o.eq(t, rb[i]))));
  }
  return o.or(...diffs);
}

describe('agreement with the oracle specs', () => {
  const cases: Array<[string, string]> = [
    ['sys_kill', SYS_KILL],
    ['sys_dup', SYS_DUP],
    ['sys_close', SYS_CLOSE],
    ['send_proc', SYS_SEND],
  ];
  for (const [handler, source] of cases) {
    const oracle = oracleSource(handler);
    it.skipIf(!oracle)(`${handler} means the same as tasks/hv6/specs/${handler}.py`, async () => {
      const h = findHandler(handler)!;
      const pre = freshState();
      const args = h.args.map((a) => variable(a.name, a.width));
      const ours = runSpec(source, handler, pre, args);
      const theirs = runSpec(oracle!, handler, pre, args);
      if (!ours.ok || !theirs.ok) throw new Error(JSON.stringify([ours, theirs].map((x) => !x.ok && x.error.message)));
      const z3 = await nodeEngine();
      const res = await z3.check([difference(ours, theirs)], { timeoutMs: 60_000 });
      expect(res.status).toBe('unsat');
    });
  }
});
