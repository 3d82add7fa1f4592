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
import { type InjectedVariant, VariantConflict, composeVariant, conflicts } from './inject.ts';
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
  accept(v: InjectedVariant): Promise<boolean>;
  log?(line: string): void;
}

export interface PlannedVariant {
  readonly handler: string;
  /** 1-based: the task id is `<handler>-v<index>`. */
  readonly index: number;
  readonly variant: InjectedVariant;
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

/** A variant to build: its handler, its index and the number of bugs it is to carry. */
interface Slot {
  readonly handler: string;
  readonly index: number;
  /** Sort key: how rich the handler is, plus a little noise. */
  readonly key: number;
  count: number;
}

/** What planning knows and has chosen so far, shared by every slot. */
interface Planner {
  readonly deps: PlanDeps;
  readonly classTargets: Readonly<Record<BugClass, number>>;
  readonly log: (line: string) => void;
  /** Per handler: every mutation of the functions its shown code calls. */
  readonly candidates: ReadonlyMap<string, readonly Mutation[]>;
  /** Screening verdicts by `handler|mutation id`: true for a real bug. */
  readonly screened: Map<string, boolean>;
  /** Accepted variants carrying each class. */
  readonly tally: Record<BugClass, number>;
  /** Per handler: the mutation ids its accepted variants use... */
  readonly used: Map<string, Set<string>>;
  /** ... and each accepted variant's mutation ids (sorted, space-separated), so no two are the same. */
  readonly sets: Map<string, Set<string>>;
}

/**
 * Plans `variantsPerHandler` buggy variants per handler. Returns them in
 * handler order, then by index.
 */
export async function planVariants(deps: PlanDeps): Promise<PlannedVariant[]> {
  const { ctx } = deps;
  const candidates = new Map<string, Mutation[]>();
  for (const h of deps.handlers) {
    candidates.set(h, callClosure(ctx.program, ctx.index, h).flatMap((f) => mutationsOf(ctx, f.name)));
  }
  const p: Planner = {
    deps,
    classTargets: deps.classTargets ?? CLASS_TARGETS,
    log: deps.log ?? (() => {}),
    candidates,
    screened: new Map(),
    tally: Object.fromEntries(BUG_CLASSES.map((c) => [c, 0])) as Record<BugClass, number>,
    used: new Map(),
    sets: new Map(),
  };
  const slots = countedSlots(deps, candidates);
  const done: PlannedVariant[] = [];
  for (let si = 0; si < slots.length; si++) {
    const slot = slots[si];
    const accepted = await fillSlot(p, slots, si);
    const classes = record(p, slot.handler, accepted);
    done.push({ handler: slot.handler, index: slot.index, variant: accepted });
    p.log(`${slot.handler}-v${slot.index}: ${accepted.mutations.length} bugs (${[...classes].join(', ')}) [${si + 1}/${slots.length}]`);
  }
  const rank = new Map(deps.handlers.map((h, i) => [h, i]));
  return done.sort((a, b) => rank.get(a.handler)! - rank.get(b.handler)! || a.index - b.index);
}

/**
 * Every handler's slots, each given its bug count from the count targets:
 * slots sorted by how rich their handler is (more candidates, more classes),
 * so richer handlers tend to get more bugs.
 */
function countedSlots(deps: PlanDeps, candidates: ReadonlyMap<string, readonly Mutation[]>): Slot[] {
  const perHandler = deps.variantsPerHandler ?? 4;
  const counts: number[] = [];
  for (const [n, c] of Object.entries(deps.countTargets ?? COUNT_TARGETS)) for (let i = 0; i < c; i++) counts.push(Number(n));
  counts.sort((a, b) => a - b);
  const order = rng(`${deps.seed}/slots`);
  const slots = deps.handlers.flatMap((h) => {
    const ms = candidates.get(h)!;
    const classes = new Set(ms.map((m) => m.bugClass)).size;
    const richness = Math.log2(1 + ms.length) + 0.5 * classes;
    return Array.from({ length: perHandler }, (_, i): Slot => ({ handler: h, index: i + 1, key: richness + order() * 2, count: 0 }));
  });
  if (slots.length !== counts.length) throw new Error(`${slots.length} variant slots but ${counts.length} bug counts in the targets`);
  slots.sort((a, b) => a.key - b.key || a.handler.localeCompare(b.handler) || a.index - b.index);
  slots.forEach((s, i) => (s.count = counts[i]));
  return slots;
}

/**
 * The accepted variant of `slots[si]`: up to six attempts at its bug count;
 * when none is accepted, the slot trades its count with a later slot and
 * tries again. Throws when no count is left to try.
 */
async function fillSlot(p: Planner, slots: Slot[], si: number): Promise<InjectedVariant> {
  const slot = slots[si];
  const h = slot.handler;
  const tried = new Set<number>();
  for (;;) {
    tried.add(slot.count);
    const accepted = await attemptCount(p, slot);
    if (accepted) return accepted;
    // Trade this slot's count with a slot further down the list: a smaller count first, else a larger one
    // (a handler with few distinct bugs may run out of single-bug variants but still combine two).
    const later = slots.map((s, k) => ({ s, k })).filter(({ s, k }) => k > si && !tried.has(s.count));
    const swap = later.find(({ s }) => s.count < slot.count) ?? later.find(({ s }) => s.count > slot.count);
    if (!swap) throw new Error(`cannot build a variant of ${h} with any bug count still available (tried ${[...tried].join(', ')})`);
    const j = swap.k;
    p.log(`${h}-v${slot.index}: no variant with ${slot.count} bugs; trading for ${slots[j].count}`);
    [slot.count, slots[j].count] = [slots[j].count, slot.count];
  }
}

/** Up to six attempts (each with its own seeded draws) at a new, accepted variant of `slot.count` bugs. */
async function attemptCount(p: Planner, slot: Slot): Promise<InjectedVariant | undefined> {
  const h = slot.handler;
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = rng(`${p.deps.seed}/${h}/v${slot.index}/n${slot.count}/a${attempt}`);
    const ms = await pickMutations(p, h, slot.count, r);
    if (!ms) continue;
    const ids = ms.map((m) => m.id).sort().join(' ');
    if ([...(p.sets.get(h) ?? [])].includes(ids)) continue;
    let v: InjectedVariant;
    try {
      v = composeVariant(p.deps.ctx, h, ms);
    } catch (e) {
      if (e instanceof VariantConflict) continue;
      throw e;
    }
    if (await p.deps.accept(v)) return v;
    p.log(`${h}-v${slot.index}: variant with ${ms.length} bugs not accepted (attempt ${attempt})`);
  }
  return undefined;
}

/** Counts an accepted variant of `h` towards the targets and the handler's used mutations; returns its classes. */
function record(p: Planner, h: string, accepted: InjectedVariant): Set<BugClass> {
  const classes = new Set(accepted.mutations.map((m) => m.bugClass));
  for (const c of classes) p.tally[c]++;
  const u = p.used.get(h) ?? new Set<string>();
  for (const m of accepted.mutations) u.add(m.id);
  p.used.set(h, u);
  const s = p.sets.get(h) ?? new Set<string>();
  s.add(accepted.mutations.map((m) => m.id).sort().join(' '));
  p.sets.set(h, s);
  return classes;
}

const screenKey = (h: string, m: Mutation) => `${h}|${m.id}`;

/** Has screening already found that `m` is not a real bug of `h`? */
const rejected = (p: Planner, h: string, m: Mutation) => p.screened.get(screenKey(h, m)) === false;

/** Is `m` a real bug of `h`? Asks the caller once per mutation. */
async function screen(p: Planner, h: string, m: Mutation): Promise<boolean> {
  const k = screenKey(h, m);
  const known = p.screened.get(k);
  if (known !== undefined) return known;
  const ok = await p.deps.screen(h, m);
  p.screened.set(k, ok);
  return ok;
}

/**
 * `n` mutations of `h` for one variant, or undefined: first one of each of the
 * variant's classes (those furthest behind their targets), then more of the
 * same classes, then, if still short, of further classes.
 */
async function pickMutations(p: Planner, h: string, n: number, r: () => number): Promise<Mutation[] | undefined> {
  const candidates = p.candidates.get(h)!;
  const available = BUG_CLASSES.filter((c) => candidates.some((m) => m.bugClass === c && !rejected(p, h, m)));
  const d = Math.min(distinctFor(n, r), n, available.length);
  const need = (c: BugClass) => (p.classTargets[c] - p.tally[c]) / Math.max(p.classTargets[c], 1);
  // The variant's classes: the ones furthest behind their targets (ties broken at random).
  const ranked = available.map((c) => ({ c, k: need(c) + r() * 0.05 })).sort((a, b) => b.k - a.k).map((x) => x.c);
  const chosen: Mutation[] = [];
  const classes: BugClass[] = [];
  for (const c of ranked) {
    if (classes.length >= d) break;
    const m = await pickMutation(p, h, c, chosen, r);
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
    const m = await pickMutation(p, h, c, chosen, r);
    if (m) chosen.push(m);
    else stuck++;
  }
  // A variant short of bugs may borrow a further class.
  for (const c of ranked) {
    if (chosen.length >= n) break;
    if (classes.includes(c)) continue;
    const m = await pickMutation(p, h, c, chosen, r);
    if (m) chosen.push(m);
  }
  return chosen.length === n ? chosen : undefined;
}

/**
 * One more mutation of class `c` for a variant of `h` that already has
 * `chosen`: drawn by weight (the handler's own function first, functions
 * with few candidates not swamped by those with many, mutations already in
 * another variant of `h` rarely), the first of the top eight that screening
 * confirms.
 */
async function pickMutation(p: Planner, h: string, c: BugClass, chosen: readonly Mutation[], r: () => number): Promise<Mutation | undefined> {
  const list = p.candidates.get(h)!.filter(
    (m) => m.bugClass === c && !rejected(p, h, m) && !chosen.includes(m) && !chosen.some((x) => conflicts(x, m)),
  );
  const perFn = new Map<string, number>();
  for (const m of list) perFn.set(m.function, (perFn.get(m.function) ?? 0) + 1);
  const usedHere = p.used.get(h) ?? new Set();
  const weight = (m: Mutation) => ((m.function === h ? 3 : 1) / perFn.get(m.function)!) * (usedHere.has(m.id) ? 0.15 : 1);
  // The first candidate in this order that passes screening; `parallel` of them are screened at a
  // time, which changes how fast the answer comes, not which one it is.
  const ordered = weightedOrder(list, weight, r).slice(0, 8);
  const width = Math.max(1, p.deps.parallel ?? 1);
  for (let i = 0; i < ordered.length; i += width) {
    const window = ordered.slice(i, i + width);
    const ok = await Promise.all(window.map((m) => screen(p, h, m)));
    const k = ok.indexOf(true);
    if (k >= 0) return window[k];
  }
  return undefined;
}
