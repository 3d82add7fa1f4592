/**
 * The CLI's platform adapter for the verifier service's one client
 * (src/core/service/client.ts): how a verifier worker thread is started
 * (grade-worker.mjs, serving the same `VerifierApi` as the page's workers),
 * and how many. A job that runs past its wall-clock limit (a hung solver)
 * has its worker terminated and replaced; a job the worker fails on (it
 * throws, crashes or exits) has its worker replaced too, since its Z3 may be
 * left in any state: one bad answer never affects another's grade.
 */
import { cpus, totalmem } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { VerifierClient } from '../core/service/client.ts';
import type { VerifierApi } from '../core/service/contract.ts';
import type { WorkerHandle } from '../core/pool/pool.ts';
import { nodeEndpoint } from './node-endpoint.ts';
import { forwardWorkerStderr } from './worker-stderr.ts';
import { compiledZ3 } from '../z3/node.ts';

/**
 * The most worker threads a pool starts, whatever is asked: two per core
 * (each Z3 check keeps a core busy, so more only wait), and one per GiB of
 * memory (each worker holds its own Z3, about 125 MB idle and up to its 2 GiB
 * heap when a proof is large): `grade --concurrency 200` started 200 and ran
 * the machine out of memory.
 */
export function maxWorkers(cores = cpus().length, memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(2 * cores, Math.floor(memoryBytes / 2 ** 30)));
}

/** The pool's spawn adapter: one verifier worker thread (grade-worker.mjs). */
export function workerThread(crashed: (message: string) => void): WorkerHandle<VerifierApi> {
  // Its stderr comes through a filter: Z3's abort report is replaced by the pool's coded diagnostic.
  // Z3's wasm is compiled once per process and posted to each worker (src/z3/node.ts, compiledZ3).
  const z3 = new MessageChannel();
  const worker = new Worker(new URL('./grade-worker.mjs', import.meta.url), { stderr: true, workerData: { z3Module: z3.port2 }, transferList: [z3.port2] });
  z3.port1.unref();
  compiledZ3().then(
    (module) => z3.port1.postMessage(module),
    () => z3.port1.postMessage(undefined),
  );
  forwardWorkerStderr(worker.stderr);
  worker.on('error', (e) => crashed(`the verifier worker crashed: ${e.message}`));
  worker.on('exit', (code) => crashed(`the verifier worker exited (code ${code})`));
  const api = Comlink.wrap<VerifierApi>(nodeEndpoint(worker));
  return {
    // Every method of VerifierApi already returns a promise of cloneable data, so the proxy has its shape.
    api: api as unknown as VerifierApi,
    terminate: () => worker.terminate(),
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
  };
}

/**
 * A client of the verifier service over Node worker threads: `size` of them
 * (default one per core; at most `maxWorkers()`), each loading Z3 when it
 * starts. For grading: a job past its limit has its worker replaced and is
 * graded `timeout`, one a worker fails on is graded `internal`.
 */
export function nodeVerifier(opts: { readonly size?: number } = {}): VerifierClient {
  return new VerifierClient({ spawn: workerThread, size: Math.min(opts.size ?? cpus().length, maxWorkers()), init: (api) => api.init() });
}

/**
 * One verifier worker thread for a command's checks (`VerifierClient.check`:
 * `osvlab verify`, `lemmas`, `diff`), loading Z3 from the moment it is made,
 * so that what Z3 or the spec can do to a process (run out of its WASM heap,
 * ignore its timeout, exhaust the JavaScript heap) happens to the worker,
 * not the command.
 */
export function verifierThread(): VerifierClient {
  const client = new VerifierClient({ spawn: workerThread, size: 1 });
  void client.start();
  return client;
}
