/**
 * A run's tally (src/core/eval/run/run-tally.ts): what each answer and each
 * ended chain adds, and the ETA read from it. The run loop itself is
 * covered end to end by cli-run.test.ts and the fault and reasoning runs.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_TALLY, etaMs, withAnswer, withChain } from '../../../src/core/eval/run/run-tally.ts';
import type { AttemptRecord } from '../../../src/core/eval/run/run-types.ts';
import { makeAttempt } from '../../store/fixtures.ts';

/** An attempt with neither answer nor grade but what `extra` gives. */
function attempt(extra: Partial<AttemptRecord>): AttemptRecord {
  return makeAttempt('r', 't', 0, 0, { response: undefined, grade: undefined, cached: undefined, cost: null, ...extra });
}

const answer = (input: number, output: number) => ({ text: 'x', model: 'm', usage: { input, output }, finishReason: 'stop', latencyMs: 1 }) as AttemptRecord['response'];

describe('the run tally', () => {
  it('counts the tokens and cost of answers sent, and cached answers apart', () => {
    let t = withAnswer(EMPTY_TALLY, attempt({ response: answer(10, 5), cost: 0.5 }));
    t = withAnswer(t, attempt({ response: answer(7, 3), cost: null }));
    t = withAnswer(t, attempt({ response: answer(100, 50), cached: true, cost: 0 }));
    // A request that failed for good has no answer: nothing to count.
    t = withAnswer(t, attempt({ error: { kind: 'server', code: 'X', message: 'down' } }));
    expect(t.spent).toEqual({ input: 17, output: 8, cost: 0.5 });
    expect(t.cached).toEqual({ answers: 1, input: 100, output: 50 });
    expect(t.done).toBe(0);
  });

  it('counts ended chains: first-round passes, passes after repair, errors; a stopped chain not at all', () => {
    const ends = [
      { kind: 'finished', passedRound: 0, worked: true },
      { kind: 'finished', passedRound: 2, worked: false },
      { kind: 'finished', worked: true },
      { kind: 'error' },
      { kind: 'stopped' },
    ] as const;
    const t = ends.reduce(withChain, EMPTY_TALLY);
    expect(t).toMatchObject({ done: 4, passed: 1, passedAfterRepair: 2, errors: 1, worked: 2 });
  });

  it("estimates the time left from this session's pace, none before a chain did work", () => {
    expect(etaMs(EMPTY_TALLY, 10, 5000)).toBeNull();
    const t = withChain(withChain(EMPTY_TALLY, { kind: 'finished', worked: true }), { kind: 'finished', worked: false });
    // 2 of 10 done, 1 of them worked in 4 s: 8 left at 4 s each.
    expect(etaMs(t, 10, 4000)).toBe(32000);
    expect(etaMs({ ...t, done: 10 }, 10, 4000)).toBe(0);
  });
});
