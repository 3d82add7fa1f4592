/**
 * The shared worker pool (src/core/pool/pool.ts) against an in-process spawn
 * adapter: each "worker" is the real VerifierApi the Web Workers and worker
 * threads serve, on this process's Z3. Jobs that must hang or be held wait on
 * a gate the test opens; a crash is the adapter reporting its worker dead.
 * The spawn adapters themselves are covered by pool.test.ts (worker threads)
 * and the e2e tests (Web Workers).
 */
import { describe, expect, it, vi } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import type { VerifierApi } from '../../src/core/service/contract.ts';
import { extractSpec } from '../../src/core/eval/grade/answer.ts';
import { gradeOfOutcome, gradeOnPool } from '../../src/core/service/grade-job.ts';
import { hardLimitMs } from '../../src/core/service/limits.ts';
import { VerifierClient } from '../../src/core/service/client.ts';
import { ToolOverrunError } from '../../src/core/eval/agent/tool-overrun.ts';
import { CancelledError, type Spawn, WorkerPool } from '../../src/core/pool/pool.ts';
import { serveVerifier } from '../../src/core/service/serve.ts';

interface TestApi {
  readonly worker: number;
  readonly verifier: VerifierApi;
}

/** In-process workers, numbered from 1 in spawn order, with their lives recorded. */
function inProcess() {
  const workers: { id: number; terminated: boolean; crash: (message: string) => void }[] = [];
  const spawn: Spawn<TestApi> = (crashed) => {
    const w = { id: workers.length + 1, terminated: false, crash: crashed };
    workers.push(w);
    return { api: { worker: w.id, verifier: serveVerifier({ loadEngine: nodeEngine, isolated: () => true }) }, terminate: () => (w.terminated = true) };
  };
  return { workers, spawn };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** A pool of `size` workers numbered from 1 whose start never ends, and each worker's crash. */
function neverStarting(size: number) {
  const crashes: Array<(m: string) => void> = [];
  let starts = 0;
  const pool = new WorkerPool<{ n: number }>({
    spawn: (crashed) => {
      crashes.push(crashed);
      return { api: { n: crashes.length }, terminate: () => undefined };
    },
    size,
    init: () => (starts++, new Promise(() => undefined)),
  });
  return { pool, crashes, starts: () => starts };
}

const SPEC = 'def spec(old, new, pid):\n    return (0, new)\n';

describe('the shared worker pool', () => {
  it('starts workers lazily, up to its size, and runs real jobs on them', async () => {
    const { workers, spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 2 });
    expect(workers).toHaveLength(0);
    const held = gate();
    const jobs = [1, 2, 3].map(() => pool.submit(async (api) => (await held.opened, api.verifier.check(SPEC, 'sys_kill'))));
    expect(workers).toHaveLength(2);
    held.open();
    const outcomes = await Promise.all(jobs);
    expect(outcomes.map((o) => o.kind)).toEqual(['done', 'done', 'done']);
    expect(workers).toHaveLength(2);
    await pool.dispose();
    expect(workers.every((w) => w.terminated)).toBe(true);
  });

  it('a newer job in a lane supersedes the older and replaces its worker; a signal cancels', async () => {
    const { workers, spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 1 });
    const never = new Promise<number>(() => undefined);
    const first = pool.submit(() => never, { lane: 'verify' });
    const second = pool.submit(async (api) => api.worker, { lane: 'verify' });
    expect(await first).toEqual({ kind: 'cancelled', why: 'superseded' });
    expect(await second).toEqual({ kind: 'done', value: 2 });
    expect(workers[0].terminated).toBe(true);
    expect(pool.respawns).toBe(1);

    const abort = new AbortController();
    const running = pool.submit(() => never, { signal: abort.signal });
    const queued = pool.submit(() => never, { signal: abort.signal });
    abort.abort();
    expect(await running).toEqual({ kind: 'cancelled', why: 'cancelled' });
    expect(await queued).toEqual({ kind: 'cancelled', why: 'cancelled' });
    // Only the running job's worker is stopped.
    expect(pool.respawns).toBe(2);
    await pool.dispose();
  });

  it('puts one listener on a signal that many jobs share, and takes it off with the last job', async () => {
    const { spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 2 });
    const abort = new AbortController();
    const listening = new Set<unknown>();
    const add = abort.signal.addEventListener.bind(abort.signal);
    const remove = abort.signal.removeEventListener.bind(abort.signal);
    abort.signal.addEventListener = (type: string, l: EventListenerOrEventListenerObject, o?: AddEventListenerOptions | boolean) => (listening.add(l), add(type, l, o));
    abort.signal.removeEventListener = (type: string, l: EventListenerOrEventListenerObject, o?: EventListenerOptions | boolean) => (listening.delete(l), remove(type, l, o));
    const held = gate();
    const jobs = Array.from({ length: 30 }, (_, i) => pool.submit(async () => (await held.opened, i), { signal: abort.signal }));
    expect(listening.size).toBe(1);
    held.open();
    expect((await Promise.all(jobs)).map((o) => o.kind)).toEqual(Array(30).fill('done'));
    expect(listening.size).toBe(0);
    // A second batch on the same signal is cancelled, queued and running alike, by one abort.
    const never = new Promise<number>(() => undefined);
    const more = Array.from({ length: 12 }, () => pool.submit(() => never, { signal: abort.signal }));
    expect(listening.size).toBe(1);
    abort.abort();
    expect(new Set((await Promise.all(more)).map((o) => o.kind))).toEqual(new Set(['cancelled']));
    await pool.dispose();
  });

  it('an overrun stops the worker and the next job runs on its replacement', async () => {
    const { workers, spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 1 });
    const hung = await pool.submit(() => new Promise(() => undefined), { hardTimeoutMs: 20 });
    expect(hung).toEqual({ kind: 'overrun', ms: 20 });
    expect(workers[0].terminated).toBe(true);
    expect(await pool.submit(async (api) => api.worker)).toEqual({ kind: 'done', value: 2 });
    expect(pool.overruns).toBe(1);
    await pool.dispose();
  });

  it("a worker's slow start does not count against its job's limit; a start that hangs is an overrun", async () => {
    const { spawn } = inProcess();
    // A start of 200 ms (Z3 loading in a slow engine), then a job of 200 ms: each within the limit of 300 ms, together past it.
    const slow = new WorkerPool<TestApi>({ spawn, size: 1, init: () => new Promise((r) => setTimeout(r, 200)) });
    const job = () => new Promise<number>((r) => setTimeout(() => r(7), 200));
    expect(await slow.submit(job, { hardTimeoutMs: 300 })).toEqual({ kind: 'done', value: 7 });
    // The same job past the limit, once started, is stopped.
    expect(await slow.submit(() => new Promise(() => undefined), { hardTimeoutMs: 300 })).toEqual({ kind: 'overrun', ms: 300 });
    expect(slow.overruns).toBe(1);
    await slow.dispose();
    const hung = new WorkerPool<TestApi>({ spawn, size: 1, init: () => new Promise(() => undefined) });
    expect(await hung.submit(job, { hardTimeoutMs: 120 })).toEqual({ kind: 'overrun', ms: 120 });
    expect(hung.overruns).toBe(1);
    await hung.dispose();
  });

  it('a crash fails only its job; a throw replaces the worker only when the job asks', async () => {
    const { workers, spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 1 });
    const crashing = pool.submit(() => new Promise(() => undefined));
    const next = pool.submit(async (api) => api.worker);
    workers[0].crash('the worker exited (code 1)');
    expect(await crashing).toEqual({ kind: 'crashed', message: 'the worker exited (code 1)' });
    expect(await next).toEqual({ kind: 'done', value: 2 });

    const boom = async () => {
      throw new Error('boom');
    };
    expect(await pool.submit(boom)).toMatchObject({ kind: 'failed', message: 'boom' });
    expect(workers).toHaveLength(2);
    expect(await pool.submit(boom, { replaceOnError: true })).toMatchObject({ kind: 'failed', message: 'boom' });
    expect(workers).toHaveLength(3);
    expect(workers[1].terminated).toBe(true);

    // An idle worker that dies is dropped, not respawned in a loop; the next job spawns afresh.
    workers[2].crash('gone');
    expect(await pool.submit(async (api) => api.worker)).toEqual({ kind: 'done', value: 4 });
    expect(pool.failures).toBe(3);
    await pool.dispose();
    expect(await pool.submit(async () => 1)).toEqual({ kind: 'cancelled', why: 'disposed' });
  });

  it('a free worker takes the queued job of the handler it served last', async () => {
    const { spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 2 });
    const ran = (handler: string, held?: Promise<void>) => pool.submit(async (api) => (await held, `${handler}@${api.worker}`), { affinity: handler });
    expect((await Promise.all([ran('sys_kill'), ran('sys_dup')])).map((o) => o.kind === 'done' && o.value)).toEqual(['sys_kill@1', 'sys_dup@2']);
    // Both busy (with the other's handler), then a queue that lists sys_dup first.
    const one = gate();
    const two = gate();
    const busy = [ran('sys_x', one.opened), ran('sys_y', two.opened)];
    const queued = [ran('sys_y'), ran('sys_x')];
    one.open();
    await busy[0];
    two.open();
    const values = (await Promise.all(queued)).map((o) => o.kind === 'done' && o.value);
    // Worker 1 served sys_x last, so it skips the sys_y at the head of the queue.
    expect(values).toEqual(['sys_y@2', 'sys_x@1']);
    await pool.dispose();
  });

  it("a free worker with none of its handler's jobs queued takes a handler no other worker has, so each handler's caches are built once", async () => {
    const { spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 2 });
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    // Both workers busy with a handler of their own; then each handler's answers in file order, as `osvlab grade` submits them.
    const x = gate();
    const y = gate();
    const busy = [pool.submit(async () => x.opened, { affinity: 'x' }), pool.submit(async () => y.opened, { affinity: 'y' })];
    const jobs = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c'].map((h) => pool.submit(async (api) => (await sleep(10), `${h}@${api.worker}`), { affinity: h }));
    x.open();
    y.open();
    await Promise.all(busy);
    const values = (await Promise.all(jobs)).map((o) => (o.kind === 'done' ? o.value : o.kind));
    const workersOf = (h: string) => [...new Set(values.filter((v) => v.startsWith(`${h}@`)).map((v) => v.slice(2)))];
    // a and b each on one worker (before, both workers took a's answers from the head of the queue, then b's).
    expect(workersOf('a')).toHaveLength(1);
    expect(workersOf('b')).toHaveLength(1);
    expect(workersOf('a')).not.toEqual(workersOf('b'));
    // A worker with nothing else left still takes another's handler: no core idles while jobs wait.
    const held = gate();
    const long = pool.submit(async (api) => (await held.opened, api.worker), { affinity: 'd' });
    const rest = [pool.submit(async (api) => api.worker, { affinity: 'd' }), pool.submit(async (api) => api.worker, { affinity: 'd' })];
    const stolen = await Promise.all(rest);
    held.open();
    const first = await long;
    expect(first.kind === 'done' && stolen.every((o) => o.kind === 'done' && o.value !== first.value)).toBe(true);
    await pool.dispose();
  });
});

describe('a grading job on the pool', () => {
  it('grades a real answer; an overrun is a timeout grade, a crash or throw internal, as in the CLI', async () => {
    const pool = new WorkerPool<VerifierApi>({
      // A clock finer than Date.now's millisecond: a warm spec's parse may take less than one.
      spawn: () => ({ api: serveVerifier({ loadEngine: nodeEngine, isolated: () => true, now: () => performance.timeOrigin + performance.now() }), terminate: () => undefined }),
      size: 1,
      init: (api) => api.init(),
    });
    const task = handlerOnlyTask('sys_alloc_vector');
    // The spec as it is read from an answer (core/eval/session/grading.ts); the worker is sent the spec.
    const answer = extractSpec(`\`\`\`python\n${oracleSpec('sys_alloc_vector')}\`\`\``)!;
    const pass = await gradeOnPool(pool, task, answer, { timeoutMs: 60_000, strict: false });
    expect(pass.category).toBe('pass');
    // The worker's clock (osvlab bench --corpus): each request's arrival and answer, and the time by phase.
    const clock = async (run: boolean) => {
      const o = await pool.submit((api) => api.clock(run));
      if (o.kind !== 'done') throw new Error(o.kind);
      return o.value;
    };
    await clock(true);
    const before = performance.timeOrigin + performance.now();
    const again = await gradeOnPool(pool, task, `${oracleSpec('sys_alloc_vector')}\n# reworded\n`, { timeoutMs: 60_000, strict: false });
    const measured = await clock(false);
    expect(again.category).toBe('pass');
    expect(measured.requests).toHaveLength(1);
    const [r] = measured.requests;
    expect(r.arrived).toBeGreaterThanOrEqual(before - 1);
    expect(r.answered).toBeGreaterThanOrEqual(r.arrived);
    expect(measured.phases.parse).toBeGreaterThan(0);
    // Stopped, the clock counts nothing more.
    await gradeOnPool(pool, task, `${oracleSpec('sys_alloc_vector')}\n# reworded twice\n`, { timeoutMs: 60_000, strict: false });
    expect((await clock(false)).requests).toHaveLength(0);
    await pool.dispose();
    // A worker that never finishes starting: the job overruns.
    const hung = new WorkerPool<VerifierApi>({
      spawn: () => ({ api: serveVerifier({ loadEngine: nodeEngine, isolated: () => true }), terminate: () => undefined }),
      size: 1,
      init: () => new Promise(() => undefined),
    });
    const late = await gradeOnPool(hung, task, answer, { timeoutMs: 60_000, hardTimeoutMs: 20 });
    expect(late).toMatchObject({ category: 'timeout', verdict: { status: 'timeout' }, ms: 20 });
    expect(late.extracted).toBe(pass.extracted);
    expect(hung.overruns).toBe(1);
    await hung.dispose();
    expect(gradeOfOutcome({ kind: 'crashed', message: 'the grading worker exited (code 1)' }, answer)).toMatchObject({ category: 'internal' });
    expect(gradeOfOutcome({ kind: 'failed', error: new Error('x'), message: 'x' }, answer)).toMatchObject({ category: 'internal', internalError: 'x' });
    expect(() => gradeOfOutcome({ kind: 'cancelled', why: 'disposed' }, answer)).toThrow(CancelledError);
    // One limit for the page and the CLI: six budgets and 30 s, plus one budget per variant in the matrix.
    expect(hardLimitMs({ kind: 'grade', timeoutMs: 60_000 })).toBe(390_000);
    expect(hardLimitMs({ kind: 'grade', timeoutMs: 60_000, variants: 5 })).toBe(690_000);
    expect(hardLimitMs({ kind: 'grade' })).toBe(390_000);
    // A command's verification: its budget and 15 s, plus the lemma checks' backstop with strict.
    expect(hardLimitMs({ kind: 'verify', timeoutMs: 60_000 })).toBe(75_000);
    expect(hardLimitMs({ kind: 'verify', timeoutMs: 20_000, strict: true })).toBe(35_000 + hardLimitMs({ kind: 'lemmas', queryTimeoutMs: 20_000 }));
    // One a person waits for in the page: half its budget again, at least a second, strict or not.
    expect(hardLimitMs({ kind: 'verify', timeoutMs: 30_000, waiting: true })).toBe(45_000);
    expect(hardLimitMs({ kind: 'verify', timeoutMs: 1, strict: true, waiting: true })).toBe(1001);
    expect(hardLimitMs({ kind: 'diff', timeoutMs: 20_000 })).toBe(35_000);
    expect(hardLimitMs({ kind: 'lemmas', queryTimeoutMs: 20_000 })).toBe(30 * 60_000 + 512 * 20_000);
  }, 300_000);

  it("an agent's tool call has one hard limit, verify and run alike: twice its limit and half a minute", async () => {
    expect(hardLimitMs({ kind: 'tool', limitMs: 20_000 })).toBe(70_000);
    vi.useFakeTimers();
    try {
      // Workers that never answer: a `verify` call's grading never starts, a `run` call never returns.
      const hung: VerifierApi = { agentRun: () => new Promise(() => undefined) } as unknown as VerifierApi;
      const options = { spawn: () => ({ api: hung, terminate: () => undefined }), size: 1, init: () => new Promise(() => undefined) };
      const grading = new WorkerPool<VerifierApi>(options);
      const client = new VerifierClient(options);
      const verify = gradeOnPool(grading, handlerOnlyTask('sys_alloc_vector'), SPEC, { timeoutMs: 1000, strict: false, toolCall: true }).catch((e: unknown) => e);
      const run = client.agentRun({ handler: 'sys_alloc_vector', spec: SPEC, against: 'the implementation shown in the task', input: { case: 0 }, limitMs: 1000, spentMs: 0 });
      const settled: string[] = [];
      void verify.then(() => settled.push('verify'));
      void run.then(() => settled.push('run'));
      await vi.advanceTimersByTimeAsync(31_999);
      expect(settled).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled.sort()).toEqual(['run', 'verify']);
      const stopped = await verify;
      expect(stopped).toBeInstanceOf(ToolOverrunError);
      expect((stopped as ToolOverrunError).ms).toBe(32_000);
      expect(await run).toEqual({ overrun: true });
      expect([grading.overruns, client.overruns]).toEqual([1, 1]);
      await grading.dispose();
      await client.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a job that needs no start beside the start, its limit from the hand-over; a start that fails ends it', async () => {
    // Z3's load never ends here: a job that waits for the start never runs, one that needs none does.
    const { pool, crashes, starts } = neverStarting(1);
    expect(await pool.submit(async (api) => api.n * 10, { beforeStart: true })).toEqual({ kind: 'done', value: 10 });
    expect(starts()).toBe(1);
    expect(await pool.submit(async (api) => api.n, { hardTimeoutMs: 20 })).toEqual({ kind: 'overrun', ms: 20 });
    // Its hard limit bounds the job itself: the worker is replaced, and the next job goes to the fresh one at once.
    expect(await pool.submit(() => new Promise(() => undefined), { beforeStart: true, hardTimeoutMs: 20 })).toEqual({ kind: 'overrun', ms: 20 });
    expect(pool.respawns).toBe(2);
    expect(await pool.submit(async (api) => api.n, { beforeStart: true })).toEqual({ kind: 'done', value: 3 });
    // The worker dies while it starts: the job beside its start ends with it, and nothing waits forever.
    const beside = pool.submit(() => new Promise(() => undefined), { beforeStart: true });
    crashes[2]('the verifier worker crashed: out of memory');
    expect(await beside).toMatchObject({ kind: 'crashed', message: expect.stringMatching(/out of memory/) });
    await pool.dispose();
  });

  it('a worker that crashes while starting fails warm() and the waiting job with its message; nothing waits forever', async () => {
    // Loading Z3 that never finishes: only the crash can end it.
    const { pool, crashes, starts } = neverStarting(1);
    const warming = pool.warm();
    const job = pool.submit(async (api) => api.n);
    crashes[0]('the verifier worker crashed: a Z3 thread failed (z3-built.js:10)');
    await expect(warming).rejects.toThrow('a Z3 thread failed (z3-built.js:10)');
    expect(await job).toEqual({ kind: 'crashed', message: 'the verifier worker crashed: a Z3 thread failed (z3-built.js:10)' });
    // A later warm() tries again on a fresh worker.
    const again = pool.warm();
    expect(starts()).toBeGreaterThanOrEqual(2);
    crashes.at(-1)?.('second crash');
    await expect(again).rejects.toThrow('second crash');
    await pool.dispose();
  });

  it('a start that fails (a crash, or init throwing) is tried again on a fresh worker, with its job, a bounded number of times', async () => {
    // Worker n's start: crash (its script did not load), throw (Z3's glue did not load), or answer.
    const plan: Array<'crash' | 'throw' | 'ok'> = ['crash', 'throw', 'ok', 'crash', 'crash', 'crash', 'unavailable' as 'throw'];
    const workers: Array<{ n: number; terminated: boolean }> = [];
    const spawned: number[] = [];
    const pool = new WorkerPool<{ n: number }>({
      spawn: (crashed) => {
        const w = { n: workers.length + 1, terminated: false };
        workers.push(w);
        spawned.push(Date.now());
        if (plan[w.n - 1] === 'crash') setTimeout(() => crashed(`the verifier worker crashed: script ${w.n} did not load`), 5);
        return { api: { n: w.n }, terminate: () => (w.terminated = true) };
      },
      size: 1,
      init: async (api) => {
        const what = plan[api.n - 1];
        if (what === 'throw') throw new Error(`Could not fetch the Z3 glue (${api.n})`);
        if ((what as string) === 'unavailable') throw Object.assign(new Error('no shared memory'), { name: 'Z3UnavailableError' });
        if (what === 'crash') return new Promise(() => undefined);
        return 'ready';
      },
      startRetries: { times: 2, delayMs: 40, retryable: (e) => !(e instanceof Error && e.name === 'Z3UnavailableError') },
    });
    // Crash, throw, then a start that works: the job runs on the third worker; the first two were stopped.
    expect(await pool.submit(async (api) => api.n)).toEqual({ kind: 'done', value: 3 });
    expect(workers.map((w) => w.terminated)).toEqual([true, true, false]);
    expect(pool.restarts).toBe(2);
    expect(pool.failures).toBe(0);
    // The pauses grow: 40 ms, then 80 ms (each after the failure, so at least that between spawns, less the 1 ms
    // by which a timer's firing and Date.now's whole milliseconds can disagree: a fresh-clone CI run measured 79).
    expect(spawned[1] - spawned[0]).toBeGreaterThanOrEqual(40 - 1);
    expect(spawned[2] - spawned[1]).toBeGreaterThanOrEqual(80 - 1);
    await pool.dispose();

    // Three crashes in a row: the job fails with the last one's message and the count; warm() too.
    const again = new WorkerPool<{ n: number }>({
      spawn: (crashed) => {
        const w = { n: workers.length + 1, terminated: false };
        workers.push(w);
        if (plan[w.n - 1] === 'crash') setTimeout(() => crashed(`the verifier worker crashed: script ${w.n} did not load`), 5);
        return { api: { n: w.n }, terminate: () => (w.terminated = true) };
      },
      size: 1,
      init: async (api) => {
        const what = plan[api.n - 1] as string;
        if (what === 'unavailable') throw Object.assign(new Error('no shared memory'), { name: 'Z3UnavailableError' });
        return new Promise(() => undefined);
      },
      startRetries: { times: 2, delayMs: 10, retryable: (e) => !(e instanceof Error && e.name === 'Z3UnavailableError') },
    });
    expect(await again.submit(async (api) => api.n)).toEqual({ kind: 'crashed', message: 'the verifier worker crashed: script 6 did not load (3 starts failed)' });
    // The crash's job had its worker replaced (7, already starting). An error that will not go away is
    // not tried again: warm() fails with it, its name kept, and no eighth worker comes.
    await expect(again.warm()).rejects.toMatchObject({ name: 'Z3UnavailableError', message: 'no shared memory' });
    await new Promise((r) => setTimeout(r, 50));
    expect(workers).toHaveLength(7);
    expect(again.restarts).toBe(2);
    await again.dispose();
  });

  it('a start that fails and is tried again follows its job being cancelled during the pause', async () => {
    const crashes: Array<(m: string) => void> = [];
    const pool = new WorkerPool<{ n: number }>({
      spawn: (crashed) => (crashes.push(crashed), { api: { n: crashes.length }, terminate: () => undefined }),
      size: 1,
      init: (api) => (api.n === 1 ? new Promise(() => undefined) : Promise.resolve()),
      startRetries: { times: 2, delayMs: 50 },
    });
    const job = pool.submit(async (api) => api.n, { lane: 'x' });
    crashes[0]('crashed while starting');
    pool.cancel('x');
    expect(await job).toEqual({ kind: 'cancelled', why: 'cancelled' });
    // The cancel replaced the crashed worker (2); the pause's end finds it gone and starts nothing more.
    await new Promise((r) => setTimeout(r, 80));
    expect(crashes).toHaveLength(2);
    expect(await pool.submit(async (api) => api.n)).toEqual({ kind: 'done', value: 2 });
    expect(pool.restarts).toBe(0);
    await pool.dispose();
  });

  it('warm() follows a worker replaced while it starts (a cancelled job) to its replacement', async () => {
    const inits: Array<() => void> = [];
    const pool = new WorkerPool<{ n: number }>({
      spawn: () => ({ api: { n: inits.length }, terminate: () => undefined }),
      size: 1,
      init: () => new Promise<void>((r) => inits.push(r)),
    });
    const warming = pool.warm();
    const cancelled = pool.submit(() => new Promise<number>(() => undefined), { lane: 'x' });
    pool.cancel('x');
    expect(await cancelled).toEqual({ kind: 'cancelled', why: 'cancelled' });
    expect(inits).toHaveLength(2);
    inits[1]();
    await expect(warming).resolves.toBeUndefined();
    await pool.dispose();
  });

  it('beside() runs on the first worker while its start is under way, and rejects when that worker crashes or the pool goes', async () => {
    // Loading Z3 that has not finished: a job waits for it, a call beside it does not.
    const { pool, crashes, starts } = neverStarting(2);
    const job = pool.submit(async (api) => api.n);
    await expect(pool.beside(async (api) => api.n * 10)).resolves.toBe(10);
    expect(crashes).toHaveLength(1);
    // beside() began no second start, and the queued job still waits for the first.
    expect(starts()).toBe(1);
    const hanging = pool.beside(() => new Promise<number>(() => undefined));
    crashes[0]('the verifier worker crashed: out of memory');
    await expect(hanging).rejects.toThrow('out of memory');
    expect(await job).toEqual({ kind: 'crashed', message: 'the verifier worker crashed: out of memory' });
    // On a pool without workers, beside() spawns the first and starts it.
    await expect(pool.beside(async (api) => api.n)).resolves.toBe(2);
    expect(starts()).toBe(2);
    const pending = pool.beside(() => new Promise<number>(() => undefined));
    await pool.dispose();
    await expect(pending).rejects.toThrow();
    await expect(pool.beside(async (api) => api.n)).rejects.toThrow('verification disposed');
  });

  it('beside(run, { start: false }) answers on the first worker without beginning its start; a later warm() begins it once', async () => {
    const { pool, starts } = neverStarting(1);
    await expect(pool.beside(async (api) => api.n * 10, { start: false })).resolves.toBe(10);
    await expect(pool.beside(async (api) => api.n, { start: false })).resolves.toBe(1);
    expect(starts()).toBe(0);
    pool.warm().catch(() => undefined); // Never starts here: it ends with the pool.
    // The same worker: warm() starts the worker beside() used, and a default beside() starts no second one.
    await expect(pool.beside(async (api) => api.n)).resolves.toBe(1);
    expect(starts()).toBe(1);
    await pool.dispose();
  });

  it("stats() says what each worker did: its start, its jobs, their busy time and its last job's end, replaced workers too", async () => {
    const { spawn } = inProcess();
    const pool = new WorkerPool<TestApi>({ spawn, size: 2, init: async (api) => api.verifier.check(SPEC, 'sys_kill') });
    const before = Date.now();
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    // Worker 1 takes the 120 ms job, worker 2 one of 40 ms and (being free first, as a rule) the other.
    const lengths = [120, 40, 40];
    const outcomes = await Promise.all(lengths.map((ms) => pool.submit(async (api) => (await sleep(ms), api.worker))));
    const ran = outcomes.map((o) => (o.kind === 'done' ? o.value : 0));
    expect(ran.slice(0, 2)).toEqual([1, 2]);
    const stats = pool.stats();
    expect(stats).toHaveLength(2);
    for (const [i, w] of stats.entries()) {
      const mine = lengths.filter((_, j) => ran[j] === i + 1);
      expect(w.jobs).toBe(mine.length);
      expect(w.busyMs).toBeGreaterThanOrEqual(mine.reduce((a, b) => a + b, 0) - 5);
      expect(w.spawnedAt).toBeGreaterThanOrEqual(before);
      expect(w.readyAt).toBeGreaterThanOrEqual(w.spawnedAt);
      // Busy counts from the hand-over after the start, never the start itself.
      expect(w.busyMs).toBeLessThanOrEqual(w.lastEndAt! - w.readyAt!);
    }
    // A job past its limit: its worker is replaced, and both stay in the stats.
    const overrun = await pool.submit(() => new Promise(() => undefined), { hardTimeoutMs: 50 });
    expect(overrun.kind).toBe('overrun');
    const after = pool.stats();
    expect(after).toHaveLength(3);
    expect(after.reduce((n, w) => n + w.jobs, 0)).toBe(4);
    expect(after[2].jobs).toBe(0);
    expect(after[2].lastEndAt).toBeUndefined();
    await pool.dispose();
  });
});
