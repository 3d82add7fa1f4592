import { describe, expect, it } from 'vitest';
import { undecided, worst } from '../../../src/core/verify/outcome.ts';

describe('outcome folding', () => {
  it('failed beats timeout beats unknown beats proved', () => {
    expect(worst([])).toBe('proved');
    expect(worst(['proved', 'unknown', 'proved'])).toBe('unknown');
    expect(worst(['unknown', 'timeout', 'proved'])).toBe('timeout');
    expect(worst(['timeout', 'failed', 'unknown'])).toBe('failed');
  });

  it('an undecided answer is a timeout only when the solver said so', () => {
    expect(undecided('timeout')).toBe('timeout');
    expect(undecided('canceled')).toBe('timeout');
    expect(undecided('(incomplete quantifiers)')).toBe('unknown');
  });
});
