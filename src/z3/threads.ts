/**
 * Z3's threads in a verifier worker: whether it starts any, and the workers
 * they run in, made ahead of need.
 *
 * Emscripten's glue makes a thread's worker when Z3 starts the thread
 * (`new Worker(glue, { name: 'em-pthread-N' })`); the new worker then loads
 * and runs the glue (350 kB of script) before it can take the thread. Z3's
 * first checks, the warm-up, start two threads, so on a repeat visit, with
 * everything else from caches, those two workers' start would be a large
 * part of the time to the first verdict. Here they are made as soon as the glue has
 * arrived, while the wasm still compiles, and the glue's `new Worker` takes
 * them (docs/app.md, "Loading Z3"). A worker made ahead is the same as one the
 * glue makes: same script, same name, and it waits for the glue's `load`
 * message (the module and the memory) as any does.
 */
import { canShareMemory } from './obstacle.ts';

/** How many workers to make ahead: the warm-up's two threads (a check's and its timer's). */
export const THREAD_WORKERS_AHEAD = 2;

/**
 * Whether Z3 should start threads of its own: the page's `z3-threads` setting
 * if it has one (src/worker/web-pool.ts), else yes where memory can be shared,
 * except in Firefox. There a check on Z3's threads now and then never answers
 * until the pool's hard limit stops the worker, while the same checks in the
 * worker's one thread do not stall and are as fast (docs/app.md, "Browser
 * support", measured by perf/z3-threads.ts). No feature tells the stall
 * apart, so the engine is named.
 */
export function wantThreads(): boolean {
  const asked = /\bz3-threads=([01])\b/.exec(self.name)?.[1];
  if (asked !== undefined) return asked === '1' && canShareMemory();
  return threadsByDefault();
}

/**
 * Whether this engine runs Z3 on threads unless a setting says otherwise.
 * Workers are made ahead only there: in Firefox, threads are an opt-in
 * (`?z3-threads=1`) whose warm-up now and then stalls, with or without
 * workers made ahead (docs/app.md, "Browser support"), so that path stays as
 * it was.
 */
export function threadsByDefault(): boolean {
  return canShareMemory() && !/\bFirefox\//.test(self.navigator.userAgent);
}

/** The workers made ahead that the glue has not taken yet; `handedOut` counts those it took (the load steps' `threadsAhead`). */
const ahead: Worker[] = [];
let handedOut = 0;
let made = false;

/**
 * Makes `n` thread workers of the glue at `glueUrl` now, and from now on has
 * `new Worker(glueUrl, ...)` in this worker take one of them while any is
 * left (any other URL, or none left: a worker made then, as before).
 */
export function makeThreadWorkersAhead(glueUrl: string, n = THREAD_WORKERS_AHEAD): void {
  // Once per worker: a load tried again finds the hook in place, and what is left of the workers made.
  if (made) return;
  made = true;
  const scope = self as unknown as { Worker: typeof Worker };
  const Made = scope.Worker;
  for (let i = 1; i <= n; i++) {
    const worker = new Made(glueUrl, { name: `em-pthread-${i}` });
    // One that fails before it is taken (its script did not load) is dropped, so the glue makes a fresh one and sees its error.
    worker.addEventListener(
      'error',
      () => {
        const at = ahead.indexOf(worker);
        if (at < 0) return;
        ahead.splice(at, 1);
        worker.terminate();
      },
      { once: true },
    );
    ahead.push(worker);
  }
  // A constructor that returns an object: `new` gives that object, so the glue gets a worker made ahead.
  function Ahead(url: string | URL, options?: WorkerOptions): Worker {
    const ready = String(url) === glueUrl ? ahead.shift() : undefined;
    if (ready) {
      handedOut++;
      return ready;
    }
    return new Made(url, options);
  }
  Ahead.prototype = Made.prototype;
  scope.Worker = Ahead as unknown as typeof Worker;
}

/** How many workers made ahead the glue has taken so far. */
export function threadWorkersTaken(): number {
  return handedOut;
}
