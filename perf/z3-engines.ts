/**
 * The same Z3 queries in Node (V8) and in each browser engine, to tell where
 * an engine's verification time goes (docs/measurements.md, "Where
 * WebKitGTK's time went").
 *
 * 1. In Node, the verifications of a handler's oracle against its four buggy
 *    variants are recorded query by query: each query's SMT-LIB text and the tactics its
 *    solver was made of (as src/core/smt/native.ts builds it).
 * 2. Those queries are replayed in Node and in a worker of each browser,
 *    with Z3's own exports only (no z3-solver wrapper, no pool, no core):
 *    a fresh context, the solver, the script asserted, Z3_solver_check
 *    called synchronously in the calling thread (as WebKitGTK's one-thread
 *    path does), so every engine runs exactly the same wasm calls.
 *    The glue is public/z3-built.js (the app's); `--count` also counts the
 *    glue's `invoke_*` trampolines (Z3's C++ exceptions pass through them).
 *
 * Run: npx tsx perf/z3-engines.ts [--handlers A,B] [--engines node,chromium,firefox,webkit] [--rounds N] [--reps N] [--count]
 * An engine may carry environment for its browser, e.g. `webkit+JSC_useOMGJIT=0`
 * (WebKitWebDriver passes it on to the web process, whose JavaScriptCore
 * reads its JSC_* options there), so settings are compared in one run.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { createEngine, warmUp } from '../src/core/smt/solver.ts';
import { VerifierCaches, verify } from '../src/core/verify/index.ts';
import { nodeZ3 } from '../src/z3/node.ts';
import { readMemoryImport, withMemoryPages } from '../src/z3/wasm-memory.ts';
import { pagesOf } from '../src/z3/memory.ts';
import { ENGINES, type EngineName, launchEngine } from '../test/e2e/driver.ts';
import { ROOT, TYPES } from '../test/e2e/harness.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const handlers = arg('handlers', 'sys_set_runnable').split(',');
const reps = Number(arg('reps', '3'));
const engines = arg('engines', 'node,chromium,firefox,webkit').split(',');
/** Rounds: each round runs every engine once, in turn, so they share the machine's load alike. */
const rounds = Number(arg('rounds', '1'));
const count = process.argv.includes('--count');
/** The memory the browsers' Z3 runs in (MiB); an engine spelled `webkit+unshared` gets an unshared one (the wasm and glue rewritten to match). */
const memoryMiB = Number(arg('memory', '2048'));

interface Query {
  readonly tactics: string[];
  text: string;
  /** What the check took in the recording run (Node, Z3's own thread). */
  ms: number;
}

/** Records every query one verification of `spec` (against `implSource`, or the kernel) makes. */
async function record(handler: string, spec: string, implSource?: string): Promise<Query[]> {
  const z3 = await nodeZ3();
  const api = z3.Z3;
  const queries: Query[] = [];
  let pending: string[] = [];
  const recording: typeof api = {
    ...api,
    mk_tactic: (c, name) => {
      pending.push(name);
      return api.mk_tactic(c, name);
    },
    mk_solver: (c) => {
      queries.push({ tactics: [], text: '', ms: 0 });
      pending = [];
      return api.mk_solver(c);
    },
    mk_solver_from_tactic: (c, t) => {
      queries.push({ tactics: pending, text: '', ms: 0 });
      pending = [];
      return api.mk_solver_from_tactic(c, t);
    },
    solver_from_string: (c, s, text) => {
      queries[queries.length - 1].text = text;
      return api.solver_from_string(c, s, text);
    },
    solver_check: async (c, s) => {
      const t0 = performance.now();
      const r = await api.solver_check(c, s);
      queries[queries.length - 1].ms = performance.now() - t0;
      return r;
    },
  };
  const engine = createEngine({ Z3: recording });
  await warmUp(engine);
  queries.length = 0;
  const verdict = await verify({ handler, spec, implSource, timeoutMs: 300_000 }, { engine, caches: new VerifierCaches() });
  console.log(`recorded ${handler}${implSource ? ' (a variant)' : ''} (${verdict.status}): ${queries.length} queries, ${(queries.reduce((n, q) => n + q.text.length, 0) / 1e3).toFixed(0)} kB of SMT-LIB, checks ${queries.reduce((n, q) => n + q.ms, 0).toFixed(0)} ms in Node on Z3's thread`);
  return queries;
}

/**
 * Replays `queries` on an Emscripten module of Z3 (`em`), `reps` times;
 * returns per repetition [total assert ms, total check ms] and the results.
 * Self-contained: it is also sent, as text, to a browser worker.
 */
function replay(em: Record<string, (...a: number[]) => number> & { HEAPU8: Uint8Array; intArrayFromString(s: string): number[] }, queries: { tactics: string[]; text: string }[], reps: number) {
  const cstr = (s: string) => {
    const bytes = em.intArrayFromString(s);
    const p = em._malloc(bytes.length);
    em.HEAPU8.set(bytes, p);
    return p;
  };
  const out: { assertMs: number; checkMs: number; perQuery: number[]; results: number[] }[] = [];
  for (let r = 0; r < reps; r++) {
    let assertMs = 0;
    let checkMs = 0;
    const perQuery: number[] = [];
    const results: number[] = [];
    for (const q of queries) {
      const cfg = em._Z3_mk_config();
      const ctx = em._Z3_mk_context_rc(cfg);
      em._Z3_del_config(cfg);
      let solver: number;
      if (q.tactics.length === 0) solver = em._Z3_mk_solver(ctx);
      else {
        const names = q.tactics.map(cstr);
        let t = em._Z3_mk_tactic(ctx, names[0]);
        em._Z3_tactic_inc_ref(ctx, t);
        for (const n of names.slice(1)) {
          const u = em._Z3_mk_tactic(ctx, n);
          em._Z3_tactic_inc_ref(ctx, u);
          t = em._Z3_tactic_and_then(ctx, t, u);
          em._Z3_tactic_inc_ref(ctx, t);
        }
        solver = em._Z3_mk_solver_from_tactic(ctx, t);
        for (const n of names) em._free(n);
      }
      em._Z3_solver_inc_ref(ctx, solver);
      const text = cstr(q.text);
      const t0 = performance.now();
      em._Z3_solver_from_string(ctx, solver, text);
      const t1 = performance.now();
      results.push(em._Z3_solver_check(ctx, solver));
      const t2 = performance.now();
      em._free(text);
      em._Z3_solver_dec_ref(ctx, solver);
      em._Z3_del_context(ctx);
      assertMs += t1 - t0;
      checkMs += t2 - t1;
      perQuery.push(Math.round(t2 - t1));
    }
    out.push({ assertMs: Math.round(assertMs), checkMs: Math.round(checkMs), perQuery, results });
  }
  return out;
}

type ReplayResult = ReturnType<typeof replay>;

/** The glue as the app serves it, with a counter in each `invoke_*` trampoline when asked. */
async function glueText(counting: boolean): Promise<string> {
  const glue = await readFile(join(ROOT, 'public', 'z3-built.js'), 'utf8');
  if (!counting) return glue;
  return glue.replace(/function (invoke_\w+)\(([^)]*)\) \{/g, 'function $1($2) { globalThis.__invokes = (globalThis.__invokes || 0) + 1;');
}

async function inNode(queries: Query[]): Promise<{ runs: ReplayResult; invokes?: number }> {
  // A module of its own, the app's glue loaded from a file as the browser's worker evaluates it.
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { createRequire } = await import('node:module');
  const dir = mkdtempSync(join(tmpdir(), 'osvlab-z3-engines-'));
  const file = join(dir, 'z3-built.js');
  writeFileSync(file, await glueText(count));
  const initZ3 = createRequire(import.meta.url)(file) as (m: object) => Promise<Parameters<typeof replay>[0]>;
  const em = await initZ3({ locateFile: (f: string) => join(ROOT, 'public', f) });
  const g = globalThis as { __invokes?: number };
  g.__invokes = 0;
  const runs = replay(em, queries, reps);
  return { runs, invokes: count ? g.__invokes / reps : undefined };
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>z3 engines</title><body>
<script>
window.benchResult = null;
const w = new Worker('bench-worker.js' + location.search);
w.onmessage = (e) => { window.benchResult = e.data; };
w.onerror = (e) => { window.benchResult = { error: 'worker error: ' + e.message + ' ' + e.filename + ':' + e.lineno }; };
</script></body>`;

function workerScript(): string {
  // tsx keeps function names through a helper `__name` the worker lacks.
  return `
const __name = (f) => f;
const replay = ${replay.toString()};
(async () => {
  try {
    const t0 = performance.now();
    const unshared = self.location.search.includes('unshared');
    const dir = unshared ? 'unshared/' : '';
    importScripts(dir + 'z3-built.js');
    const queries = await (await fetch('queries.json')).json();
    const reps = ${reps};
    const pages = ${pagesOf(memoryMiB)};
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: !unshared });
    const em = await initZ3({ wasmMemory: memory, locateFile: (f) => dir + f, mainScriptUrlOrBlob: dir + 'z3-built.js' });
    const loadMs = performance.now() - t0;
    self.__invokes = 0;
    const runs = replay(em, queries, reps);
    postMessage({ loadMs: Math.round(loadMs), runs, memory: String(memory.buffer.constructor.name) + ' ' + memory.buffer.byteLength, invokes: self.__invokes ? self.__invokes / reps : undefined, ua: navigator.userAgent, sab: typeof SharedArrayBuffer });
  } catch (e) {
    postMessage({ error: String(e && e.stack || e) });
  }
})();`;
}

async function serveBench(queries: Query[]): Promise<{ url: string; close(): Promise<void> }> {
  const wasm = async (unshared: boolean) => {
    const shipped = new Uint8Array(await readFile(join(ROOT, 'public', 'z3-built.wasm')));
    if (memoryMiB === 2048 && !unshared) return Buffer.from(shipped);
    const out = withMemoryPages(shipped, pagesOf(memoryMiB));
    if (unshared) out[readMemoryImport(out).limitsStart] &= ~2;
    return Buffer.from(out);
  };
  const files: Record<string, () => Promise<string | Buffer>> = {
    '/bench.html': async () => PAGE,
    '/bench-worker.js': async () => workerScript(),
    '/z3-built.js': () => glueText(count),
    '/z3-built.wasm': () => wasm(false),
    // An unshared memory: the glue must not wait on it with Atomics.waitAsync (only shared memories allow that).
    '/unshared/z3-built.js': async () => (await glueText(count)).replace("if (typeof Atomics.waitAsync === 'function') {", "if (typeof Atomics.waitAsync === 'function' && !(HEAP32.buffer instanceof ArrayBuffer)) {"),
    '/unshared/z3-built.wasm': () => wasm(true),
    '/queries.json': async () => JSON.stringify(queries.map((q) => ({ tactics: q.tactics, text: q.text }))),
  };
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const make = files[path];
    if (!make) return void res.writeHead(404).end('not found');
    const body = await make();
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${addr.port}/bench.html`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** `webkit+JSC_name=value+...+unshared`: the engine, the environment its browser process gets (JavaScriptCore reads JSC_* options from it), and whether Z3's memory is unshared. */
function parseEngine(spec: string): { name: 'node' | EngineName; env: Record<string, string>; unshared: boolean } {
  const [name, ...pairs] = spec.split('+');
  if (name !== 'node' && !ENGINES.includes(name as EngineName)) throw new Error(`unknown engine ${name}`);
  const env = Object.fromEntries(pairs.filter((kv) => kv.includes('=')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  return { name: name as 'node' | EngineName, env, unshared: pairs.includes('unshared') };
}

async function inBrowser(name: EngineName, env: Record<string, string>, url: string): Promise<{ runs: ReplayResult; invokes?: number; loadMs: number; sab: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const engine = await launchEngine(name);
  process.env = saved;
  try {
    const tab = await engine.open();
    await tab.goto(url);
    await tab.waitFor('the replay', () => (window as unknown as { benchResult: unknown }).benchResult !== null, 1_800_000);
    const r = await tab.eval(() => (window as unknown as { benchResult: { error?: string } }).benchResult);
    if (r.error) throw new Error(`${name}: ${r.error}`);
    await tab.close();
    return r as never;
  } finally {
    await engine.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  // Each handler's oracle against the kernel's four buggy variants: what the variant matrix and grading run.
  const queries: Query[] = [];
  for (const handler of handlers) {
    const spec = oracleSpec(handler);
    if (!spec) throw new Error(`no oracle for ${handler}`);
    for (let v = 1; v <= 4; v++) {
      const task = JSON.parse(await readFile(join(ROOT, 'tasks/hv6/tasks', `${handler}-v${v}.json`), 'utf8')) as { impl_override: string };
      queries.push(...(await record(handler, spec, task.impl_override)));
    }
  }
  const site = await serveBench(queries);
  const all = new Map<string, ReplayResult>(engines.map((e) => [e, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const spec of engines) {
        const { name, env, unshared } = parseEngine(spec);
        const t0 = Date.now();
        const r = name === 'node' ? { ...(await inNode(queries)), loadMs: 0, sab: 'function' } : await inBrowser(name, env, site.url + (unshared ? '?unshared' : ''));
        all.get(spec)!.push(...r.runs);
        const note = `load ${r.loadMs} ms, SharedArrayBuffer ${r.sab}, memory ${(r as { memory?: string }).memory ?? 'node'}, results ${r.runs[0].results.join('')}`;
        console.log(`${spec} (round ${round + 1}): check ${r.runs.map((x) => x.checkMs).join(', ')} ms, assert ${r.runs.map((x) => x.assertMs).join(', ')} ms, ${note}${r.invokes !== undefined ? `, ${r.invokes} invoke_* calls per replay` : ''} [${((Date.now() - t0) / 1000).toFixed(0)} s]`);
        console.log(`  per query (ms): ${r.runs[0].perQuery.join(' ')}`);
      }
    }
  } finally {
    await site.close();
  }
  const rows = engines.map((spec) => ({ name: spec, assert: median(all.get(spec)!.map((x) => x.assertMs)), check: median(all.get(spec)!.map((x) => x.checkMs)) }));
  const base = rows.find((r) => r.name === 'chromium') ?? rows[0];
  console.log(`\n${queries.length} queries, median of ${rounds} round(s) x ${reps} replay(s), ratio to ${base.name}:`);
  for (const r of rows) console.log(`${r.name.padEnd(40)} assert ${String(r.assert).padStart(7)} ms  check ${String(r.check).padStart(7)} ms  ${(r.check / base.check).toFixed(2)}x`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
