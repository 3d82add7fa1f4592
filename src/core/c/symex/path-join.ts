/**
 * Path merging: where control meets again (after an `if`, at a loop exit, at
 * the end of a function), the states of the paths that reach it become one,
 * with `If` wherever they differ. Stashed paths merge as an If-chain whose
 * guards drop what earlier guards already rule out, and conjuncts every path
 * assumed stay plain conjuncts (the fact simplifier, facts.ts, reads them).
 */
import type { MapFn } from '../../smt/fn.ts';
import * as o from '../../smt/ops.ts';
import type { Term } from '../../smt/term.ts';
import type { Val } from '../hooks.ts';
import { type CMemory, iteMap, mkIfPtr } from '../memory.ts';
import { conjuncts } from './facts.ts';
import { type Exit, isTerm } from './state.ts';

/** `pc` without the conjuncts it shares with `base` (valid wherever `base` holds). */
function relGuard(pc: Term, base: Term): Term {
  if (pc === base) return o.TRUE;
  const b = new Set(conjuncts(base).map((c) => c.id));
  return o.and(...conjuncts(pc).filter((c) => !b.has(c.id)));
}

/** The disjunction of path conditions that all extend `base`. */
export function joinPc(pcs: readonly Term[], base: Term): Term {
  return o.and(base, o.or(...pcs.map((p) => relGuard(p, base))));
}

/**
 * Guards for an If-chain `If(g1, v1, If(g2, v2, ...))`: in the else branch
 * of g1, conjuncts of later guards that say `not g1` are dropped.
 */
function chainGuards(gs: readonly Term[]): Term[] {
  const known = new Set<number>();
  return gs.map((g) => {
    const kept = conjuncts(g).filter((c) => !known.has(c.id));
    const h = kept.length === conjuncts(g).length ? g : o.and(...kept);
    // In the else branch, not(g) holds, and so does each of its conjuncts.
    for (const c of [...conjuncts(o.not(g)), ...conjuncts(o.not(h))]) known.add(c.id);
    return h;
  });
}

/** Folds `If(g1, v1, If(g2, v2, ... vn))`, skipping equal neighbours and undefined values. */
function foldChain<T>(guards: readonly Term[], vals: readonly (T | undefined)[], ite: (c: Term, a: T, b: T) => T): T | undefined {
  let i = vals.length - 1;
  while (i >= 0 && vals[i] === undefined) i--;
  if (i < 0) return undefined;
  let acc: T = vals[i] as T;
  i--;
  while (i >= 0) {
    const v = vals[i];
    if (v === undefined || v === acc) {
      i--;
      continue;
    }
    const gs = [guards[i]];
    let j = i - 1;
    while (j >= 0 && (vals[j] === v || vals[j] === undefined)) {
      if (vals[j] === v) gs.push(guards[j]);
      j--;
    }
    acc = ite(o.or(...gs), v as T, acc);
    i = j;
  }
  return acc;
}

/**
 * Merges the assumptions of paths under an If-chain, keeping the conjuncts
 * they all share as plain conjuncts (so they stay usable as facts).
 */
export function mergeAssumptions(guards: readonly Term[], asms: readonly Term[]): Term {
  if (asms.every((a) => a === asms[0])) return asms[0];
  const sets = asms.map((a) => new Set(conjuncts(a).map((c) => c.id)));
  const common = conjuncts(asms[0]).filter((c) => sets.every((set) => set.has(c.id)));
  const shared = new Set(common.map((c) => c.id));
  const rests = asms.map((a) => o.and(...conjuncts(a).filter((c) => !shared.has(c.id))));
  return o.and(...common, foldChain(guards, rests, o.ite)!);
}

export function mergeVal(c: Term, a: Val, b: Val): Val {
  if (a === b) return a;
  if (isTerm(a) && isTerm(b)) return o.ite(c, a, b);
  if (!isTerm(a) && !isTerm(b)) return mkIfPtr(c, a, b);
  throw new Error('merging an integer with a pointer');
}

export function mergeMem(c: Term, a: CMemory, b: CMemory): CMemory {
  if (a === b) return a;
  const out = new Map<string, MapFn>();
  for (const [k, fa] of a) {
    const fb = b.get(k)!;
    out.set(k, fa === fb ? fa : iteMap(c, fa, fb));
  }
  return out;
}

export function mergeLocals(c: Term, a: Map<number, Val>, b: Map<number, Val>): Map<number, Val> {
  const out = new Map<number, Val>();
  for (const [k, va] of a) {
    const vb = b.get(k);
    if (vb !== undefined) out.set(k, mergeVal(c, va, vb));
  }
  return out;
}

/** Merges stashed paths that all extend `base`, in the order they were stashed. */
export function mergeExits(exits: readonly Exit[], base: Term): Exit {
  if (exits.length === 1) return exits[0];
  const guards = chainGuards(exits.map((x) => relGuard(x.pc, base)));
  const pc = joinPc(exits.map((x) => x.pc), base);
  const asm = mergeAssumptions(guards, exits.map((x) => x.asm));
  const mem = new Map<string, MapFn>();
  for (const k of exits[0].mem.keys()) {
    mem.set(k, foldChain(guards, exits.map((x) => x.mem.get(k)!), iteMap)!);
  }
  const value = foldChain<Val>(guards, exits.map((x) => x.value), mergeVal);
  let locals: Map<number, Val> | undefined;
  if (exits.every((x) => x.locals)) {
    locals = new Map();
    for (const k of exits[0].locals!.keys()) {
      const vs = exits.map((x) => x.locals!.get(k));
      if (vs.some((v) => v === undefined)) continue;
      locals.set(k, foldChain<Val>(guards, vs, mergeVal)!);
    }
  }
  return { pc, asm, mem, locals, value };
}
