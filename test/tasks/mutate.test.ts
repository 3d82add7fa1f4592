/**
 * The mutation operators on a small C unit: each operator finds its site,
 * the rewritten function is exactly the expected text, and the rewritten
 * unit still parses and links in our subset.
 */
import { describe, expect, it } from 'vitest';
import { type CProgram, parseProgram } from '../../src/core/c/index.ts';
import { indexSource } from '../../src/core/tasks/c-source.ts';
import { applyMutations, composeVariant, conflicts } from '../../src/core/tasks/inject.ts';
import { type Mutation, type MutationContext, OPERATORS, mutationsOf } from '../../src/core/tasks/mutate.ts';

const HEADER = `#define NPROC 64
#define NSLOT 16
#define ESRCH 3
#define EACCES 13
#define EINVAL 22

typedef long pid_t;
typedef unsigned long size_t;
typedef unsigned long pn_t;
typedef _Bool bool;

struct proc {
    pid_t ppid;
    pn_t stack;
    pn_t hvm;
    size_t nr_slots;
    size_t nr_pages;
    int state;
    pn_t slot[NSLOT];
    unsigned long pending[4];
};

extern struct proc procs[NPROC];
extern pid_t vector_table[NPROC];
extern pid_t io_table[NPROC];
extern pid_t current;

void free_page(pn_t pn);
`;

const UNIT = `#include "mini.h"

struct proc procs[NPROC];
pid_t vector_table[NPROC];
pid_t io_table[NPROC];
pid_t current;

void free_page(pn_t pn)
{
    procs[current].nr_pages--;
}

bool is_pid_valid(pid_t pid)
{
    return pid > 0 && pid < NPROC;
}

/* Give slot idx of pid's table the page pn. */
int sys_give(pid_t pid, pid_t other, pn_t from, pn_t to, size_t idx)
{
    if (!is_pid_valid(pid))
        return -ESRCH;
    /* Only the parent may give. */
    if (procs[pid].ppid != current)
        return -EACCES;
    if (idx >= NSLOT)
        return -EINVAL;
    if (vector_table[pid] == 0 || procs[pid].state == 5)
        return -EINVAL;
    procs[pid].slot[idx] = from;
    procs[pid].stack = to;
    procs[pid].nr_slots++;
    procs[other].nr_pages--;
    vector_table[pid] = current;
    procs[pid].hvm = 0;
    procs[pid].pending[idx / 64] &= ~(1UL << (idx % 64));
    free_page(to);
    return 0;
}
`;

function load(unit = UNIT): { program: CProgram; ctx: MutationContext } {
  const files = new Map([['mini.h', HEADER], ['unit.c', unit]]);
  const r = parseProgram(files, ['unit.c']);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return { program: r.program, ctx: { program: r.program, index: indexSource(r.program) } };
}

const { ctx } = load();
const all: Mutation[] = ['free_page', 'is_pid_valid', 'sys_give'].flatMap((f) => mutationsOf(ctx, f));

/** The function's text after the mutation, and the whole unit with it (which must still link). */
function mutate(m: Mutation): { fn: string; unit: string } {
  const fn = applyMutations(ctx, [m]).functions.get(m.function)!;
  const item = ctx.index.functions.get(m.function)!;
  const unit = UNIT.slice(0, item.start) + fn + UNIT.slice(item.end);
  load(unit);
  return { fn, unit };
}

function find(operator: string, pred: (m: Mutation) => boolean = () => true): Mutation {
  const ms = all.filter((m) => m.operator === operator && pred(m));
  if (!ms.length) throw new Error(`no ${operator} mutation (have: ${[...new Set(all.map((m) => m.operator))].join(', ')})`);
  return ms[0];
}

/** The lines of `after` that differ from the original function (a compact view of the edit). */
function changed(m: Mutation, after: string): string[] {
  const before = ctx.index.functions.get(m.function)!.text.split('\n');
  const now = after.split('\n');
  return now.filter((l) => !before.includes(l)).map((l) => l.trim());
}

describe('mutation operators', () => {
  it('every operator has a site in the sample unit', () => {
    const found = new Set(all.map((m) => m.operator));
    for (const op of Object.keys(OPERATORS)) expect(found, op).toContain(op);
  });

  it('each mutation has the bug class its operator declares (by-check operators follow the check)', () => {
    for (const m of all) {
      const declared = OPERATORS[m.operator].bugClass;
      if (declared !== 'by-check') expect(m.bugClass, m.id).toBe(declared);
    }
    const byCheck = all.filter((m) => OPERATORS[m.operator].bugClass === 'by-check');
    expect(new Set(byCheck.map((m) => m.bugClass)).size).toBeGreaterThan(1);
  });

  it('ids are unique and every mutation keeps the unit linkable', () => {
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const m of all) expect(() => mutate(m), m.id).not.toThrow();
  });

  it('target-to-current: a pid argument becomes current', () => {
    const m = find('target-to-current', (x) => x.id.includes('@30:'));
    expect(m.bugClass).toBe('incorrect-pointer');
    expect(changed(m, mutate(m).fn)).toEqual(['procs[current].slot[idx] = from;']);
  });

  it('current-to-target: current becomes a pid parameter', () => {
    const m = find('current-to-target', (x) => x.id.includes('@34:') && x.id.endsWith('/pid'));
    expect(changed(m, mutate(m).fn)).toEqual(['vector_table[pid] = pid;']);
    // Never a comparison of a name with itself.
    for (const x of all.filter((y) => y.operator === 'current-to-target' || y.operator === 'target-to-current')) {
      expect(mutate(x).fn).not.toMatch(/\b(\w+) [!=]= \1\b/);
    }
  });

  it('swap-argument: from becomes to (same type), never pid for idx', () => {
    const m = find('swap-argument', (x) => x.description.startsWith('"from" became "to"'));
    expect(changed(m, mutate(m).fn)).toEqual(['procs[pid].slot[idx] = to;']);
    expect(all.some((x) => x.operator === 'swap-argument' && x.description.includes('"idx" became "pid"'))).toBe(false);
  });

  it('wrong-table: an owner table becomes another of the same element type', () => {
    const m = find('wrong-table', (x) => x.description === '"vector_table" became "io_table"' && x.id.includes('@34:'));
    expect(changed(m, mutate(m).fn)).toEqual(['io_table[pid] = current;']);
    expect(all.some((x) => x.operator === 'wrong-table' && x.description.includes('"procs"'))).toBe(false);
  });

  it('wrong-field: a field becomes its nearest neighbour of the same type', () => {
    const ms = all.filter((x) => x.operator === 'wrong-field' && x.description.startsWith('field "stack"'));
    // stack's only field of type pn_t besides itself is hvm (slot is an array, ppid a pid_t).
    expect(ms.map((x) => x.description.split('"')[3])).toEqual(['hvm']);
    expect(changed(ms[0], mutate(ms[0]).fn)).toEqual(['procs[pid].hvm = to;']);
  });

  it('drop-check: the whole check goes, with its comment; the class follows what it checks', () => {
    const priv = find('drop-check', (x) => x.description.includes('EACCES'));
    expect(priv.bugClass).toBe('incorrect-privilege');
    const fn = mutate(priv).fn;
    expect(fn).not.toContain('Only the parent may give.');
    expect(fn).not.toContain('ppid');
    expect(fn.split('\n').length).toBe(ctx.index.functions.get('sys_give')!.text.split('\n').length - 3);
    expect(find('drop-check', (x) => x.description.includes('idx >= NSLOT')).bugClass).toBe('buffer-overflow');
    expect(find('drop-check', (x) => x.description.includes('is_pid_valid')).bugClass).toBe('bounds-checking');
  });

  it('invert-check: an ownership check is negated, and only ownership checks are', () => {
    const m = find('invert-check', (x) => x.id.includes('@24:'));
    expect(m.bugClass).toBe('incorrect-privilege');
    expect(changed(m, mutate(m).fn)).toEqual(['if (procs[pid].ppid == current)']);
    const owner = find('invert-check', (x) => x.id.includes('@28:'));
    expect(changed(owner, mutate(owner).fn)).toEqual(['if (!(vector_table[pid] == 0 || procs[pid].state == 5))']);
    expect(all.filter((x) => x.operator === 'invert-check').map((x) => x.bugClass)).toEqual(['incorrect-privilege', 'incorrect-privilege']);
    expect(all.some((x) => x.operator === 'invert-check' && x.description.includes('is_pid_valid'))).toBe(false);
  });

  it('drop-guard: one conjunct of a predicate, or one disjunct of a rejection', () => {
    const upper = find('drop-guard', (x) => x.function === 'is_pid_valid' && x.description.startsWith('dropped "pid < NPROC"'));
    expect(upper.bugClass).toBe('buffer-overflow');
    expect(changed(upper, mutate(upper).fn)).toEqual(['return pid > 0;']);
    const lower = find('drop-guard', (x) => x.function === 'is_pid_valid' && x.description.startsWith('dropped "pid > 0"'));
    expect(lower.bugClass).toBe('bounds-checking');
    expect(changed(lower, mutate(lower).fn)).toEqual(['return pid < NPROC;']);
    const disj = find('drop-guard', (x) => x.function === 'sys_give' && x.description.startsWith('dropped "procs[pid].state == 5"'));
    expect(changed(disj, mutate(disj).fn)).toEqual(['if (vector_table[pid] == 0)']);
    expect(disj.bugClass).toBe('bounds-checking');
    const owner = find('drop-guard', (x) => x.function === 'sys_give' && x.description.startsWith('dropped "vector_table[pid] == 0"'));
    expect(changed(owner, mutate(owner).fn)).toEqual(['if (procs[pid].state == 5)']);
    expect(owner.bugClass).toBe('incorrect-privilege');
  });

  it('loosen-lower-bound: x > 0 becomes x >= 0', () => {
    const m = find('loosen-lower-bound');
    expect(m.bugClass).toBe('bounds-checking');
    expect(changed(m, mutate(m).fn)).toEqual(['return pid >= 0 && pid < NPROC;']);
  });

  it('off-by-one-bound: x < N becomes x <= N and x >= N becomes x > N', () => {
    const lt = find('off-by-one-bound', (x) => x.function === 'is_pid_valid');
    expect(changed(lt, mutate(lt).fn)).toEqual(['return pid > 0 && pid <= NPROC;']);
    const ge = find('off-by-one-bound', (x) => x.function === 'sys_give');
    expect(changed(ge, mutate(ge).fn)).toEqual(['if (idx > NSLOT)']);
    expect(ge.bugClass).toBe('buffer-overflow');
  });

  it('index-plus-one: a[i] becomes a[i + 1], with parentheses where needed', () => {
    const m = find('index-plus-one', (x) => x.description.startsWith('"procs[pid].slot[idx]"'));
    expect(changed(m, mutate(m).fn)).toEqual(['procs[pid].slot[idx + 1] = from;']);
    const div = find('index-plus-one', (x) => x.description.includes('pending[idx / 64]'));
    expect(changed(div, mutate(div).fn)).toEqual(['procs[pid].pending[idx / 64 + 1] &= ~(1UL << (idx % 64));']);
  });

  it('shrink-divisor: x / 64 becomes x / 32', () => {
    const m = find('shrink-divisor');
    expect(changed(m, mutate(m).fn)).toEqual(['procs[pid].pending[idx / 32] &= ~(1UL << (idx % 64));']);
  });

  it('leak operators: release, decrement, increment, counter direction, clearing store, bit clear', () => {
    const rel = find('drop-release');
    expect(mutate(rel).fn).not.toContain('free_page(to);');
    const dec = find('drop-decrement', (x) => x.function === 'sys_give');
    expect(mutate(dec).fn).not.toContain('procs[other].nr_pages--;');
    const inc = find('drop-increment');
    expect(mutate(inc).fn).not.toContain('nr_slots++');
    const flip = find('flip-counter', (x) => x.description.includes('nr_slots'));
    expect(changed(flip, mutate(flip).fn)).toEqual(['procs[pid].nr_slots--;']);
    const clear = find('drop-clear');
    expect(mutate(clear).fn).not.toContain('procs[pid].hvm = 0;');
    const bit = find('flip-bit-clear');
    expect(changed(bit, mutate(bit).fn)).toEqual(['procs[pid].pending[idx / 64] |= (1UL << (idx % 64));']);
    for (const m of [rel, dec, inc, flip, clear, bit]) expect(m.bugClass).toBe('memory-leak');
  });

  it('a mutated helper goes into the override with what it needs; overlapping mutations conflict', () => {
    const m = find('off-by-one-bound', (x) => x.function === 'is_pid_valid');
    const v = composeVariant(ctx, 'sys_give', [m]);
    expect(v.override.startsWith('#include "kernel.h"')).toBe(true);
    expect(v.override).toContain('return pid > 0 && pid <= NPROC;');
    expect(v.override).not.toContain('sys_give');
    const drop = find('drop-check', (x) => x.description.includes('EACCES'));
    const inv = find('invert-check');
    expect(conflicts(drop, inv)).toBe(true);
    expect(() => composeVariant(ctx, 'sys_give', [drop, inv])).toThrow(/overlaps/);
  });

  it('refuses a bug in a helper that another bug of the variant no longer calls', () => {
    const inHelper = find('off-by-one-bound', (x) => x.function === 'is_pid_valid');
    const dropCall = find('drop-check', (x) => x.description.includes('is_pid_valid'));
    expect(() => composeVariant(ctx, 'sys_give', [inHelper, dropCall])).toThrow(/no longer calls/);
    const otherCheck = find('drop-check', (x) => x.description.includes('EACCES'));
    expect(composeVariant(ctx, 'sys_give', [inHelper, otherCheck]).mutations).toHaveLength(2);
  });
});
