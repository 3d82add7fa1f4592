/**
 * The front door of the declarative checks: run a spec on a fresh symbolic
 * state and check that it preserves the spec invariants and every lemma
 * (kernel/lemmas, verify/lemmas.ts). No C is involved.
 */
import { findHandler } from '../kernel/handlers.ts';
import { freshState } from '../kernel/state.ts';
import type { SmtEngine } from '../smt/solver.ts';
import { variable } from '../smt/term.ts';
import { runSpec } from '../spec/index.ts';
import type { Diagnostic } from '../span.ts';
import { type LemmaResult, checkLemmas } from './lemmas.ts';
import { type Outcome, worst } from './outcome.ts';
import type { ObligationResult } from './verdict.ts';

export type DeclarativeResult =
  | { readonly status: 'spec-error'; readonly error: Diagnostic }
  | {
      readonly status: Outcome;
      /** One entry per lemma, then one per spec invariant ("inv: <name>"). */
      readonly results: readonly ObligationResult[];
      readonly ms: number;
    };

function asObligation(r: LemmaResult, prefix = ''): ObligationResult {
  return { name: `${prefix}${r.name}`, status: r.status, ms: r.ms, ...(r.failedParts?.length ? { reason: r.failedParts.join(', ') } : {}) };
}

/** Checks the spec's step for `handler` against the spec invariants and lemmas. */
export async function checkDeclarative(
  handler: string,
  spec: string,
  engine: SmtEngine,
  opts: { readonly timeoutMs?: number; readonly only?: readonly string[] } = {},
): Promise<DeclarativeResult> {
  const started = Date.now();
  const h = findHandler(handler);
  if (!h) throw new Error(`unknown handler '${handler}'`);
  const pre = freshState('decl.');
  const args = h.args.map((a) => variable(`arg.${a.name}`, a.width));
  const run = runSpec(spec, h.name, pre, args, { force: 'all' });
  if (!run.ok) return { status: 'spec-error', error: run.error };
  const report = await checkLemmas({ pre, cond: run.cond, post: run.post, handler: h.name }, engine, { timeoutMs: opts.timeoutMs, only: opts.only });
  const results = [...report.lemmas.map((r) => asObligation(r)), ...report.invariants.map((r) => asObligation(r, 'inv: '))];
  return { status: worst(results.map((r) => r.status)), results, ms: Date.now() - started };
}
