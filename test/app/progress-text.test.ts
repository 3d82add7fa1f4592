/** The Evaluate page's progress words and the one plural helper (issue 55 item 7). */
import { describe, expect, it } from 'vitest';
import { etaText, inFlightText, tokensText } from '../../src/app/lib/progress-text.ts';
import { plural } from '../../src/core/plural.ts';

describe('plural', () => {
  it('writes one and many', () => {
    expect([0, 1, 2].map((n) => plural(n, 'task'))).toEqual(['0 tasks', '1 task', '2 tasks']);
    expect(plural(1, 'repair round')).toBe('1 repair round');
    expect(plural(3, 'repair round')).toBe('3 repair rounds');
    expect(plural(2, 'class', 'classes')).toBe('2 classes');
  });
});

describe('the progress line', () => {
  it('says what is in flight while nothing has finished', () => {
    expect(inFlightText({ sent: 3, retrying: 0, answered: 0, grading: 2 })).toBe('2 answers grading, 3 requests waiting for the provider');
    expect(inFlightText({ sent: 0, retrying: 1, answered: 1, grading: 1 })).toBe('1 answer grading, 1 answer waiting to be graded, 1 request to retry');
    expect(inFlightText({ sent: 0, retrying: 0, answered: 0, grading: 0 })).toBe('');
  });

  it('labels tokens in and out, and gives no ETA before anything finished', () => {
    expect(tokensText({ input: 900, output: 250 })).toBe('900 in / 250 out');
    expect(etaText(0, 0)).toBe('–');
    expect(etaText(null, 3)).toBe('–');
    expect(etaText(12_400, 1)).toBe('12 s');
    expect(etaText(150_000, 2)).toBe('3 min');
  });
});
