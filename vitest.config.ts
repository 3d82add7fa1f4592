import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two cores here: Z3 runs its own threads, so two test files at a time is the sweet spot.
    maxWorkers: 2,
    // The slowest files start first (test/slow-first.ts), so none runs alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
  },
});
