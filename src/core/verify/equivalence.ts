/**
 * Two specs of one handler compared by meaning (`osvlab diff`, the
 * playground's Compare, runs grouped into behaviours). From one symbolic
 * start S = abs(σ), σ satisfying the representation invariants, and one
 * argument vector a,
 *
 *   spec_A(S, a) = (cond_A, A')      spec_B(S, a) = (cond_B, B')
 *
 * A and B are equivalent when cond_A == cond_B and A'.f == B'.f for every
 * backed field f under its guard: exactly what refinement compares
 * (refinement.ts, docs/hv6-model.md §2.1), so two equivalent specs refine
 * the same implementations. The post-state is compared whether cond holds
 * or not, as refinement compares it: a spec returns `If(cond, new, old)`,
 * and one that returns something else where cond fails differs from one
 * that does not. A difference in ghost fields only (never compared with C,
 * but read by the strict checks) is a note beside the verdict, not a
 * difference in behaviour.
 *
 * What is known is reused before a query: a field (or cond) whose two terms
 * are the same term needs none, nor one whose two refinement goals are both
 * known proved (proved-goals.ts, seeded from the committed oracle proofs):
 * both then equal the implementation's value. A caller that knows both
 * specs refine the kernel (two passing grades) says so and asks nothing.
 * What is left is one checked query (query.ts): a model is a distinguishing
 * state, replayed through both specs by our own evaluator. A replayed model
 * is then shown well-formed where one exists, as a refutation's
 * counterexample is (counterexample-wellformed.ts: enum cells hold members,
 * counts stay within the kernel's limits, small arguments), so a
 * difference is not shown on a state no kernel reaches (a count of 2^64-3)
 * when a plain one shows it too.
 */
import * as o from '../smt/ops.ts';
import type { Value } from '../smt/eval.ts';
import { type Term, variable } from '../smt/term.ts';
import { ALL_FIELDS, type FieldSchema } from '../kernel/schema.ts';
import { BACKED_FIELDS, backing, skolems } from '../kernel/equiv.ts';
import { HANDLERS, entryNames, requireHandler } from '../kernel/handlers.ts';
import { countOf, fieldParts } from '../kernel/state.ts';
import type { Diagnostic } from '../diagnostic.ts';
import type { Span } from '../span.ts';
import type { SmtModel } from '../smt/solver.ts';
import { ev, show, stateRead } from './counterexample.ts';
import { showWellFormed } from './counterexample-wellformed.ts';
import { type Steps, DEFAULT_BUDGET_MS, type VerifyEnv, buildSteps, seedFromOracle } from './driver.ts';
import { PROVED_GOALS } from './proved-goals.ts';
import { REPLAY_FAILED, solveQuery } from './query.ts';
import { specObligations } from './refinement.ts';
import type { CexArg } from './verdict.ts';

export interface DiffRequest {
  /** Handler name (C name or spec alias). */
  readonly handler: string;
  readonly a: string;
  readonly b: string;
  /** Wall-clock budget of the whole comparison, ms (default: verify's). */
  readonly timeoutMs?: number;
  /** Both specs are known to refine the kernel as shipped (two passing grades): equivalent with no query. */
  readonly bothRefine?: boolean;
  /** Also compare the ghost fields of two equivalent specs (the note; default true). */
  readonly ghost?: boolean;
}

/** One state cell of a distinguishing state, read from both post-states. */
export interface DiffRow {
  readonly field: string;
  readonly index: readonly string[];
  readonly old: string;
  readonly a: string;
  readonly b: string;
  readonly differs: boolean;
}

/** A state and arguments on which the two specs differ, replayed through both. */
export interface DiffWitness {
  readonly args: readonly CexArg[];
  /** Each spec's condition there (null: under a quantifier). */
  readonly condA: boolean | null;
  readonly condB: boolean | null;
  /** What differs: 'cond' and the backed fields, in schema order. */
  readonly fields: readonly string[];
  readonly rows: readonly DiffRow[];
  /** Pre-state facts the two conditions read. */
  readonly context: readonly string[];
  /** Our evaluator reproduced the difference (false: through a quantifier, on the solver's word). */
  readonly replayed: boolean;
}

/** How the ghost fields of two equivalent specs compare. */
export type GhostNote =
  | { readonly kind: 'same' }
  | { readonly kind: 'differ'; readonly fields: readonly string[] }
  | { readonly kind: 'undecided'; readonly reason: string }
  | { readonly kind: 'not-checked' };

/** How the equivalence was settled without a query, or that it took one. */
export type Settled = 'same-terms' | 'both-refine' | 'known-goals' | 'query';

export type DiffVerdict = { readonly ms: number; readonly queries: number } & (
  | { readonly status: 'equivalent'; readonly how: Settled; readonly ghost: GhostNote }
  | { readonly status: 'different'; readonly witness: DiffWitness }
  | { readonly status: 'spec-error'; readonly side: 'a' | 'b'; readonly error: Diagnostic; readonly warnings: readonly Diagnostic[] }
  | { readonly status: 'timeout' | 'unknown'; readonly reason: string }
);

/** The code of a spec that defines another handler's entry function (docs/cli-errors.md). */
const OTHER_HANDLER = 'DIFF001';

/**
 * Compares `req.a` and `req.b` by meaning over the kernel as shipped. One
 * engine job. An unknown handler throws ImplementationError.
 */
export async function diffSpecs(req: DiffRequest, env: VerifyEnv): Promise<DiffVerdict> {
  const started = Date.now();
  const deadline = started + (req.timeoutMs ?? DEFAULT_BUDGET_MS);
  return env.engine.exclusive(async () => {
    const h = requireHandler(req.handler);
    const sides: Extract<Steps, { ok: true }>[] = [];
    for (const [side, spec] of [['a', req.a], ['b', req.b]] as const) {
      const steps = buildSteps({ handler: h.name, spec }, { ...env, kernel: undefined });
      const ms = Date.now() - started;
      if (!steps.ok) return { status: 'spec-error', side, error: otherHandler(spec, h.name) ?? steps.error, warnings: steps.warnings, ms, queries: 0 };
      sides.push(steps);
    }
    const [a, b] = sides;
    if (req.bothRefine) return { status: 'equivalent', how: 'both-refine', ghost: { kind: 'not-checked' }, ms: Date.now() - started, queries: 0 };
    const known = env.caches.slot(PROVED_GOALS);
    known.seedOnce(a.implKey, () => seedFromOracle(a, env));
    const goalsA = specObligations(a.step);
    const goalsB = specObligations(b.step);
    const open: Compared[] = [];
    let allSame = true;
    compared(a, b).forEach((c, i) => {
      if (c.goal === o.TRUE) return;
      allSame = false;
      if (known.has(a.implKey, goalsA[i].goal) && known.has(b.implKey, goalsB[i].goal)) return;
      open.push(c);
    });
    let queries = 0;
    let how: Settled = allSame ? 'same-terms' : open.length ? 'query' : 'known-goals';
    if (open.length) {
      queries++;
      // A replayed model is kept for the well-formed search; one on the solver's word is shown as it is.
      const r = await solveQuery(env.engine, { goals: open.map((c) => c.goal), assume: (negated) => a.assume([negated]), deadline }, (lease) =>
        lease.replayed ? { kept: lease.keep(), shown: undefined } : { kept: undefined, shown: witness(lease.model, false, a, b, open) },
      );
      if (r.kind === 'refuted' || r.kind === 'on-word') {
        const { kept, shown } = r.value;
        const w = kept ? await wellFormedWitness(kept, env, a, b, open, deadline) : shown!;
        return { status: 'different', witness: w, ms: Date.now() - started, queries };
      }
      const ms = Date.now() - started;
      if (r.kind === 'inconsistent') return { status: 'unknown', reason: REPLAY_FAILED, ms, queries };
      if (r.kind === 'undecided') return { status: r.outcome, reason: r.reason, ms, queries };
      how = 'query';
    }
    let ghost: GhostNote = { kind: 'not-checked' };
    if (req.ghost !== false) {
      const raising: string[] = [];
      const goals = ghostGoals(a, b, raising);
      if (raising.length) ghost = { kind: 'undecided', reason: `reading ${raising.join(', ')} raises in one of the specs (a ghost write the dialect warns about, SPEC204)` };
      else if (!goals.length) ghost = { kind: 'same' };
      else {
        queries++;
        const r = await solveQuery(env.engine, { goals: goals.map((g) => g.goal), assume: (negated) => a.assume([negated]), deadline }, (lease) =>
          goals.filter((g) => lease.value(g.goal) === false).map((g) => g.name),
        );
        ghost =
          r.kind === 'proved'
            ? { kind: 'same' }
            : r.kind === 'refuted' || r.kind === 'on-word'
              ? { kind: 'differ', fields: [...new Set(r.value)] }
              : { kind: 'undecided', reason: r.kind === 'inconsistent' ? REPLAY_FAILED : r.reason };
      }
    }
    return { status: 'equivalent', how, ghost, ms: Date.now() - started, queries };
  });
}

/** One thing compared: cond, or a backed field at its skolem indices. */
interface Compared {
  readonly name: string;
  readonly goal: Term;
  readonly field?: FieldSchema;
  readonly xs?: readonly Term[];
  readonly guard?: Term;
}

/** cond, then every backed field, in specObligations' order (so the i-th refinement goal is the i-th here). */
function compared(a: Extract<Steps, { ok: true }>, b: Extract<Steps, { ok: true }>): Compared[] {
  const out: Compared[] = [{ name: 'cond', goal: o.eq(a.step.cond, b.step.cond) }];
  for (const field of BACKED_FIELDS) {
    const xs = skolems(field, 'ref');
    const guard = backing(field.path)!.guard(xs);
    const va = countOf(a.step.post.get(field.path)!).apply(xs);
    const vb = countOf(b.step.post.get(field.path)!).apply(xs);
    out.push({ name: field.path, goal: o.implies(guard, o.eq(va, vb)), field, xs, guard });
  }
  return out;
}

/**
 * Every map of every field refinement does not compare (ghost fields, Refcnt
 * permutations), equal in both post-states; a map whose read raises in
 * either spec goes to `raising` instead.
 */
function ghostGoals(a: Extract<Steps, { ok: true }>, b: Extract<Steps, { ok: true }>, raising: string[]): { name: string; goal: Term }[] {
  const out: { name: string; goal: Term }[] = [];
  const backed = new Set(BACKED_FIELDS.map((f) => f.path));
  for (const field of ALL_FIELDS) {
    const pa = fieldParts(a.step.post.get(field.path)!);
    const pb = fieldParts(b.step.post.get(field.path)!);
    pa.forEach((p, i) => {
      if (backed.has(field.path) && p.suffix === '') return;
      const name = `${field.path}${p.suffix}`;
      const xs = p.map.domain.map((s, j) => skolemOf(s, j));
      let goal: Term;
      try {
        goal = o.eq(p.map.apply(xs), pb[i].map.apply(xs));
      } catch {
        // A ghost write that raises when read (SPEC204: upstream never reads it in refinement).
        raising.push(name);
        return;
      }
      if (goal !== o.TRUE) out.push({ name, goal });
    });
  }
  return out;
}

/** The index of position `position` and sort `sort` of every ghost comparison (shared, as skolems() shares them). */
function skolemOf(sort: number, position: number): Term {
  return variable(`sk.ghost.${position}.${sort}`, sort);
}

/**
 * The witness of a replayed model `raw` (disposed here), from a well-formed
 * state where one distinguishes the specs on the same compared cells
 * (showWellFormed's preference queries, within the comparison's deadline),
 * else from `raw` itself.
 */
async function wellFormedWitness(
  raw: SmtModel,
  env: VerifyEnv,
  a: Extract<Steps, { ok: true }>,
  b: Extract<Steps, { ok: true }>,
  open: readonly Compared[],
  deadline: number,
): Promise<DiffWitness> {
  try {
    const left = deadline - Date.now();
    if (left < 1) return witness(raw, true, a, b, open);
    const memo = new Map<number, Value>();
    const failures = open.filter((c) => ev(c.goal, raw, memo) !== true).map((c) => ({ obligation: { name: c.name, goal: c.goal }, failedParts: [] }));
    return await showWellFormed({ model: raw, failures, replayed: true }, { engine: env.engine, assume: a.assume, args: a.step.args, addresses: a.step.addresses, timeoutMs: left }, (shown) =>
      witness(shown.model, shown.replayed, a, b, open),
    );
  } finally {
    raw.dispose();
  }
}

/** The distinguishing state of a model: both conditions, the arguments and every compared cell that differs. */
function witness(model: SmtModel, replayed: boolean, a: Extract<Steps, { ok: true }>, b: Extract<Steps, { ok: true }>, open: readonly Compared[]): DiffWitness {
  const memo = new Map<number, Value>();
  const args = a.step.args.map(({ arg, term }) => ({ name: arg.name, sort: arg.sort, value: show(ev(term, model, memo), term.sort) }));
  const cond = (t: Term) => {
    const v = ev(t, model, memo);
    return v === undefined ? null : v === true;
  };
  const condA = cond(a.step.cond);
  const condB = cond(b.step.cond);
  const rows: DiffRow[] = [];
  const fields: string[] = [];
  for (const c of open) {
    if (ev(c.goal, model, memo) === true) continue;
    fields.push(c.name);
    if (!c.field || !c.xs) continue;
    const path = c.field.path;
    const at = (t: Term) => show(ev(t, model, memo), t.sort, path);
    const read = (s: Extract<Steps, { ok: true }>, post: boolean) => countOf((post ? s.step.post : s.step.pre).get(path)!).apply(c.xs!);
    const va = at(read(a, true));
    const vb = at(read(b, true));
    const index = c.xs.map((x, i) => `${c.field!.indexNames[i] ?? `i${i}`}=${show(ev(x, model, memo), x.sort)}`);
    rows.push({ field: path, index, old: at(read(a, false)), a: va, b: vb, differs: va !== vb || va === show(undefined, 0) });
  }
  return { args, condA, condB, fields, rows, context: stateRead([a.step.cond, b.step.cond], model, memo).slice(0, 24), replayed };
}

/**
 * DIFF001 when `spec` has no entry function for `handler` but defines
 * another handler's: the two specs are of different handlers (a missing
 * entry otherwise stays the dialect's own SPEC014).
 */
function otherHandler(spec: string, handler: string): Diagnostic | undefined {
  const defs = [...spec.matchAll(/^def[ \t]+([A-Za-z_]\w*)/gm)];
  const own = new Set(entryNames(requireHandler(handler)));
  if (defs.some((m) => own.has(m[1]))) return undefined;
  for (const m of defs) {
    const other = HANDLERS.find((h) => h.name !== handler && entryNames(h).includes(m[1]));
    if (!other) continue;
    const before = spec.slice(0, m.index);
    const line = before.split('\n').length;
    const column = m.index! - before.lastIndexOf('\n');
    const span: Span = { line, column, endLine: line, endColumn: column + m[0].length, offset: m.index!, endOffset: m.index! + m[0].length };
    return {
      code: OTHER_HANDLER,
      severity: 'error',
      message: `this is a spec of ${other.name} (it defines '${m[1]}'), not of ${handler}: both specs must be of the handler compared`,
      span,
    };
  }
  return undefined;
}
