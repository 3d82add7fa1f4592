/**
 * Golden lemma cases: test/cases/lemma/<handler>/<name>.py are specs with a
 * deliberate ghost mistake. The header (test/cases/README.md) says which
 * lemma the mistake breaks (`# expect: lemma-fail <lemma>`); that lemma, and
 * the lemmas that include it, must fail, and every other lemma must still be
 * proved. Each case passes refinement and differs from the oracle only in
 * ghost state, so each also shows that the lemma check's fast path (reusing
 * the oracle's proof for the oracle's step) does not take it: the check goes
 * through `proveSpecLemmas`.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../../src/z3/node.ts';
import { resolveUses } from '../../../src/core/kernel/content.ts';
import { CHECKED_LEMMAS, LEMMAS, findLemma } from '../../../src/core/kernel/lemmas/index.ts';
import { proveSpecLemmas } from '../../../src/core/verify/declarative.ts';
import { expectations, loadCases } from '../../cases/load.ts';

const T = 900_000;

interface Case {
  readonly handler: string;
  readonly file: string;
  readonly text: string;
  readonly lemma: string;
}

function cases(): Case[] {
  return loadCases('lemma').map((c) => {
    const [fail, ...more] = expectations(c, 'lemma-fail');
    if (!fail || more.length) throw new Error(`${c.path} needs one '# expect: lemma-fail <lemma>' line`);
    if (!findLemma(fail.lemma)) throw new Error(`${c.path} names an unknown lemma '${fail.lemma}'`);
    return { handler: c.handler!, file: c.name, text: c.text, lemma: fail.lemma };
  });
}

/** The named lemma and every checked lemma that includes it. */
function expectedFailures(c: Case): string[] {
  const out = new Set([c.lemma]);
  for (const l of LEMMAS) if (l.includes?.(c.handler).includes(c.lemma)) out.add(l.name);
  return [...out].sort();
}

describe('lemma cases fail exactly the named lemma', () => {
  for (const c of cases()) {
    it(`${c.handler}/${c.file} fails ${c.lemma}`, async () => {
      const only = findLemma(c.lemma)!.reportOnly ? [...CHECKED_LEMMAS, c.lemma] : [...CHECKED_LEMMAS];
      const r = await proveSpecLemmas(c.handler, resolveUses(c.text), await nodeEnv(), { only, timeoutMs: 120_000 });
      if (r.status === 'spec-error') throw new Error(r.error.message);
      expect(r.reused).toBeUndefined();
      expect(r.status).toBe('failed');
      const lemmas = r.results.filter((l) => !l.name.startsWith('inv: '));
      const failed = lemmas.filter((l) => l.status === 'failed').map((l) => l.name).sort();
      expect(failed).toEqual(expectedFailures(c));
      const undecided = lemmas.filter((l) => l.status === 'timeout' || l.status === 'unknown');
      expect(undecided).toEqual([]);
    }, T);
  }
});
