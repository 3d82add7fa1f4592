/**
 * The thread workers made ahead (src/z3/threads.ts), against a
 * stand-in for the browser's Worker constructor (Node has none): which `new
 * Worker` calls get one, which get a fresh worker, and that one that fails
 * before it is taken is not handed out. That Z3's glue really takes them is
 * checked in every engine by the smoke path (About: `threadsAhead`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class StandInWorker extends EventTarget {
  static made: StandInWorker[] = [];
  terminated = false;
  constructor(
    readonly url: string,
    readonly options?: WorkerOptions,
  ) {
    super();
    StandInWorker.made.push(this);
  }
  terminate(): void {
    this.terminated = true;
  }
}

const GLUE = 'https://osvlab.test/z3-built.js';
const scope = globalThis as unknown as { self?: { Worker: unknown } };

async function fresh() {
  vi.resetModules();
  return import('../../src/z3/threads.ts');
}

describe('thread workers made ahead', () => {
  beforeEach(() => {
    StandInWorker.made = [];
    scope.self = { Worker: StandInWorker };
  });
  afterEach(() => {
    delete scope.self;
  });

  it("hands the glue's new Worker the ones made ahead, in order, then makes fresh ones", async () => {
    const t = await fresh();
    t.makeThreadWorkersAhead(GLUE);
    expect(StandInWorker.made.map((w) => w.options?.name)).toEqual(['em-pthread-1', 'em-pthread-2']);
    const W = scope.self!.Worker as new (url: string, options?: WorkerOptions) => StandInWorker;
    const first = new W(GLUE, { name: 'em-pthread-1' });
    const second = new W(GLUE, { name: 'em-pthread-2' });
    expect([first, second]).toEqual(StandInWorker.made.slice(0, 2));
    expect(t.threadWorkersTaken()).toBe(2);
    const third = new W(GLUE, { name: 'em-pthread-3' });
    expect(StandInWorker.made).toHaveLength(3);
    expect(third.options?.name).toBe('em-pthread-3');
    expect(third).toBeInstanceOf(W);
    expect(t.threadWorkersTaken()).toBe(2);
  });

  it('gives another script a worker of its own, and makes workers once per worker', async () => {
    const t = await fresh();
    t.makeThreadWorkersAhead(GLUE);
    t.makeThreadWorkersAhead(GLUE);
    expect(StandInWorker.made).toHaveLength(2);
    const W = scope.self!.Worker as new (url: string, options?: WorkerOptions) => StandInWorker;
    const other = new W('https://osvlab.test/other.js');
    expect(other.url).toBe('https://osvlab.test/other.js');
    expect(StandInWorker.made).toHaveLength(3);
    expect(t.threadWorkersTaken()).toBe(0);
  });

  it('drops one whose script failed before it was taken, so the glue gets a fresh one and its errors', async () => {
    const t = await fresh();
    t.makeThreadWorkersAhead(GLUE);
    const [broken, fine] = StandInWorker.made;
    broken.dispatchEvent(new Event('error'));
    expect(broken.terminated).toBe(true);
    const W = scope.self!.Worker as new (url: string, options?: WorkerOptions) => StandInWorker;
    expect(new W(GLUE)).toBe(fine);
    const made = new W(GLUE);
    expect(made).not.toBe(broken);
    expect(StandInWorker.made).toHaveLength(3);
    // An error after it was taken is the glue's to hear: the worker is not terminated here.
    fine.dispatchEvent(new Event('error'));
    expect(fine.terminated).toBe(false);
    expect(t.threadWorkersTaken()).toBe(1);
  });
});
