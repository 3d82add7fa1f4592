/**
 * Starting the page's workers (src/worker/verifier.worker.ts), light enough
 * for the page's entry to import: on the playground the verifier worker is
 * started first thing (src/app/main.ts), before the app's code has loaded,
 * and the pool takes that worker for its first slot (src/worker/web-pool.ts;
 * docs/app.md, "Loading Z3"). Until then what the worker sends (an error,
 * a crash note) is kept and handed to the pool's listeners.
 */
import type { VerifyRequest } from '../core/verify/driver.ts';
import { parseZ3Memory } from '../z3/memory.ts';

/** A verifier worker loads Z3; the lint worker never does. The worker reads which it is from its name (src/z3/start.ts). */
export type WorkerRole = 'verifier' | 'lint';

/** The setting that caps Z3's memory (for tests, and a person who wants less): `?z3-memory=512` in the address, or localStorage `osvlab.z3-memory`. */
const MEMORY_SETTING = 'osvlab.z3-memory';

function memorySetting(): string {
  if (typeof location === 'undefined') return '';
  const fromUrl = new URLSearchParams(location.search).get('z3-memory');
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(MEMORY_SETTING);
  } catch {
    // Storage can be disabled.
  }
  const size = parseZ3Memory(fromUrl ?? stored);
  return size ? ` z3-memory=${size}` : '';
}

/** `?z3-threads=0` (or 1) in the address: Z3 in the worker's one thread, or with its own threads, instead of the engine's default (docs/app.md, "Browser support"). */
function threadsSetting(): string {
  if (typeof location === 'undefined') return '';
  const v = new URLSearchParams(location.search).get('z3-threads');
  return v === '0' || v === '1' ? ` z3-threads=${v}` : '';
}

/** A new worker of `role`. The worker reads the settings from its name (src/z3/browser.ts): it has no localStorage. */
export function spawnWorker(role: WorkerRole): Worker {
  const name = role === 'verifier' ? `osvlab-verifier${memorySetting()}${threadsSetting()}` : 'osvlab-lint';
  return new Worker(new URL('./verifier.worker.ts', import.meta.url), { type: 'module', name });
}

let early: { readonly worker: Worker; readonly heard: Event[]; readonly keep: (e: Event) => void } | undefined;

/** Starts the first verifier worker now, for the pool to take later (`takeEarlyVerifier`). */
export function startVerifierEarly(): void {
  if (early) return;
  const worker = spawnWorker('verifier');
  const heard: Event[] = [];
  const keep = (e: Event) => heard.push(e);
  worker.addEventListener('error', keep);
  worker.addEventListener('message', keep);
  early = { worker, heard, keep };
}

/**
 * Tells the worker `startVerifierEarly` started which verification the page
 * is about to ask for (a share link's), so it begins as soon as the worker's
 * code and the kernel are in (`VerifierApi.foresee`); the page's identical
 * request is answered by it. Nothing when that worker was taken or never
 * started.
 */
export function foreseeEarly(req: VerifyRequest): void {
  early?.worker.postMessage({ osvlabForesee: req });
}

/**
 * The worker `startVerifierEarly` started, if it has not been taken. What it
 * sent meanwhile is delivered again in a later task, so to the listeners
 * the taker adds now (and after the pool has the worker in a slot).
 */
export function takeEarlyVerifier(): Worker | undefined {
  if (!early) return undefined;
  const { worker, heard, keep } = early;
  early = undefined;
  worker.removeEventListener('error', keep);
  worker.removeEventListener('message', keep);
  if (heard.length) setTimeout(() => heard.forEach((e) => worker.dispatchEvent(copyOf(e))), 0);
  return worker;
}

/** A fresh event like `e` (an event is dispatched once by the browser; a copy can be dispatched again). */
function copyOf(e: Event): Event {
  if (typeof ErrorEvent !== 'undefined' && e instanceof ErrorEvent) return new ErrorEvent('error', { message: e.message, filename: e.filename, lineno: e.lineno, colno: e.colno, error: e.error });
  if (e instanceof MessageEvent) return new MessageEvent('message', { data: e.data, ports: [...e.ports] });
  return new Event(e.type);
}
