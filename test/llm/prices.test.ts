import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, PRICES_DATE, costOf, mergePrices, priceFor } from '../../src/core/llm/prices.ts';

describe('prices (issue 15 item 5)', () => {
  it('finds dated snapshots and vendor-prefixed ids of the same version', () => {
    expect(priceFor('gpt-4o-2024-08-06', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o']);
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('openai/gpt-4o-mini', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('claude-opus-4-20250514', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-opus-4']);
    expect(priceFor('models/gemini-2.5-pro', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gemini-2.5-pro']);
  });

  it('a newer version never takes an older one\'s price', () => {
    expect(priceFor('claude-opus-4-1-20250805', DEFAULT_PRICES)).toEqual({ input: 15, output: 75 });
    expect(priceFor('claude-opus-4-6', DEFAULT_PRICES)).toEqual({ input: 5, output: 25 });
    expect(priceFor('claude-opus-4-7', DEFAULT_PRICES)).toBeUndefined();
    expect(priceFor('gpt-5.6', DEFAULT_PRICES)).toBeUndefined();
    expect(priceFor('gpt-4omega', DEFAULT_PRICES)).toBeUndefined();
    expect(priceFor('llama3.1:8b', DEFAULT_PRICES)).toBeUndefined();
  });

  it("lists today's models, not retired ones, and is dated", () => {
    for (const id of ['gpt-5.5', 'gpt-5.4-mini', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'gemini-3.8-flash', 'gemini-2.5-pro']) {
      expect(DEFAULT_PRICES[id], id).toBeDefined();
    }
    for (const id of ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-2.0-flash']) expect(DEFAULT_PRICES[id], id).toBeUndefined();
    expect(PRICES_DATE).toMatch(/^\d{4}-\d{2}$/);
  });

  it('computes USD from per-million prices; unknown price is null, not zero', () => {
    expect(costOf({ input: 1_000_000, output: 500_000 }, { input: 2.5, output: 10 })).toBeCloseTo(7.5, 10);
    expect(costOf({ input: 30_000, output: 2_000 }, { input: 3, output: 15 })).toBeCloseTo(0.12, 10);
    expect(costOf({ input: 10, output: 10 }, undefined)).toBeNull();
  });

  it("the user's entries are kept over the defaults and extend them", () => {
    const t = mergePrices({ 'gpt-4o': { input: 1, output: 2 }, 'my-model': { input: 0, output: 0 } });
    expect(priceFor('gpt-4o', t)).toEqual({ input: 1, output: 2 });
    expect(priceFor('gpt-4o-2024-08-06', t)).toEqual({ input: 1, output: 2 });
    expect(priceFor('my-model', t)).toEqual({ input: 0, output: 0 });
    expect(priceFor('o3-mini', t)).toEqual(DEFAULT_PRICES['o3-mini']);
  });
});
