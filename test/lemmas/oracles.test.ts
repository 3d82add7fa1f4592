/**
 * Required: every oracle spec keeps the spec invariants and every lemma.
 * A failure here means a lemma, its triggers, or the oracle is wrong.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/cli/z3-node.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { CHECKED_LEMMAS } from '../../src/core/kernel/lemmas/index.ts';
import { checkLemmas } from '../../src/core/verify/lemmas.ts';
import { oracleHandlers, oracleStep } from './oracle.ts';

const T = 900_000;

describe('all 50 oracles pass every lemma', () => {
  it('there is an oracle spec for every handler', () => {
    expect(oracleHandlers()).toEqual(HANDLERS.map((h) => h.name).sort());
  });

  for (const handler of oracleHandlers()) {
    it(`${handler} keeps the spec invariants and every lemma`, async () => {
      const r = await checkLemmas(oracleStep(handler), await nodeEngine(), { timeoutMs: 120_000 });
      expect(r.lemmas.map((l) => l.name)).toEqual(CHECKED_LEMMAS);
      const notProved = [...r.invariants, ...r.lemmas].filter((l) => l.status !== 'proved');
      expect(notProved).toEqual([]);
    }, T);
  }
});
