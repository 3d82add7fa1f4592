/**
 * The benchmark harness in the browser. Waiting on the runner, the run store
 * (src/store/) and the local fake provider (test/fake-provider/server.ts),
 * which other parts of the project are building.
 */
import { describe, it } from 'vitest';

describe('evaluate and runs', () => {
  it.todo('runs a benchmark against the local fake provider, survives a reload in the middle, and finishes');
  it.todo('exports a run to a file and imports it back with the same metrics');
});
