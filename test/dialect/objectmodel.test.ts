/**
 * The kernel-state object model of the dialect (docs/hv6-model.md §4.3-4.7) on
 * symbolic states: results are compared with reference semantics written
 * over concrete values, under many pseudo-random interpretations.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { findHandler } from '../../src/core/kernel/handlers.ts';
import { type AbstractState, type Refcnt2Value, type RefcntValue, freshState } from '../../src/core/kernel/state.ts';
import * as o from '../../src/core/smt/ops.ts';
import { type Term, bvConst, isTrue, mask, variable } from '../../src/core/smt/term.ts';
import { SpecError } from '../../src/core/dialect/errors.ts';
import { callSpecFunction, runSpec } from '../../src/core/dialect/index.ts';
import { fromAbstract } from '../../src/core/dialect/kernelstate.ts';
import { PyTuple } from '../../src/core/dialect/objects.ts';
import { RandomModel, at, field, val } from './concrete.ts';
import { SPEC_HEADER } from '../specs.ts';


function run(body: string, handler: string, opts: { pre?: AbstractState; args?: Term[]; force?: 'none' | 'all' } = {}) {
  const h = findHandler(handler)!;
  const pre = opts.pre ?? freshState();
  const args = opts.args ?? h.args.map((a) => variable(a.name, a.width));
  const r = runSpec(SPEC_HEADER + body, handler, pre, args, { force: opts.force ?? 'all' });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}\n${r.error.detail}`);
  return { ...r, pre };
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);
const M64 = mask(64);

describe('reads and writes', () => {
  it('a point write is seen at the same index and not at others', () => {
    const r = run(
      `def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].ppid = z3.BitVecVal(7, dt.pid_t)
    assert z3.is_true(new.procs[pid].ppid == 7)
    return new.procs[3].ppid == old.procs[3].ppid, new
`,
      'sys_kill',
    );
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      const old3 = at(field(r.pre, 'procs.ppid'), m, 3n);
      expect(val(r.cond, m)).toBe(pid !== 3n || old3 === 7n);
      for (const q of [pid, (pid + 1n) & M64, 3n]) {
        const want = q === pid ? 7n : at(field(r.pre, 'procs.ppid'), m, q);
        expect(at(field(r.post, 'procs.ppid'), m, q)).toBe(want);
      }
    }
  });

  it('a write through a partial path broadcasts over the remaining indices', () => {
    const r = run(
      `def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    new.procs[pid].ofile = z3.BitVecVal(0, dt.fn_t)
    new.pages[to].data = util.i64(0)
    new.pages[frm].pgtable_type = dt.PGTYPE_NONE
    return z3.BoolVal(True), new
`,
      'sys_copy_frame',
    );
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      const to = m.constant('to', 64) as bigint;
      const frm = m.constant('frm', 64) as bigint;
      for (const p of [pid, (pid + 1n) & M64]) {
        for (const d of [0n, 5n, 0xffffffffn]) {
          const want = p === pid ? 0n : at(field(r.pre, 'procs.ofile'), m, p, d);
          expect(at(field(r.post, 'procs.ofile'), m, p, d)).toBe(want);
        }
      }
      for (const pn of [to, frm, 9n]) {
        for (const i of [0n, 511n, 1000n]) {
          expect(at(field(r.post, 'pages.data'), m, pn, i)).toBe(pn === to ? 0n : at(field(r.pre, 'pages.data'), m, pn, i));
          expect(at(field(r.post, 'pages.pgtable_type'), m, pn, i)).toBe(
            pn === frm ? 7n : at(field(r.pre, 'pages.pgtable_type'), m, pn, i),
          );
        }
      }
    }
  });

  it('reads the same value through every accessor form', () => {
    const r = callSpecFunction(
      `${SPEC_HEADER}
def f(old, pid, fd):
    a = old.procs[pid].ofile(fd)
    b = old.procs.ofile(pid, fd)
    c = old.procs[pid].ofile[fd]()
    d = old.procs[pid][fd].ofile
    e = old.procs[pid].nr_fds()
    g = old.procs.nr_fds(pid)
    return z3.eq(a, b) and z3.eq(a, c) and z3.eq(a, d) and z3.eq(e, g)
`,
      'f',
      [fromAbstract(freshState()), variable('pid', 64), variable('fd', 32)],
    );
    expect(r).toEqual({ ok: true, value: true });
  });

  it('a whole-map lambda gets oldfn and binds its free variables late', () => {
    const r = run(
      `def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    k = util.i64(1)
    new.pages.data = lambda pn, idx, oldfn: util.If(pn == to, oldfn(frm, idx) + k, oldfn(pn, idx))
    k = util.i64(2)
    new.pages[frm].data[0] = util.i64(5)
    return z3.BoolVal(True), new
`,
      'sys_copy_frame',
    );
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const to = m.constant('to', 64) as bigint;
      const frm = m.constant('frm', 64) as bigint;
      const data = field(r.pre, 'pages.data');
      for (const pn of [to, frm, (to + 1n) & M64]) {
        for (const i of [0n, 1n, 7n]) {
          // The lambda was stored before the point write to frm[0], so oldfn does not see it;
          // k is read when the map is read, after it became 2.
          const lambdaValue = pn === to ? (at(data, m, frm, i) as bigint) + 2n : (at(data, m, pn, i) as bigint);
          const want = pn === frm && i === 0n ? 5n : lambdaValue & M64;
          expect(at(field(r.post, 'pages.data'), m, pn, i)).toBe(want);
        }
      }
    }
  });

  it('a lambda read twice sees the variables as they are at each read', () => {
    const r = run(
      `def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    k = util.i64(1)
    new.pages.data = lambda pn, idx, oldfn: oldfn(pn, idx) + k
    a = new.pages.data(to, 0)
    k = util.i64(2)
    b = new.pages.data(to, 0)
    base = old.pages[to].data(0)
    return z3.And(z3.eq(a, base + 1), z3.eq(b, base + 2)), new
`,
      'sys_copy_frame',
    );
    expect(isTrue(r.cond)).toBe(true);
  });

  it('scalars, flush_tlb and flush_iotlb', () => {
    const r = run(
      `def sys_kill(old, pid):
    new = old.copy()
    new.current = pid
    new.flush_tlb(pid)
    new.flush_iotlb()
    return z3.BoolVal(True), new
`,
      'sys_kill',
    );
    for (const seed of SEEDS.slice(0, 10)) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      expect(at(field(r.post, 'current'), m)).toBe(pid);
      expect(at(field(r.post, 'iotlbinv'), m)).toBe(true);
      expect(at(field(r.post, 'procs.tlbinv'), m, pid)).toBe(true);
      const other = (pid + 1n) & M64;
      expect(at(field(r.post, 'procs.tlbinv'), m, other)).toBe(at(field(r.pre, 'procs.tlbinv'), m, other));
    }
  });

  it('never mutates the pre-state, and untouched fields stay the very same maps', () => {
    const pre = freshState();
    const before = new Map(pre);
    const r = run(
      `def sys_kill(old, pid):
    old.procs[pid].state = dt.proc_state.PROC_ZOMBIE
    old.current = pid
    old.procs[pid].nr_children[pid] += 1
    return z3.BoolVal(True), old
`,
      'sys_kill',
      { pre },
    );
    expect([...pre]).toEqual([...before]);
    expect(r.post.get('procs.state')).not.toBe(pre.get('procs.state'));
    expect(r.post.get('pages.data')).toBe(pre.get('pages.data'));
  });

  it('a Python int written into a map fails lazily where the index match is symbolic', () => {
    const r = run(
      `def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].ppid = 1
    x = new.procs[pid].ppid
    return x == 1, new
`,
      'sys_kill',
      { force: 'none' },
    );
    expect(isTrue(r.cond)).toBe(true);
    const ppid = field(r.post, 'procs.ppid');
    expect(ppid.apply([variable('pid', 64)])).toBe(bvConst(1n, 64));
    let caught: unknown;
    try {
      ppid.apply([variable('q', 64)]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpecError);
    const d = (caught as SpecError).diagnostic;
    expect([d.code, d.message, d.span.line]).toEqual(['SPEC013', 'Can not ite object of type int', 7]);
    expect(d.detail).toContain('new.procs[pid].ppid = 1');
  });
});

describe('Refcnt ghost permutation (docs/hv6-model.md §4.6)', () => {
  type Cnt = { ref: bigint; slotOf: (z: bigint) => bigint; objAt: (s: bigint) => bigint };

  function checkRefcnt(pre: RefcntValue, post: RefcntValue, m: RandomModel, owner: bigint, x: bigint, delta: 1n | -1n, ownerBits = 64) {
    const ref0 = at(pre.ref, m, owner) as bigint;
    const r = delta === 1n ? ref0 : (ref0 - 1n) & M64;
    const y = at(pre.perm, m, owner, r) as bigint;
    const i = at(pre.permInv, m, owner, x) as bigint;
    expect(at(post.ref, m, owner)).toBe((ref0 + delta) & M64);
    const other = (owner + 1n) & mask(ownerBits);
    expect(at(post.ref, m, other)).toBe(at(pre.ref, m, other));
    for (const s of [r, i, (r + 7n) & M64]) {
      const want = s === i ? y : s === r ? x : at(pre.perm, m, owner, s);
      expect(at(post.perm, m, owner, s)).toBe(want);
      expect(at(post.perm, m, other, s)).toBe(at(pre.perm, m, other, s));
    }
    for (const z of [x, y, x + 3n]) {
      const zz = z & mask(pre.permInv.domain[1]);
      const want = zz === y ? i : zz === x ? r : at(pre.permInv, m, owner, zz);
      expect(at(post.permInv, m, owner, zz)).toBe(want);
    }
  }

  it('+= 1 and -= 1 on a Refcnt swap exactly as specified', () => {
    const r = run(
      `def sys_copy_frame(old, frm, pid, to):
    up = old.copy()
    up.procs[pid].nr_pages[to] += 1
    down = old.copy()
    down.procs[pid].nr_pages[frm] -= 1
    return z3.BoolVal(True), util.If(z3.Bool('choose'), up, down)
`,
      'sys_copy_frame',
    );
    const pre = r.pre.get('procs.nr_pages') as RefcntValue;
    const post = r.post.get('procs.nr_pages') as RefcntValue;
    for (const seed of SEEDS) {
      for (const choose of [true, false]) {
        const m = new RandomModel(seed).fix('spec:choose:bool', choose);
        const pid = m.constant('pid', 64) as bigint;
        const obj = m.constant(choose ? 'to' : 'frm', 64) as bigint;
        checkRefcnt(pre, post, m, pid, obj, choose ? 1n : -1n);
      }
    }
  });

  it('Refcnt2 updates both components of the owned pair', () => {
    const r = run(
      `def sys_dup(old, oldfd, pid, newfd):
    fn = old.procs[pid].ofile(oldfd)
    new = old.copy()
    new.files[fn].refcnt[(pid, newfd)] += 1
    new.files[fn].refcnt[(pid, oldfd)] -= 1
    return z3.BoolVal(True), new
`,
      'sys_dup',
    );
    const pre = r.pre.get('files.refcnt') as Refcnt2Value;
    const post = r.post.get('files.refcnt') as Refcnt2Value;
    const M32 = mask(32);
    for (const seed of SEEDS) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      const newfd = m.constant('newfd', 32) as bigint;
      const oldfd = m.constant('oldfd', 32) as bigint;
      const fn = at(field(r.pre, 'procs.ofile'), m, pid, oldfd) as bigint;
      // Reference: apply the two steps to concrete finite maps.
      const ref = new Map<bigint, bigint>();
      const p1 = new Map<string, bigint>();
      const p2 = new Map<string, bigint>();
      const inv = new Map<string, bigint>();
      const getRef = (o2: bigint) => ref.get(o2) ?? (at(pre.ref, m, o2) as bigint);
      const getP1 = (s: bigint) => p1.get(`${s}`) ?? (at(pre.perm1, m, fn, s) as bigint);
      const getP2 = (s: bigint) => p2.get(`${s}`) ?? (at(pre.perm2, m, fn, s) as bigint);
      const getInv = (a: bigint, b: bigint) => inv.get(`${a},${b}`) ?? (at(pre.permInv, m, fn, a, b) as bigint);
      const step = (a: bigint, b: bigint, d: 1n | -1n) => {
        const old = getRef(fn);
        ref.set(fn, (old + d) & M64);
        const slot = d === 1n ? old : (old - 1n) & M64;
        const y1 = getP1(slot);
        const y2 = getP2(slot);
        const i = getInv(a, b);
        p1.set(`${slot}`, a);
        p2.set(`${slot}`, b);
        inv.set(`${a},${b}`, slot);
        p1.set(`${i}`, y1);
        p2.set(`${i}`, y2);
        inv.set(`${y1},${y2}`, i);
      };
      step(pid, newfd, 1n);
      step(pid, oldfd, -1n);
      expect(at(post.ref, m, fn)).toBe(getRef(fn));
      for (const s of [...p1.keys()].map(BigInt)) {
        expect(at(post.perm1, m, fn, s)).toBe(getP1(s));
        expect(at(post.perm2, m, fn, s)).toBe(getP2(s));
      }
      for (const k of inv.keys()) {
        const [a, b] = k.split(',').map(BigInt);
        expect(at(post.permInv, m, fn, a, b & M32)).toBe(getInv(a, b & M32));
      }
    }
  });
});

describe('util.If on states and copies', () => {
  it('returns the branch object itself for literal conditions and identical branches', () => {
    const r = callSpecFunction(
      `${SPEC_HEADER}
def f(old, c):
    new = old.copy()
    a = util.If(z3.BoolVal(True), new, old)
    b = util.If(z3.Not(z3.BoolVal(True)), new, old)
    d = util.If(c, new, new)
    e = util.If(c, new, old)
    return a is new, b is old, d is new, e is not new and e is not old
`,
      'f',
      [fromAbstract(freshState()), variable('c', 0)],
    );
    expect(r.ok && r.value).toEqual(new PyTuple([true, true, true, true]));
  });

  it('reproduces the aliasing caveat: writes to If(False, new, old) land in old', () => {
    const body = `def send(old, pid):
    cond = is_pid_valid(pid)
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    return cond, util.If(cond, new, old)

def sys_kill(old, pid):
    cond, st = send(old, pid)
    st.current = pid
    return cond, util.If(cond, st, old)
`;
    const concrete = run(body, 'sys_kill', { args: [bvConst(0n, 64)] });
    expect(isTrue(o.not(concrete.cond))).toBe(true);
    // cond is literally False, so `st` was `old` itself and the write is in the returned state.
    expect(field(concrete.post, 'current').apply([])).toBe(bvConst(0n, 64));
    expect(concrete.pre.get('current')).not.toBe(concrete.post.get('current'));
    const symbolic = run(body, 'sys_kill');
    for (const seed of SEEDS.slice(0, 10)) {
      const m = new RandomModel(seed);
      const pid = m.constant('pid', 64) as bigint;
      const valid = pid > 0n && pid < 64n;
      expect(at(field(symbolic.post, 'current'), m)).toBe(valid ? pid : at(field(symbolic.pre, 'current'), m));
    }
  });

  it('copies are independent of each other and of the original', () => {
    const r = run(
      `def sys_kill(old, pid):
    a = old.copy()
    b = a.copy()
    a.procs[pid].killed = z3.BoolVal(True)
    b.current = pid
    view = old.procs[pid]
    c = old.copy()
    c.procs[pid].ppid = pid
    same = z3.And(z3.eq(old.current, a.current),
                  z3.eq(old.procs[pid].killed, b.procs[pid].killed),
                  z3.eq(view.ppid, old.procs[pid].ppid))
    return same, a
`,
      'sys_kill',
    );
    expect(isTrue(r.cond)).toBe(true);
  });

  it('a write through an indexed view updates the struct it came from', () => {
    const r = run(
      `def sys_kill(old, pid):
    new = old.copy()
    p = new.procs[pid]
    p.killed = z3.BoolVal(True)
    return new.procs[pid].killed, new
`,
      'sys_kill',
    );
    expect(isTrue(r.cond)).toBe(true);
  });

  it('builds quantifiers from z3.BitVec constants (checked by Z3)', async () => {
    const r = run(
      `def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    new.pages[to].data = util.i64(0)
    p, i = z3.BitVecs('p i', 64)
    # Every other page keeps its contents (a frame condition, not foldable to True).
    cond = z3.ForAll([p, i], z3.Implies(p != to, new.pages[p].data(i) == old.pages[p].data(i)))
    return cond, new
`,
      'sys_copy_frame',
    );
    expect(r.cond.op).toBe('forall');
    const z3 = await nodeEngine();
    const res = await z3.check([o.not(r.cond)], { timeoutMs: 20_000 });
    expect(res.status).toBe('unsat');
  });
});
