/**
 * The lemma check's shortcuts (docs/lemmas.md, "Reusing what is known")
 * never change its result. On a fixed sample of the grading corpus
 * (perf/corpus/answers.jsonl): one answer of every kind of near miss (ghost
 * differences that still refine; strict holds for some kinds, not for
 * others), rewrites that are the oracle's step, and an answer with a
 * quantifier. For each, the grade with lemmas' check (the oracle's proof for the
 * oracle's step, known facts for the rest, stop at the first failure) must
 * agree with the full check of the answer's own statement, nothing reused.
 * The shortcut side runs in one cache object, in corpus order, so answers of
 * one handler reuse what earlier ones proved, and the models that refuted
 * earlier ones; the full side in another. The sample reaches every
 * shortcut: the oracle's proof, known facts, kept models, and facts proved
 * by a query without the instances.
 * (The golden lemma cases are checked in cases.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../../src/z3/node.ts';
import { extractSpec } from '../../../src/core/eval/grade/answer.ts';
import { type LemmaCheckRun, strictChecker } from '../../../src/core/eval/grade/grade.ts';
import { VerifierCaches } from '../../../src/core/verify/caches.ts';
import { verifyDeclarative } from '../../../src/core/verify/driver.ts';
import { SUBSET_ROUNDS } from '../../../src/core/verify/fact-prover.ts';
import { type CorpusAnswer, corpus, corpusAnswer } from '../../corpus.ts';

/** (handler, how the answer was made): every near-miss kind, and the shapes of answer the other paths take. */
const SAMPLE: readonly (readonly [string, string])[] = [
  ['sys_kill', 'osvbench:kill-forall'],
  ['sys_kill', 'rewrite:combo'],
  ['sys_dup', 'rewrite:combo'],
  ['sys_dup', 'near-miss:refcnt-round-trip'],
  ['sys_map_proc', 'near-miss:shadow-twice'],
  ['sys_map_proc', 'near-miss:shadow-old'],
  ['sys_map_dev', 'near-miss:shadow-drop'],
  ['sys_map_dev', 'near-miss:shadow-zero'],
  ['sys_reclaim_port', 'near-miss:refcnt-index'],
  ['sys_free_pt', 'near-miss:ghost-clear-unmapped'],
  ['sys_reclaim_page', 'near-miss:ghost-reset-freed'],
];

/** The near-miss kinds of answers (the golden lemma cases aside). */
const nearMissKinds = (as: readonly CorpusAnswer[]) => [...new Set(as.map((a) => a.made).filter((m) => m.startsWith('near-miss:') && !m.startsWith('near-miss:golden-')))].sort();

function sample(): CorpusAnswer[] {
  const all = corpus();
  return SAMPLE.map(([handler, made]) => corpusAnswer(handler, made, all));
}

describe('the lemma check with its shortcuts', () => {
  it('gives the full check’s result on every answer of the sample', async () => {
    const engine = await nodeEngine();
    const shortcut = { engine, caches: new VerifierCaches() };
    const full = { engine, caches: new VerifierCaches() };
    const rows: string[] = [];
    const paths = new Map<string, Set<boolean>>();
    // Answers a model kept from an earlier answer of the handler refuted (known-facts.ts, witnesses).
    const witnessed: string[] = [];
    // Facts proved by a query without the instances, the oracle's fact beside the goal (query.ts, solveFromSubset).
    let bySubset = 0;
    let rounds = 0;
    // Facts refuted in a reachable state (state-bank.ts, refuteInCases).
    let inCases = 0;
    // The grade with lemmas' own checker, seen through its probe.
    let seen: LemmaCheckRun | undefined;
    const strictCheck = strictChecker(shortcut, 120_000, { now: () => Date.now(), checked: (r) => (seen = r) });
    for (const a of sample()) {
      const spec = extractSpec(a.response)!;
      seen = undefined;
      const got = await strictCheck(a.handler, spec);
      const quick = seen!.check;
      for (const q of seen!.queries) {
        if (q.subset && q.status === 'unsat') bySubset++;
        if (q.reachable) inCases++;
        rounds = Math.max(rounds, q.subset ?? 0);
      }
      const slow = await verifyDeclarative({ handler: a.handler, spec }, full, 120_000, { reuse: false });
      expect(got).toBe(quick.status === 'proved');
      const want = slow.status === 'proved';
      rows.push(`${a.handler} ${a.made}: ${quick.status === 'spec-error' ? 'spec-error' : quick.path} ${got} / full ${want}`);
      if (quick.status !== 'spec-error') paths.set(quick.path, (paths.get(quick.path) ?? new Set()).add(got));
      if (quick.status !== 'spec-error' && quick.kept) witnessed.push(`${a.handler} ${a.made}: ${got}`);
      expect(got, `${a.handler} ${a.made}`).toBe(want);
    }
    // The sample must reach every shortcut, and the one that checks facts must both pass and fail.
    expect([...paths.keys()].sort(), rows.join('\n')).toEqual(['equivalent', 'identical', 'partial']);
    expect([...paths.get('partial')!].sort(), rows.join('\n')).toEqual([false, true]);
    // A kept model settled some answer (the second shadow near miss of sys_map_dev), and agreed with the full check.
    // A kept model or a reachable state settled some answer (both only ever with a model of the query).
    expect(witnessed.length + inCases, rows.join('\n')).toBeGreaterThan(0);
    expect(inCases, rows.join('\n')).toBeGreaterThan(0);
    // So did a query without the instances (the ghost near misses' changed facts).
    expect(bySubset, rows.join('\n')).toBeGreaterThan(0);
    // No fact took more subset queries than the rounds allowed.
    expect(rounds).toBeLessThanOrEqual(SUBSET_ROUNDS);
    // Every kind of near miss the corpus has is in the sample.
    expect(nearMissKinds(sample())).toEqual(nearMissKinds(corpus()));
  }, 900_000);
});
