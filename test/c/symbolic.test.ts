/**
 * The executor's terms taken to Z3: safety conditions proved or refuted
 * (a refutation's model is replayed through our own evaluator), two
 * implementations proved equal (return value and every memory leaf), an
 * override's bug found, and the hook models checked against plain C loops.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import {
  type CMemory, type CProgram, type ExecResult, TLBINV, execFunction, freshMemory, functionSignature, parseProgram,
} from '../../src/core/c/index.ts';
import { evaluate } from '../../src/core/smt/eval.ts';
import * as o from '../../src/core/smt/ops.ts';
import { type Term, bvConst, variable } from '../../src/core/smt/term.ts';
import { mustParse } from './helpers.ts';

const HOOKS_H = `
typedef unsigned long uint64_t;
typedef unsigned long size_t;
typedef long pid_t;
typedef _Bool bool;
void __osv_assert(bool e);
#define assert(e) __osv_assert(e)
void panic(char *msg);
void *memset(void *dst, int c, size_t n);
void copy_words(uint64_t *dst, uint64_t *src, size_t n);
void hvm_invalidate_tlb(pid_t pid);
`;

const SOURCE = `
#include "hooks.h"
struct slot { long owner; uint64_t refs; int flags; };
struct slot slots[16];
uint64_t pages[4][16];
long table[8];
long current;

long safe_get(unsigned i) { if (i < 8) return table[i]; return -1; }
long unsafe_get(int i) { return table[i]; }
long guarded(int x) { if (x < 0) return -1; if (x > 100) return -2; if (x > 200) panic("big"); assert(x >= 0); return table[x & 7]; }
long checked(int x) { assert(x > 0 && x < 8); return table[x]; }

int abs_a(int x) { return x < 0 ? -x : x; }
int abs_b(int x) { if (x >= 0) return x; return 0 - x; }

static struct slot *slot_of(long i) { return &slots[i & 15]; }
int take_a(long i, long who) {
    struct slot *s = slot_of(i);
    if (s->owner != 0) return -16;
    s->owner = who;
    s->refs++;
    return 0;
}
int take_b(long i, long who) {
    if (slots[i & 15].owner) return -1;
    slots[i & 15].refs = slots[i & 15].refs + 1;
    slots[i & 15].owner = who;
    return 0;
}

void copy_model(uint64_t a, uint64_t b, size_t n) { copy_words(pages[a & 3], pages[b & 3], n); }
void copy_loop(uint64_t a, uint64_t b, size_t n) {
    uint64_t *dst = pages[a & 3];
    uint64_t *src = pages[b & 3];
    for (int i = 0; i < 16; i++)
        if (i < n)
            dst[i] = src[i];
}
void fill_model(uint64_t a, int c) { memset(pages[a & 3], c, sizeof(pages[0])); }
void fill_loop(uint64_t a, int c) {
    uint64_t byte = (unsigned char)c;
    for (int i = 0; i < 16; i++)
        pages[a & 3][i] = byte * 0x0101010101010101UL;
}
void flush(pid_t pid) { hvm_invalidate_tlb(pid); }

long owners[64];
static bool valid(long pid) { return pid > 0 && pid < 64; }
static long owner_of(long pid) { assert(valid(pid)); return owners[pid]; }
static int check_pid(long pid) { if (pid <= 0) return -3; if (pid >= 64) return -22; return 0; }
long use_code(long pid) { int r = check_pid(pid); if (r != 0) return r; if (pid <= 0) panic("checked"); return owners[pid]; }
long lookup(long pid) { if (!valid(pid)) return -3; if (valid(pid) && owner_of(pid) == 0) return -1; return owner_of(pid); }
`;

function program(overrides: { path: string; text: string }[] = []): CProgram {
  return mustParse(new Map([['hooks.h', HOOKS_H], ['t.c', SOURCE]]), ['t.c'], overrides);
}

function exec(p: CProgram, name: string, args: Term[], mem: CMemory = freshMemory(p)): Extract<ExecResult, { ok: true }> {
  const r = execFunction(p, name, mem, args);
  if (!r.ok) throw new Error(r.error.detail);
  return r;
}

function argsOf(p: CProgram, name: string, prefix = 'a'): Term[] {
  return functionSignature(p, name)!.params.map((x) => variable(`${prefix}.${x.name}`, x.width));
}

/** Every leaf of two memories equal at fresh indices (inside the arrays when `inRange` gives bounds), as one Bool. */
function sameMemory(a: CMemory, b: CMemory, inRange: Record<string, number[]> = {}): Term {
  const parts: Term[] = [];
  for (const [k, f] of a) {
    const idx = f.domain.map((s, i) => variable(`idx.${k}.${i}`, s));
    const bounds = (inRange[k] ?? []).map((n, i) => o.ult(idx[i], bvConst(BigInt(n), 64)));
    parts.push(o.implies(o.and(...bounds), o.eq(f.apply(idx), b.get(k)!.apply(idx))));
  }
  return o.and(...parts);
}

describe('symbolic execution with Z3', () => {
  it('proves a guarded array access in bounds', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'safe_get', argsOf(p, 'safe_get'));
    expect(r.safety.map((s) => s.kind)).toEqual(['bounds']);
    const res = await z3.check([o.not(r.safety[0].ok)]);
    expect(res.status).toBe('unsat');
  });

  it('finds an index that breaks an unguarded access, and our evaluator agrees', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'unsafe_get', argsOf(p, 'unsafe_get'));
    expect(r.safety).toHaveLength(1);
    expect(r.safety[0].message).toBe('index i out of bounds of table[8]');
    const res = await z3.check([o.not(r.safety[0].ok)]);
    expect(res.status).toBe('sat');
    if (res.status !== 'sat') return;
    expect(evaluate(r.safety[0].ok, res.model)).toBe(false);
    const i = BigInt.asIntN(32, res.model.constant('a.i', 32) as bigint);
    expect(i < 0n || i >= 8n).toBe(true);
  });

  it('proves a panic unreachable and an assert that follows from earlier checks', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'guarded', argsOf(p, 'guarded'));
    // The first `x < 0` narrows the path, so no condition is left to prove there.
    expect(r.safety.map((s) => s.kind)).toEqual(['panic', 'assert']);
    expect(r.safety[0].message).toBe('panic("big") is reachable');
    for (const s of r.safety) expect((await z3.check([o.not(s.ok)])).status, s.message).toBe('unsat');
  });

  it('assumes a passed assert in later conditions', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'checked', argsOf(p, 'checked'));
    const [assertion, bounds] = r.safety;
    expect(assertion.kind).toBe('assert');
    expect((await z3.check([o.not(assertion.ok)])).status).toBe('sat');
    expect(bounds.kind).toBe('bounds');
    expect((await z3.check([o.not(bounds.ok)])).status).toBe('unsat');
  });

  it('proves two implementations of abs equal', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const x = [variable('x', 32)];
    const a = exec(p, 'abs_a', x);
    const b = exec(p, 'abs_b', x);
    expect((await z3.check([o.not(o.eq(a.ret, b.ret))])).status).toBe('unsat');
  });

  it('proves two implementations equal on return value (zero or not) and final memory', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const args = argsOf(p, 'take_a');
    const mem = freshMemory(p);
    const a = exec(p, 'take_a', args, mem);
    const b = exec(p, 'take_b', args, mem);
    const zero = bvConst(0n, 32);
    const goal = o.and(o.eq(o.eq(a.ret, zero), o.eq(b.ret, zero)), sameMemory(a.mem, b.mem));
    expect((await z3.check([o.not(goal)])).status).toBe('unsat');
  });

  it('finds the bug of an override that replaces a function, with a replayable model', async () => {
    const z3 = await nodeEngine();
    const good = program();
    const buggy = program([
      {
        path: 'buggy.c',
        text: `#include "hooks.h"
struct slot { long owner; uint64_t refs; int flags; };
extern struct slot slots[16];
int take_a(long i, long who) {
    struct slot *s = &slots[i & 15];
    if (s->owner != 0) return -16;
    s->owner = who;
    return 0;
}`,
      },
    ]);
    expect(buggy.functions.get('take_a')!.unit).toBe('buggy.c');
    const args = argsOf(good, 'take_a');
    const a = exec(good, 'take_a', args, freshMemory(good));
    const b = exec(buggy, 'take_a', args, freshMemory(buggy));
    const same = sameMemory(a.mem, b.mem);
    const res = await z3.check([o.not(same)]);
    expect(res.status).toBe('sat');
    if (res.status !== 'sat') return;
    expect(evaluate(same, res.model)).toBe(false);
  });

  it('models copy_words as the word loop it stands for', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const args = argsOf(p, 'copy_model');
    const mem = freshMemory(p);
    const m = exec(p, 'copy_model', args, mem);
    const l = exec(p, 'copy_loop', args, mem);
    expect((await z3.check([o.not(sameMemory(m.mem, l.mem, { pages: [4, 16] }))], { timeoutMs: 60_000 })).status).toBe('unsat');
  });

  it('models memset as the byte repeated in every element of the whole array', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const args = argsOf(p, 'fill_model');
    const mem = freshMemory(p);
    const m = exec(p, 'fill_model', args, mem);
    const l = exec(p, 'fill_loop', args, mem);
    // The model writes the page's whole index space; the loop only its 16 words.
    expect((await z3.check([o.not(sameMemory(m.mem, l.mem, { pages: [4, 16] }))])).status).toBe('unsat');
  });

  it('sets the #tlbinv flag of exactly the given pid', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const pid = variable('pid', 64);
    const other = variable('other', 64);
    const mem = freshMemory(p);
    const r = exec(p, 'flush', [pid], mem);
    const f = r.mem.get(TLBINV)!;
    expect(f.apply([pid])).toBe(o.TRUE);
    const unchanged = o.implies(o.not(o.eq(other, pid)), o.eq(f.apply([other]), mem.get(TLBINV)!.apply([other])));
    expect((await z3.check([o.not(unchanged)])).status).toBe('unsat');
  });

  it('drops conditions and branches the path already decides', async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'lookup', argsOf(p, 'lookup'));
    // Both asserts and the second validity test are known from the first test;
    // the index bound (unsigned, while the test was signed) is left to prove
    // once: the second access finds it among the passed conditions.
    expect(r.safety.map((x) => `${x.kind}: ${x.message}`)).toEqual(['bounds: index pid out of bounds of owners[64]']);
    for (const c of r.safety) expect((await z3.check([o.not(c.ok)])).status).toBe('unsat');
    expect(String(r.ret)).not.toContain('If(And((a.pid > 0), (a.pid < 0x40)), If(And');
  });

  it("learns from a helper's error code that its checks passed", async () => {
    const z3 = await nodeEngine();
    const p = program();
    const r = exec(p, 'use_code', argsOf(p, 'use_code'));
    // `r != 0` over If(pid <= 0, -3, If(pid >= 64, -22, 0)) is a formula over the
    // two tests, so the path after `return r` knows pid > 0: no panic condition.
    expect(r.safety.map((x) => x.kind)).toEqual(['bounds']);
    expect((await z3.check([o.not(r.safety[0].ok)])).status).toBe('unsat');
  });

  it('reports API misuse as errors', () => {
    const p = program();
    const noFn = execFunction(p, 'nope', freshMemory(p), []);
    expect(noFn.ok ? '' : noFn.error.code).toBe('C058');
    const hookOnly = execFunction(p, 'panic', freshMemory(p), []);
    expect(hookOnly.ok ? '' : hookOnly.error.code).toBe('C058');
    const width = execFunction(p, 'abs_a', freshMemory(p), [variable('x', 64)]);
    expect(width.ok ? '' : width.error.message).toBe("argument 1 ('x') must be 32 bits wide, got sort 64");
    const r = parseProgram(new Map([['t.c', SOURCE]]), ['t.c']);
    expect(r.ok ? '' : r.errors[0].code).toBe('C001');
  });
});
