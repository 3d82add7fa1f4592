/**
 * Can a compiled WebAssembly.Module be kept across visits in this engine
 * (docs/app.md, "Browser support")? In each engine (test/e2e/driver.ts), on
 * the built site (cross-origin isolated), the page compiles a small module
 * and tries to store it in IndexedDB, read it back and instantiate it, then
 * tries the same with a module posted to and from a worker (which every
 * engine supports, as the pthreads need it), and prints what each engine did.
 *
 *   npx tsx perf/wasm-module-store.ts [--browser chromium|firefox|webkit|all]
 */
import { ENGINES, type EngineName, launchEngine } from '../test/e2e/driver.ts';
import { ensureBuilt, serve } from '../test/e2e/harness.ts';

const i = process.argv.indexOf('--browser');
const which = i >= 0 ? process.argv[i + 1] : 'all';
const browsers: EngineName[] = which === 'all' ? [...ENGINES] : [which as EngineName];

/** Runs in the page: what storing a compiled module in IndexedDB does. */
async function probe(): Promise<Record<string, string>> {
  // (module (func (export "f") (result i32) i32.const 42))
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 6, 1, 4, 0, 65, 42, 11]);
  const out: Record<string, string> = { ua: navigator.userAgent, isolated: String(self.crossOriginIsolated) };
  const mod = await WebAssembly.compile(bytes);
  const req = <T>(r: IDBRequest<T>) => new Promise<T>((res, rej) => ((r.onsuccess = () => res(r.result)), (r.onerror = () => rej(r.error))));
  const open = indexedDB.open('wasm-module-store-probe', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('m');
  const db = await req(open);
  try {
    const tx = db.transaction('m', 'readwrite');
    tx.objectStore('m').put(mod, 'k');
    await new Promise((res, rej) => ((tx.oncomplete = res), (tx.onerror = () => rej(tx.error)), (tx.onabort = () => rej(tx.error))));
    out.idbPut = 'stored';
    const back = await req(db.transaction('m').objectStore('m').get('k'));
    out.idbGet = back instanceof WebAssembly.Module ? 'a Module' : Object.prototype.toString.call(back);
    const inst = await WebAssembly.instantiate(back as WebAssembly.Module);
    out.idbRun = String((inst.exports.f as () => number)());
  } catch (e) {
    out.idb = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  db.close();
  // A module posted to a worker and back (structured clone within the agent cluster).
  try {
    const w = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => postMessage(e.data)'], { type: 'text/javascript' })));
    const echoed = await new Promise<unknown>((res, rej) => ((w.onmessage = (e) => res(e.data)), (w.onerror = () => rej(new Error('worker error'))), w.postMessage(mod)));
    w.terminate();
    out.postMessage = echoed instanceof WebAssembly.Module ? 'a Module' : Object.prototype.toString.call(echoed);
  } catch (e) {
    out.postMessage = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  return out;
}

const site = await serve(await ensureBuilt());
try {
  for (const name of browsers) {
    const engine = await launchEngine(name);
    try {
      const tab = await engine.open();
      await tab.goto(site.url + '#/about');
      console.log(name, JSON.stringify(await tab.eval(probe)));
      await tab.close();
    } finally {
      await engine.close();
    }
  }
} finally {
  await site.close();
}
