import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, costOf, mergePrices, priceFor } from '../../src/core/llm/prices.ts';

describe('prices', () => {
  it('finds dated and vendor-prefixed ids by the longest matching entry', () => {
    expect(priceFor('gpt-4o-2024-08-06', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o']);
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('openai/gpt-4o-mini', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('claude-3-5-sonnet-20241022', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-3-5-sonnet']);
    expect(priceFor('gpt-4omega', DEFAULT_PRICES)).toBeUndefined();
    expect(priceFor('llama3.1:8b', DEFAULT_PRICES)).toBeUndefined();
  });

  it('computes USD from per-million prices; unknown price is null, not zero', () => {
    expect(costOf({ input: 1_000_000, output: 500_000 }, { input: 2.5, output: 10 })).toBeCloseTo(7.5, 10);
    expect(costOf({ input: 30_000, output: 2_000 }, { input: 3, output: 15 })).toBeCloseTo(0.12, 10);
    expect(costOf({ input: 10, output: 10 }, undefined)).toBeNull();
  });

  it("the user's entries override and extend the defaults", () => {
    const t = mergePrices({ 'gpt-4o': { input: 1, output: 2 }, 'my-model': { input: 0, output: 0 } });
    expect(priceFor('gpt-4o', t)).toEqual({ input: 1, output: 2 });
    expect(priceFor('my-model', t)).toEqual({ input: 0, output: 0 });
    expect(priceFor('o3-mini', t)).toEqual(DEFAULT_PRICES['o3-mini']);
  });
});
