/**
 * The declarative checks of a spec step (docs/design.md §3, item 2). For one
 * handler's spec, from a fresh symbolic pre-state s and its post-state s'
 * (already `If(cond, new, s)`):
 *
 *   spec_invariants(s)            ⇒ spec_invariants(s')
 *   spec_invariants(s) ∧ L(s)     ⇒ L(s')          for every lemma L
 *
 * Each fact is proved by the per-fact prover (fact-prover.ts), with the
 * step's footprint (the points it updates) among the roots the assumed
 * facts are instantiated at. An invariant not provable from the invariants
 * alone is retried with each lemma assumed as well, which is upstream's
 * statement (spec_invariants ∧ L ⇒ spec_invariants' ∧ L', per lemma).
 *
 * The handler-independent checks (corollaries, the initial state) are
 * engine-proofs.ts.
 */
import { CHECKED_LEMMAS, LEMMAS, type Lemma, findLemma } from '../kernel/lemmas/index.ts';
import { isDerived } from '../kernel/lemmas/helpers.ts';
import { specInvariants } from '../kernel/spec-invariants.ts';
import { type AbstractState, fieldMaps } from '../kernel/state.ts';
import type { SmtEngine } from '../smt/solver.ts';
import type { Quantified } from '../smt/quantified.ts';
import { type Term, variable } from '../smt/term.ts';
import { type FactMemo, type FactOptions, type LemmaResult, QUANTIFIED_LEMMA, failingInCases, lemmaResult, proveFacts } from './fact-prover.ts';
import type { SymbolicStep } from './steps.ts';
import type { ObligationResult } from './verdict.ts';

export interface LemmaReport {
  /** One entry per lemma checked (with `stopAtFailure`, up to the first one not proved). */
  readonly lemmas: LemmaResult[];
  /** One entry per spec invariant. */
  readonly invariants: LemmaResult[];
  /** `stopAtFailure` stopped the check: something is not proved, and not every lemma was checked. */
  readonly stopped?: true;
}

/** How a spec step's lemmas are checked: which, in what order, whether to stop at the first failure; and how their facts are proved. */
export interface StepLemmaOptions extends FactOptions {
  /** Lemma names to check (default: every lemma but the report-only ones). */
  readonly only?: readonly string[];
  /**
   * Stop at the first lemma (or invariant) that ends not proved, and leave
   * out the rest: the check then is not proved, as the whole check would be
   * (strict grading needs no more). Lemmas in `first` go first, in its order.
   */
  readonly stopAtFailure?: boolean;
  readonly first?: readonly string[];
}

/** The group of invariants proved from the invariants alone. */
const FROM_INVARIANTS = 'inv';

/** The group of invariants proved under each lemma of `lemmas`. */
export function fromLemmas(lemmas: readonly string[]): string {
  return `${FROM_INVARIANTS}+${lemmas.join(',')}`;
}

/** Is `group` one of invariants (`FROM_INVARIANTS` or `fromLemmas(...)`), not a lemma's? */
export function isInvariantGroup(group: string): boolean {
  return group === FROM_INVARIANTS || group.startsWith(`${FROM_INVARIANTS}+`);
}

/**
 * The ground terms a spec step writes with: each field of `post` is read at
 * fresh probe indices, and the applications in the result that do not
 * mention a probe are kept (the step's condition, the points it updates, the
 * slots a Refcnt update swaps). Instantiating at them gives every goal the
 * facts about what the step touched, whichever goal mentions them.
 */
export function footprint(post: AbstractState): Term[] {
  const reads: Term[] = [];
  const probeNames = new Set<string>();
  for (const [path, value] of post) {
    fieldMaps(value).forEach((m, k) => {
      const xs = m.domain.map((sort, i) => {
        const name = `probe.${path}.${k}.${i}`;
        probeNames.add(name);
        return variable(name, sort);
      });
      reads.push(m.apply(xs));
    });
  }
  const hasProbe = new Map<number, boolean>();
  const out: Term[] = [];
  const visit = (t: Term): boolean => {
    const hit = hasProbe.get(t.id);
    if (hit !== undefined) return hit;
    let probe = t.op === 'var' && probeNames.has(t.name!);
    for (const a of t.args) if (visit(a)) probe = true;
    hasProbe.set(t.id, probe);
    if (!probe && t.op === 'app') out.push(t);
    return probe;
  };
  for (const r of reads) visit(r);
  return out;
}

function selectLemmas(only?: readonly string[]): Lemma[] {
  const names = only ?? CHECKED_LEMMAS;
  return names.map((n) => {
    const l = findLemma(n);
    if (!l) throw new Error(`unknown lemma '${n}' (known: ${LEMMAS.map((x) => x.name).join(', ')})`);
    return l;
  });
}

/**
 * The declarative checks of one handler's spec step: the spec invariants and
 * each selected lemma are preserved from `pre` to `post`. It runs as one
 * engine job (`SmtEngine.exclusive`), as do the corollary and initial-state
 * checks: never call them from inside another job.
 */
export function proveStepLemmas(input: SymbolicStep, engine: SmtEngine, opts: StepLemmaOptions = {}): Promise<LemmaReport> {
  return engine.exclusive(() => proveStepLemmasNow(input, engine, opts));
}

async function proveStepLemmasNow(input: SymbolicStep, engine: SmtEngine, opts: StepLemmaOptions): Promise<LemmaReport> {
  const { pre, post, handler } = input;
  const touched = footprint(post);
  const lemmas = selectLemmas(opts.only);
  const lemmaSet = fromLemmas(lemmas.map((l) => l.name));
  const invPre = specInvariants(pre);
  const invPost = specInvariants(post);
  const memo = opts.memo;
  // An invariant is known if it was carried over by the invariants alone or under this lemma set.
  const invMemo: FactMemo | undefined = memo && {
    known: (g, f) => memo.known(g, f) || memo.known(lemmaSet, f),
    proved: (g, f) => memo.proved(g, f),
  };

  const inv = await proveFacts(invPost, invPre, 'inv', engine, { ...opts, memo: invMemo }, touched, FROM_INVARIANTS);
  const invariants = new Map<string, LemmaResult>();
  invPost.forEach((f, i) => {
    const r = inv.results[i];
    invariants.set(f.name, { name: f.name, status: r.status, ms: r.ms ?? 0, ...(r.reason === QUANTIFIED_LEMMA ? { onWord: true as const } : {}) });
  });
  // Invariants the invariants alone do not carry over: upstream proves them
  // next to each lemma, so they hold if every lemma's assumption suffices.
  // One lemma that does not suffice settles it: no more retries.
  let retry = invPost.filter((f) => invariants.get(f.name)!.status !== 'proved');
  const retried = new Map<string, number>(retry.map((f) => [f.name, 0]));

  // A lemma included in others (nr_pages_refcnt in both isolation lemmas) is
  // proved once, from its own assumptions; those are part of every including
  // lemma's assumptions, so the proof serves each of them. What it cannot
  // prove alone is retried with the including lemma's assumptions. Only the
  // facts the including lemma still needs are asked.
  const ownResults = new Map<string, Map<string, ObligationResult>>();
  const own = async (name: string, needed: (f: Quantified) => boolean) => {
    let hit = ownResults.get(name);
    if (!hit) ownResults.set(name, (hit = new Map()));
    const l = findLemma(name)!;
    const goals = l.facts(post, pre, handler).filter((f) => !isDerived(f) && !hit.has(f.name) && needed(f));
    const out = await proveFacts(goals, [...invPre, ...l.facts(pre, pre, handler)], name, engine, opts, touched, name);
    goals.forEach((g, i) => hit.set(g.name, out.results[i]));
    return hit;
  };

  const results = new Map<string, LemmaResult>();
  const first = opts.first ?? [];
  const order = [...first.flatMap((n) => lemmas.find((l) => l.name === n) ?? []), ...lemmas.filter((l) => !first.includes(l.name))];
  let stopped = false;
  for (const lemma of order) {
    const started = Date.now();
    const assumed = [...invPre, ...lemma.facts(pre, pre, handler)];
    const goals = lemma.facts(post, pre, handler).filter((f) => !isDerived(f));
    const settled = new Map<string, ObligationResult>();
    const open = (f: Quantified) => !settled.has(f.name) && !memo?.known(lemma.name, f);
    if (lemma.reportOnly) for (const [k, r] of await own(lemma.name, () => true)) settled.set(k, r);
    if (opts.stopAtFailure && !lemma.reportOnly) {
      // Fact by fact, the likeliest to fail first: an included lemma's fact
      // from its own assumptions, and if that does not prove it, at once with
      // this lemma's (then final: one not proved settles the check).
      const includedBy = new Map<string, string>();
      for (const n of lemma.includes?.(handler) ?? []) for (const f of findLemma(n)!.facts(post, pre, handler)) includedBy.set(f.name, n);
      const ordered = memo?.order ? memo.order(lemma.name, goals) : goals;
      // Any fact that fails will do: one failing in a reachable state settles
      // the lemma before the solver is asked anything.
      const inCase = failingInCases(ordered.filter(open), assumed, lemma.name, opts, touched, lemma.name);
      if (inCase) settled.set(inCase.name, inCase);
      for (const g of inCase ? [] : ordered) {
        if (!open(g)) continue;
        const n = includedBy.get(g.name);
        const mine = n === undefined ? undefined : (await own(n, (f) => f.name === g.name)).get(g.name);
        if (mine?.status === 'proved') {
          settled.set(g.name, mine);
          continue;
        }
        const [r] = (await proveFacts([g], assumed, lemma.name, engine, opts, touched, lemma.name)).results;
        settled.set(g.name, r);
        if (r.status !== 'proved') break;
      }
    } else {
      for (const n of lemma.includes?.(handler) ?? []) {
        for (const [k, r] of await own(n, open)) if (r.status === 'proved') settled.set(k, r);
      }
    }
    const failedAlready = [...settled.values()].some((r) => r.status !== 'proved' && opts.stopAtFailure);
    const rest = failedAlready ? [] : goals.filter((g) => !settled.has(g.name));
    const out = await proveFacts(rest, assumed, lemma.name, engine, opts, touched, lemma.name, opts.stopAtFailure);
    for (const r of out.results) settled.set(r.name, r);
    const result = lemmaResult(lemma.name, goals.flatMap((g) => settled.get(g.name) ?? []), Date.now() - started);
    results.set(lemma.name, result);
    if (opts.stopAtFailure && result.status !== 'proved') {
      stopped = true;
      break;
    }
    if (retry.length > 0) {
      const again = await proveFacts(retry, assumed, `inv.${lemma.name}`, engine, opts, touched);
      retry.forEach((f, i) => retried.set(f.name, retried.get(f.name)! + (again.results[i].ms ?? 0)));
      const failing = retry.filter((_, i) => again.results[i].status !== 'proved');
      retry = retry.filter((_, i) => again.results[i].status === 'proved');
      // What one lemma's assumption does not carry over stays as the first pass left it: settled.
      if (opts.stopAtFailure && failing.length > 0) {
        stopped = true;
        break;
      }
    }
  }
  // What every lemma's assumption carried over holds.
  if (lemmas.length > 0 && !stopped) {
    for (const f of retry) {
      const first = invariants.get(f.name)!;
      invariants.set(f.name, { name: f.name, status: 'proved', ms: first.ms + retried.get(f.name)! });
      memo?.proved(lemmaSet, f);
    }
  }
  return { lemmas: lemmas.flatMap((l) => results.get(l.name) ?? []), invariants: [...invariants.values()], ...(stopped ? { stopped: true as const } : {}) };
}
