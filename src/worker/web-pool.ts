/**
 * The page's platform adapter for the verifier service's one client
 * (src/core/service/client.ts): how a verifier worker is started (a Web
 * Worker behind Comlink, the first one maybe started early by the page's
 * entry), how many, and the warm-up's bound. Workers start lazily and load
 * Z3 on their first job; lanes, cancellation, the hard limit and
 * terminate-and-respawn are the pool's.
 *
 * A separate lint worker answers `check`/`catalog` only and never loads Z3,
 * so live diagnostics keep flowing while a proof is running.
 */
import * as Comlink from 'comlink';
import { VerifierClient } from '../core/service/client.ts';
import type { VerifierApi } from '../core/service/contract.ts';
import { CancelledError } from '../core/pool/pool.ts';
import { crashText, describeError, isCrashNote } from './crash-report.ts';
import { spawnWorker, takeEarlyVerifier, type WorkerRole } from './verifier-spawn.ts';
import { withinWarmUpLimit } from './warm-up-limit.ts';
import { isZ3Unavailable } from '../z3/unavailable.ts';

export { CancelledError };

export type WorkerFactory = (role: WorkerRole) => Worker;

/** The page's own workers; the first verifier worker may have been started already, by the page's entry (src/worker/verifier-spawn.ts). */
function defaultFactory(role: WorkerRole): Worker {
  return (role === 'verifier' ? takeEarlyVerifier() : undefined) ?? spawnWorker(role);
}

/**
 * A worker whose script, or Z3's glue or wasm, did not load (a network
 * hiccup; WebKitGTK now and then fails to start a module worker under load)
 * is started again twice, after 0.5 s and 1 s, before its start counts as
 * failed. A browser that cannot run Z3 at all (src/z3/unavailable.ts) is told at once.
 */
const START_RETRIES = { times: 2, delayMs: 500, retryable: (e: unknown) => !isZ3Unavailable(e) };

/** One Web Worker as the pool's spawn adapter sees it. */
function webWorker(factory: WorkerFactory, role: WorkerRole, crashed: (message: string) => void) {
  const worker = factory(role);
  // The worker posts a description of its own crashes (src/worker/crash-report.ts); an error
  // event still comes for a worker that failed before it could (a script that did not load).
  worker.addEventListener('error', (e) => {
    // A plain Event (not an ErrorEvent) is what a worker whose script did not load, or that the browser ended, sends.
    const text = typeof ErrorEvent !== 'undefined' && !(e instanceof ErrorEvent) ? 'it stopped without an error message (its script did not load, or the browser ended it)' : crashText(describeError(e.message, e.filename, e.lineno, e.colno, e.error));
    crashed(`the verifier worker crashed: ${text}`);
  });
  worker.addEventListener('message', (e) => {
    if (isCrashNote(e.data)) crashed(`the verifier worker crashed: ${crashText(e.data)}`);
  });
  // Every method of VerifierApi already returns a promise of cloneable data, so the proxy has its shape.
  const api = Comlink.wrap<VerifierApi>(worker);
  return {
    api: api as unknown as VerifierApi,
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/**
 * How many Z3 workers to run: one per core, at most four. Each worker holds a
 * 2 GiB WASM memory and its own Z3 threads, so more would only compete.
 */
function defaultPoolSize(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(4, cores));
}

/**
 * The page's client of the verifier service: `size` Web Workers from
 * `factory`; a worker has started when Z3 has loaded and warmed up, the
 * warm-up bounded by a timer here (src/worker/warm-up-limit.ts).
 */
export function webVerifier(factory: WorkerFactory = defaultFactory, size = defaultPoolSize(), warmUpLimitMs?: number): VerifierClient {
  const init = async (api: VerifierApi) => (await api.init(), withinWarmUpLimit(api.warmUp(), warmUpLimitMs));
  return new VerifierClient({ spawn: (crashed) => webWorker(factory, 'verifier', crashed), size, init, startRetries: START_RETRIES });
}

/** A Z3-free worker for diagnostics and the catalog (a crash there surfaces as a failed call). */
export function lintWorker(factory: WorkerFactory = defaultFactory): { readonly api: VerifierApi; readonly terminate: () => void } {
  return webWorker(factory, 'lint', () => undefined);
}
