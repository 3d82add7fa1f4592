/**
 * A verifier that ran out of memory or time (src/core/service/exhaustion.ts) is
 * told apart from a bug of ours, and a grading job that ends that way is a
 * `timeout` grade, not `internal` (which a resume would grade again). The
 * messages are the ones the platform gives: emscripten's abort text as a
 * grading worker thread reports it, Node's end of a worker out of heap, and
 * the engine's own EngineDeadError. The end-to-end runs are in
 * test/cli/resources.test.ts. And a pool never starts more workers than
 * the machine can hold (each has its own Z3).
 */
import { describe, expect, it } from 'vitest';
import { maxWorkers, nodeVerifier } from '../../src/cli/node-pool.ts';
import { gradeOfOutcome } from '../../src/core/service/grade-job.ts';
import { exhaustionOf, exhaustionOfMessage } from '../../src/core/service/exhaustion.ts';
import { MAX_TIMER_MS, WorkerPool } from '../../src/core/pool/pool.ts';
import { EngineDeadError } from '../../src/core/smt/solver.ts';

const EMSCRIPTEN_OOM =
  'the verifier worker crashed: Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). Either (1) compile with -sINITIAL_MEMORY=X with X higher than the current value 2147483648, (2) compile with -sALLOW_MEMORY_GROWTH which allows increasing the size at runtime, or (3) if you want malloc to return NULL (0) instead of this abort, compile with -sABORTING_MALLOC=0)';
const NODE_HEAP = 'the verifier worker crashed: Worker terminated due to reaching memory limit: JS heap out of memory';

describe('exhaustion', () => {
  it('names what ran out, and nothing else', () => {
    expect(exhaustionOfMessage(EMSCRIPTEN_OOM)?.code).toBe('RES001');
    expect(exhaustionOfMessage(new EngineDeadError(15331).message)?.code).toBe('RES002');
    expect(exhaustionOfMessage(NODE_HEAP)?.code).toBe('RES003');
    for (const other of ['the verifier worker exited (code 1)', 'internal error: a second query started', 'Cannot read properties of undefined']) {
      expect(exhaustionOfMessage(other), other).toBeUndefined();
    }
    expect(exhaustionOf({ kind: 'overrun', ms: 25_000 })?.code).toBe('RES002');
    expect(exhaustionOf({ kind: 'crashed', message: EMSCRIPTEN_OOM })?.code).toBe('RES001');
    expect(exhaustionOf({ kind: 'cancelled', why: 'disposed' })).toBeUndefined();
  });

  it('grades an answer whose worker ran out as timeout (graded once), any other crash as internal', () => {
    const answer = '```python\ndef sys_kill(old, pid):\n    return True, old\n```';
    for (const outcome of [
      { kind: 'crashed', message: EMSCRIPTEN_OOM },
      { kind: 'failed', error: new EngineDeadError(15000), message: new EngineDeadError(15000).message },
      { kind: 'crashed', message: NODE_HEAP },
    ] as const) {
      const g = gradeOfOutcome(outcome, answer);
      expect(g).toMatchObject({ category: 'timeout', verdict: { status: 'timeout' }, diagnosis: expect.stringMatching(/RES00[123]/) });
      expect(g.extracted).toContain('def sys_kill');
    }
    expect(gradeOfOutcome({ kind: 'crashed', message: 'the verifier worker exited (code 1)' }, answer).category).toBe('internal');
  });
});

describe('a hard limit past what a timer holds', () => {
  it('is the longest timer, not one that fires at once', async () => {
    const pool = new WorkerPool<{ work(): Promise<string> }>({
      spawn: () => ({ api: { work: () => new Promise((r) => setTimeout(() => r('done'), 50)) }, terminate: () => undefined }),
      size: 1,
    });
    const outcome = await pool.submit((api) => api.work(), { hardTimeoutMs: MAX_TIMER_MS * 3 });
    expect(outcome).toEqual({ kind: 'done', value: 'done' });
    await pool.dispose();
  });
});

describe('how many workers a grading pool starts', () => {
  it('at most two per core and one per GiB of memory, whatever is asked', async () => {
    expect(maxWorkers(2, 23 * 2 ** 30)).toBe(4);
    expect(maxWorkers(64, 8 * 2 ** 30)).toBe(8);
    expect(maxWorkers(1, 2 ** 29)).toBe(1);
    const pool = nodeVerifier({ size: 200 });
    expect(pool.size).toBe(maxWorkers());
    await pool.dispose();
  });
});
