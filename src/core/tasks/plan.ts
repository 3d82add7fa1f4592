/**
 * Choosing the buggy variants: which handler gets how many bugs, of which
 * classes, and which mutations. Deterministic from a seed (every random draw
 * comes from a PRNG keyed by the seed and the slot), and steered towards
 * OSVBench's spread: the bug-count histogram is met exactly, the per-class
 * task counts approximately (each variant is given a number of distinct
 * classes that adds up to the target total, and classes are drawn by how far
 * behind their target they are).
 *
 * Whether a mutation is a real bug, and whether a finished variant is
 * acceptable, is decided by the caller (gcc, the verifier), so this module
 * stays pure.
 */
import { type Variant, VariantConflict, composeVariant, conflicts } from './inject.ts';
import { callClosure } from './shown-code.ts';
import { type Mutation, type MutationContext, mutationsOf } from './mutate.ts';
import { rng } from '../rng.ts';
import { BUG_CLASSES, type BugClass } from './task.ts';

/** OSVBench's buggy tasks by number of injected bugs. */
export const COUNT_TARGETS: Readonly<Record<number, number>> = { 1: 71, 2: 32, 3: 31, 4: 30, 5: 32 };

/** OSVBench's buggy tasks carrying each class (a task may carry several). */
export const CLASS_TARGETS: Readonly<Record<BugClass, number>> = {
  'incorrect-pointer': 71,
  'incorrect-privilege': 112,
  'memory-leak': 74,
  'buffer-overflow': 54,
  'bounds-checking': 108,
};

export interface PlanDeps {
  readonly ctx: MutationContext;
  readonly handlers: readonly string[];
  readonly seed: string;
  readonly variantsPerHandler?: number;
  readonly countTargets?: Readonly<Record<number, number>>;
  readonly classTargets?: Readonly<Record<BugClass, number>>;
  /** Is this single mutation a real bug of the handler (it compiles and the oracle refutes it)? */
  screen(handler: string, m: Mutation): Promise<boolean>;
  /** How many candidate mutations to screen at once (default 1). */
  readonly parallel?: number;
  /** Is the finished variant acceptable (it compiles and the oracle refutes it)? */
  accept(v: Variant): Promise<boolean>;
  log?(line: string): void;
}

export interface PlannedVariant {
  readonly handler: string;
  /** 1-based: the task id is `<handler>-v<index>`. */
  readonly index: number;
  readonly variant: Variant;
}

/** The distinct classes a variant of n bugs carries, on average hitting the targets' total. */
function distinctFor(n: number, r: () => number): number {
  switch (n) {
    case 1: return 1;
    case 2: return r() < 0.9 ? 2 : 1;
    case 3: return r() < 0.6 ? 3 : 2;
    case 4: return r() < 0.85 ? 3 : r() < 0.5 ? 4 : 2;
    default: return r() < 0.5 ? 4 : 3;
  }
}

/** Weighted random order (Efraimidis-Spirakis): higher weight, earlier on average. */
function weightedOrder<T>(items: readonly T[], weight: (x: T) => number, r: () => number): T[] {
  return items
    .map((x) => ({ x, k: Math.pow(r(), 1 / Math.max(weight(x), 1e-9)) }))
    .sort((a, b) => b.k - a.k)
    .map((e) => e.x);
}

/**
 * Plans `variantsPerHandler` buggy variants per handler. Returns them in
 * handler order, then by index.
 */
export async function planVariants(deps: PlanDeps): Promise<PlannedVariant[]> {
  const perHandler = deps.variantsPerHandler ?? 4;
  const countTargets = deps.countTargets ?? COUNT_TARGETS;
  const classTargets = deps.classTargets ?? CLASS_TARGETS;
  const log = deps.log ?? (() => {});
  const { ctx } = deps;

  const candidates = new Map<string, Mutation[]>();
  for (const h of deps.handlers) {
    candidates.set(h, callClosure(ctx.program, ctx.index, h).flatMap((f) => mutationsOf(ctx, f.name)));
  }
  const rejected = new Set<string>();
  const valid = new Set<string>();
  const key = (h: string, m: Mutation) => `${h}|${m.id}`;
  const screen = async (h: string, m: Mutation): Promise<boolean> => {
    const k = key(h, m);
    if (valid.has(k)) return true;
    if (rejected.has(k)) return false;
    const ok = await deps.screen(h, m);
    (ok ? valid : rejected).add(k);
    return ok;
  };

  // Slots get bug counts: richer handlers (more candidates, more classes) tend to get more bugs.
  const counts: number[] = [];
  for (const [n, c] of Object.entries(countTargets)) for (let i = 0; i < c; i++) counts.push(Number(n));
  counts.sort((a, b) => a - b);
  const order = rng(`${deps.seed}/slots`);
  const slots = deps.handlers.flatMap((h) => {
    const ms = candidates.get(h)!;
    const classes = new Set(ms.map((m) => m.bugClass)).size;
    const richness = Math.log2(1 + ms.length) + 0.5 * classes;
    return Array.from({ length: perHandler }, (_, i) => ({ handler: h, index: i + 1, key: richness + order() * 2, count: 0 }));
  });
  if (slots.length !== counts.length) throw new Error(`${slots.length} variant slots but ${counts.length} bug counts in the targets`);
  slots.sort((a, b) => a.key - b.key || a.handler.localeCompare(b.handler) || a.index - b.index);
  slots.forEach((s, i) => (s.count = counts[i]));

  const tally = Object.fromEntries(BUG_CLASSES.map((c) => [c, 0])) as Record<BugClass, number>;
  const used = new Map<string, Set<string>>();
  const sets = new Map<string, Set<string>>();
  const done: PlannedVariant[] = [];

  const need = (c: BugClass) => (classTargets[c] - tally[c]) / Math.max(classTargets[c], 1);

  const pickOne = async (h: string, c: BugClass, chosen: Mutation[], r: () => number): Promise<Mutation | undefined> => {
    const list = candidates.get(h)!.filter(
      (m) => m.bugClass === c && !rejected.has(key(h, m)) && !chosen.includes(m) && !chosen.some((x) => conflicts(x, m)),
    );
    const perFn = new Map<string, number>();
    for (const m of list) perFn.set(m.function, (perFn.get(m.function) ?? 0) + 1);
    const usedHere = used.get(h) ?? new Set();
    const weight = (m: Mutation) => ((m.function === h ? 3 : 1) / perFn.get(m.function)!) * (usedHere.has(m.id) ? 0.15 : 1);
    // The first candidate in this order that passes screening; `parallel` of them are screened at a
    // time, which changes how fast the answer comes, not which one it is.
    const ordered = weightedOrder(list, weight, r).slice(0, 8);
    const width = Math.max(1, deps.parallel ?? 1);
    for (let i = 0; i < ordered.length; i += width) {
      const window = ordered.slice(i, i + width);
      const ok = await Promise.all(window.map((m) => screen(h, m)));
      const k = ok.indexOf(true);
      if (k >= 0) return window[k];
    }
    return undefined;
  };

  const pick = async (h: string, n: number, r: () => number): Promise<Mutation[] | undefined> => {
    const available = BUG_CLASSES.filter((c) => candidates.get(h)!.some((m) => m.bugClass === c && !rejected.has(key(h, m))));
    const d = Math.min(distinctFor(n, r), n, available.length);
    // The variant's classes: the ones furthest behind their targets (ties broken at random).
    const ranked = available.map((c) => ({ c, k: need(c) + r() * 0.05 })).sort((a, b) => b.k - a.k).map((x) => x.c);
    const chosen: Mutation[] = [];
    const classes: BugClass[] = [];
    for (const c of ranked) {
      if (classes.length >= d) break;
      const m = await pickOne(h, c, chosen, r);
      if (m) {
        chosen.push(m);
        classes.push(c);
      }
    }
    if (!classes.length) return undefined;
    // The remaining bugs repeat the variant's classes.
    let stuck = 0;
    while (chosen.length < n && stuck < classes.length * 2) {
      const c = classes[Math.floor(r() * classes.length)];
      const m = await pickOne(h, c, chosen, r);
      if (m) chosen.push(m);
      else stuck++;
    }
    // A variant short of bugs may borrow a further class.
    for (const c of ranked) {
      if (chosen.length >= n) break;
      if (classes.includes(c)) continue;
      const m = await pickOne(h, c, chosen, r);
      if (m) chosen.push(m);
    }
    return chosen.length === n ? chosen : undefined;
  };

  for (let si = 0; si < slots.length; si++) {
    const slot = slots[si];
    const h = slot.handler;
    let accepted: Variant | undefined;
    const tried = new Set<number>();
    for (;;) {
      tried.add(slot.count);
      for (let attempt = 0; attempt < 6 && !accepted; attempt++) {
        const r = rng(`${deps.seed}/${h}/v${slot.index}/n${slot.count}/a${attempt}`);
        const ms = await pick(h, slot.count, r);
        if (!ms) continue;
        const ids = ms.map((m) => m.id).sort().join(' ');
        if ([...(sets.get(h) ?? [])].includes(ids)) continue;
        let v: Variant;
        try {
          v = composeVariant(ctx, h, ms);
        } catch (e) {
          if (e instanceof VariantConflict) continue;
          throw e;
        }
        if (await deps.accept(v)) accepted = v;
        else log(`${h}-v${slot.index}: variant with ${ms.length} bugs not accepted (attempt ${attempt})`);
      }
      if (accepted) break;
      // Trade this slot's count with a slot further down the list: a smaller count first, else a larger one
      // (a handler with few distinct bugs may run out of single-bug variants but still combine two).
      const later = slots.map((s, k) => ({ s, k })).filter(({ s, k }) => k > si && !tried.has(s.count));
      const swap = later.find(({ s }) => s.count < slot.count) ?? later.find(({ s }) => s.count > slot.count);
      if (!swap) throw new Error(`cannot build a variant of ${h} with any bug count still available (tried ${[...tried].join(', ')})`);
      const j = swap.k;
      log(`${h}-v${slot.index}: no variant with ${slot.count} bugs; trading for ${slots[j].count}`);
      [slot.count, slots[j].count] = [slots[j].count, slot.count];
    }
    const classes = new Set(accepted.mutations.map((m) => m.bugClass));
    for (const c of classes) tally[c]++;
    const u = used.get(h) ?? new Set<string>();
    for (const m of accepted.mutations) u.add(m.id);
    used.set(h, u);
    const s = sets.get(h) ?? new Set<string>();
    s.add(accepted.mutations.map((m) => m.id).sort().join(' '));
    sets.set(h, s);
    done.push({ handler: h, index: slot.index, variant: accepted });
    log(`${h}-v${slot.index}: ${accepted.mutations.length} bugs (${[...classes].join(', ')}) [${si + 1}/${slots.length}]`);
  }
  const rank = new Map(deps.handlers.map((h, i) => [h, i]));
  return done.sort((a, b) => rank.get(a.handler)! - rank.get(b.handler)! || a.index - b.index);
}
