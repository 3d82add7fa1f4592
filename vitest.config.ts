import { defineConfig } from 'vitest/config';
import { WAIT_MS } from './test/e2e/driver.ts';
import SlowFirstSequencer from './test/slow-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // expect.poll waits on a state like every other wait (test/README.md, "Timing"): the same bound, not vitest's 1 s.
    expect: { poll: { timeout: WAIT_MS, interval: 100 } },
    pool: 'forks',
    // Two cores here: Z3 runs its own threads, so two test files at a time is the sweet spot.
    maxWorkers: 2,
    // The slowest files start first (test/slow-first.ts), so none runs alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
  },
});
