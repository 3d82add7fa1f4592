/** The order CI starts the test files in (test/slow-first.ts): the slowest named first, the list current. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';
import SlowFirstSequencer, { SLOWEST_FIRST, slowRank } from './slow-first.ts';

const ROOT = join(import.meta.dirname, '..');

describe('slowest files first', () => {
  it('names only test files that exist, each once', () => {
    for (const f of SLOWEST_FIRST) expect(existsSync(join(ROOT, f)), f).toBe(true);
    expect(new Set(SLOWEST_FIRST).size).toBe(SLOWEST_FIRST.length);
  });

  it('ranks a named file by its place and every other file after them all', () => {
    expect(slowRank(ROOT, join(ROOT, 'test/e2e/smoke-webkit.test.ts'))).toBe(0);
    expect(slowRank(ROOT, join(ROOT, SLOWEST_FIRST[3]))).toBe(3);
    expect(slowRank(ROOT, join(ROOT, 'test/quantile.test.ts'))).toBe(SLOWEST_FIRST.length);
  });

  it('puts the named files first, in order, and keeps the order of the rest', async () => {
    const spec = (f: string) => ({ moduleId: join(ROOT, f), project: { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } } });
    const files = ['test/a.test.ts', SLOWEST_FIRST[2], 'test/b.test.ts', SLOWEST_FIRST[0], 'test/c.test.ts'].map(spec);
    // No cached results or sizes: vitest's own order is the given one.
    const ctx = { config: { root: ROOT }, cache: { getFileTestResults: () => undefined, getFileStats: () => undefined } };
    const sorted = await new SlowFirstSequencer(ctx as never).sort(files as never);
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([SLOWEST_FIRST[0], SLOWEST_FIRST[2], 'test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts']);
  });

  it('is the sequencer vitest uses', () => {
    expect(config.test?.sequence?.sequencer).toBe(SlowFirstSequencer);
  });
});
