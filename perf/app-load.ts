/**
 * App load benchmark: builds the site (or reuses a build of the same
 * sources), serves it from a static host that compresses with brotli, as most
 * do (perf/compressing-host.ts), and measures in a browser (Chromium, Firefox
 * ESR or WebKitGTK, through test/e2e/driver.ts) three visits of one profile:
 *
 *   1st: a cold profile (empty HTTP cache, storage, no service worker);
 *   2nd and 3rd: the same profile opening the site again, once the first
 *   visit's service worker is in control (its offline copy is complete).
 *
 * Each visit opens a share link of the handler's oracle spec, which the
 * playground verifies as it opens (no click, and no editor needed: the
 * page shows the spec as plain text until Monaco is here). For each visit:
 * the time to the first verdict (from the navigation's start until this
 * script sees the verdict, which it polls every 0.1 s; the targets are judged
 * on it), the same as the page timed it (its `osvlab:verdict` mark), how
 * long the verdict came after Z3 was ready, the time to an interactive
 * editor (navigation start -> Monaco editable, which the playground loads
 * once the verdict is in), and what the verifier worker measured of loading Z3 (the About
 * page's steps: wasm downloaded by, compiled by, instantiated in, started in;
 * whether the wasm came from a cache and whether Z3's threads were handed the
 * compiled module). The first visit also gets a warm re-verify (same spec
 * again in the same tab).
 *
 * Bytes: what the first visit requested before its first verdict, per file
 * (bodies compressed as sent): the responses to the requests that reached the
 * host before the page's `osvlab:verdict` mark (src/app/state/playground.svelte.ts;
 * the same clock, this machine's), then what was requested after it until the
 * service worker was in control (the editors' Monaco, which the playground
 * requests on the verdict, and the offline copy). Once per engine also from a
 * gzip host and from `vite preview` (uncompressed). A build without the mark
 * (an older --base) is counted as before: bytes sent by when this script saw
 * the verdict, which its 0.1 s poll makes late.
 *
 * Phases of the first verdict, per visit (median of --runs; cold = visit 1,
 * repeat = visits 2 and 3), from the page's `osvlab:` performance marks
 * (src/app/main.ts, src/app/state/playground.svelte.ts) and the verifier
 * worker's own timings, which the page marks once the verdict is in
 * (src/worker/phase-marks.ts; ms after navigation start unless said):
 * the app's script (its entry file's response end, with the bytes received
 * for it, 0 from a cache; then when the script ran), the worker created and
 * started (its script loaded; "took" from its creation), the kernel parsed
 * into its symbolic form ("took"), when the page asked the worker for the
 * verdict without Z3, the spec's parse and evaluation, the
 * kernel's run and the obligations, the proof lookup (the solver-free
 * verification's time no phase was charged: matching committed proofs, and
 * the worker's queue), the verdict mark and its paint (the frame after it).
 *
 * --profile mobile (Chromium only) emulates a slow phone, as Lighthouse's
 * mobile profile: 1.6 Mbps down, 750 kbps up, 150 ms round trip, through the
 * DevTools protocol (Network.emulateNetworkConditions on the page's target),
 * and the CPU slowed 4x on every thread of the renderers, workers included
 * (perf/cpu-slowdown.ts: Chromium's Emulation.setCPUThrottlingRate slows the
 * page's main thread only, and refuses a worker's target). Before the runs it
 * prints how much slower a busy loop ran under it, in the page and in a
 * worker. The default, --profile desktop, emulates nothing.
 *
 * Targets (docs/app.md, "Tests and benchmark"): first verdict <= 2.0 s on a
 * first visit and <= 1.0 s on a repeat visit, warm re-verify < 1 s, at most
 * 6 MB before the first verdict of a first visit from a brotli host.
 *
 * --spec-file FILE shares FILE's spec instead of the handler's oracle: e.g. a
 * wrong spec that a concrete state refutes, whose first counterexample comes
 * before Z3 (docs/design.md §3, "Refuted by running"); each visit prints the
 * verdict's status.
 *
 * Run: npx tsx perf/app-load.ts [--browser|--engine chromium|firefox|webkit|all] [--handler NAME] [--spec-file FILE] [--runs N] [--profile desktop|mobile] [--no-compressed] [--base DIR]
 * With --browser all the engines take turns, run by run, so that they share
 * the machine's load alike. --base DIR (a built site, e.g. of another
 * worktree) is measured the same way, each run right before this build's,
 * and the summary gives both.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Z3LoadSteps } from '../src/core/service/contract.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { ENGINES, type Engine, type EngineName, type Tab, launchEngine } from '../test/e2e/driver.ts';
import { ensureBuilt, serve } from '../test/e2e/harness.ts';
import { shareFragment } from '../test/e2e/share-link.ts';
import { serveCompressed, type CompressingHost, type Served } from './compressing-host.ts';
import { type CpuSlowdown, slowRenderers } from './cpu-slowdown.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const handler = arg('handler', 'sys_set_runnable');
const specFile = arg('spec-file', '');
const runs = Number(arg('runs', '3'));
const browserArg = arg('browser', arg('engine', 'chromium'));
const browsers: EngineName[] = browserArg === 'all' ? [...ENGINES] : [browserArg as EngineName];
if (!browsers.every((b) => ENGINES.includes(b))) throw new Error(`--browser must be one of ${ENGINES.join(', ')} or all`);
const profile = arg('profile', 'desktop');
if (profile !== 'desktop' && profile !== 'mobile') {
  console.error(`--profile must be desktop or mobile (not ${profile})`);
  process.exit(2);
}
if (profile === 'mobile' && browsers.some((b) => b !== 'chromium')) {
  console.error(`--profile mobile emulates a phone through Chromium's DevTools protocol: use it with --browser chromium (not ${browserArg})`);
  process.exit(2);
}
const compressedToo = !process.argv.includes('--no-compressed');
const baseDir = arg('base', '');
const VISITS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Visit {
  editor: number;
  first: number;
  /** When the worker began loading Z3, in ms after navigation start. */
  z3Began?: number;
  /** When Z3 was ready (loaded and warmed up), in ms after navigation start. */
  z3Ready?: number;
  status: string;
  steps?: Z3LoadSteps;
  /** The phases of the first verdict (`phasesOf`). */
  phases?: Phases;
  /** `Date.now()` of the page's `osvlab:verdict` mark (performance.timeOrigin + its startTime). */
  markedAt?: number;
  /** The same mark in ms after navigation start: the first verdict as the page timed it, without this script's poll (0.1 s) and calls. */
  inPage?: number;
}

interface LoadResult {
  visits: Visit[];
  warm: number;
  /** Bytes of the responses to the first visit's requests that reached the host before its first verdict (bodies as sent). */
  bytes: number;
  /** The same, per file. */
  chunks: Map<string, number>;
  /** Bytes of the responses to the requests that came after it until the service worker was in control (its offline copy). */
  after: number;
  afterChunks: Map<string, number>;
  /** The first request after the verdict: ms after it, and its path. */
  next?: { ms: number; path: string };
  /** How the verdict's time was known: the page's `osvlab:verdict` mark, or (a build without it) when this script saw the verdict. */
  cut: 'mark' | 'polled';
}

/** Lighthouse's mobile profile as issue 54 states it: its network (bytes per second, round trip in ms) and CPU slowdown. */
const MOBILE = { downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8, latency: 150, cpu: 4 } as const;

/**
 * Applies the profile to `tab`: the network to its page's target (kept across
 * its navigations), the CPU to every renderer of this script's browsers until
 * the returned slowdown is stopped.
 */
async function emulate(tab: Tab): Promise<CpuSlowdown | undefined> {
  if (profile !== 'mobile') return undefined;
  if (!tab.cdp) throw new Error('--profile mobile needs Chromium');
  await tab.cdp('Network.enable');
  await tab.cdp('Network.emulateNetworkConditions', { offline: false, latency: MOBILE.latency, downloadThroughput: MOBILE.downloadThroughput, uploadThroughput: MOBILE.uploadThroughput });
  return slowRenderers(process.pid, MOBILE.cpu);
}

/** A busy loop's time in the page and in a dedicated worker of `tab` (ms), to show what the CPU slowdown does. */
async function busyLoop(tab: Tab): Promise<{ page: number; worker: number }> {
  return tab.eval(
    () =>
      new Promise<{ page: number; worker: number }>((resolve) => {
        const loop = 'const t=performance.now();let x=0;for(let i=0;i<1e8;i++)x+=i%7;postMessage(performance.now()-t)';
        const w = new Worker(URL.createObjectURL(new Blob([loop], { type: 'text/javascript' })));
        w.onmessage = (e) => {
          w.terminate();
          const t = performance.now();
          let x = 0;
          for (let i = 0; i < 1e8; i++) x += i % 7;
          resolve({ page: Math.round(performance.now() - t + (x < 0 ? 1 : 0)), worker: Math.round(e.data as number) });
        };
      }),
  );
}

/** Prints how much slower a busy loop ran with the mobile profile's CPU slowdown than without, in the page and in a worker. */
async function calibrate(engine: Engine): Promise<void> {
  const tab = await engine.open(1280, 800);
  try {
    await tab.goto('data:text/html,<title>busy loop</title>');
    const plain = await busyLoop(tab);
    const slow = slowRenderers(process.pid, MOBILE.cpu);
    const slowed = await busyLoop(tab).finally(() => slow.stop());
    console.log(
      `CPU slowdown ${MOBILE.cpu}x (renderers ran ${(slow.runShare() * 100).toFixed(0)}% of the time): busy loop in the page ${plain.page} -> ${slowed.page} ms (${(slowed.page / plain.page).toFixed(1)}x), in a worker ${plain.worker} -> ${slowed.worker} ms (${(slowed.worker / plain.worker).toFixed(1)}x)`,
    );
  } finally {
    await tab.close();
  }
}

/** The phases of one visit's first verdict, in ms (see the header); a phase the build does not mark is absent. */
type Phases = Partial<Record<PhaseName, number>>;
const PHASE_ROWS = [
  ['scriptKB', 'app script: kB received'],
  ['scriptStart', 'app script: requested at'],
  ['scriptAt', 'app script: received by'],
  ['scriptRan', 'app script: ran at'],
  ['workerCreated', 'worker: created at'],
  ['workerStart', 'worker: started at'],
  ['workerTook', 'worker: start took'],
  ['pageKB', 'page: kB by the verdict (not worker)'],
  ['kernelAt', 'kernel: parsed by'],
  ['kernel', 'kernel: parse + symbolic form'],
  ['askedAt', 'verification without Z3: asked at'],
  ['specEval', 'spec: parse + evaluation'],
  ['kernelRun', 'kernel: run of the handler'],
  ['obligations', 'obligations (terms, replay)'],
  ['proofLookup', 'proof lookup (and queue)'],
  ['verifyWorker', 'verification in the worker'],
  ['verdict', 'verdict mark'],
  ['paint', 'verdict painted'],
] as const;
type PhaseName = (typeof PHASE_ROWS)[number][0];

/** Reads the phases of the visit on screen from its marks and resource timings. */
async function phasesOf(tab: Tab): Promise<Phases> {
  // The paint mark comes a frame after the verdict's.
  await tab.waitFor('the paint mark', () => performance.getEntriesByName('osvlab:paint', 'mark').length > 0 || !performance.getEntriesByName('osvlab:verdict', 'mark').length, 10_000).catch(() => undefined);
  return tab.eval(() => {
    const out: Record<string, number> = {};
    const at = (name: string) => performance.getEntriesByName(`osvlab:${name}`, 'mark')[0] as PerformanceMark | undefined;
    const put = (key: string, v: number | undefined) => {
      if (v !== undefined) out[key] = Math.round(v);
    };
    const took = (name: string) => (at(name)?.detail as { ms?: number } | null | undefined)?.ms;
    // The app's entry script: the module script the page's HTML loads.
    const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
    const res = performance.getEntriesByType('resource').find((r) => r.name === entry) as PerformanceResourceTiming | undefined;
    if (res) {
      out.scriptKB = Math.round(res.transferSize / 100) / 10;
      put('scriptStart', res.startTime);
      put('scriptAt', res.responseEnd);
    }
    put('scriptRan', at('app-script')?.startTime);
    put('workerCreated', at('worker-created')?.startTime);
    put('workerStart', at('worker-start')?.startTime);
    put('workerTook', took('worker-start'));
    const verdictAt = at('verdict')?.startTime;
    if (verdictAt !== undefined) {
      const page = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.responseEnd <= verdictAt);
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      out.pageKB = Math.round((page.reduce((n, r) => n + r.transferSize, 0) + (nav?.transferSize ?? 0)) / 1000);
    }
    put('kernelAt', at('kernel')?.startTime);
    put('askedAt', at('verify-asked')?.startTime);
    put('kernel', took('kernel'));
    put('specEval', took('spec-eval'));
    put('kernelRun', took('kernel-run'));
    put('obligations', took('obligations'));
    put('proofLookup', took('proof-lookup'));
    put('verifyWorker', took('verify-worker'));
    put('verdict', at('verdict')?.startTime);
    put('paint', at('paint')?.startTime);
    return out;
  });
}

/** The phase table of visits `of` (cold, repeat), medians over their runs. */
function phaseTable(columns: [string, Visit[]][]): string {
  const head = `  ${'phase (ms after navigation start, or ms taken)'.padEnd(46)}${columns.map(([c]) => c.padStart(10)).join('')}`;
  const rows = PHASE_ROWS.map(([key, label]) => {
    const cells = columns.map(([, vs]) => {
      const got = vs.map((v) => v.phases?.[key]).filter((n): n is number => n !== undefined);
      return (got.length ? String(median(got)) : '-').padStart(10);
    });
    return `  ${label.padEnd(46)}${cells.join('')}`;
  });
  return [head, ...rows].join('\n');
}

const EDITOR_READY = () => !!document.querySelector('[data-testid="spec-editor"][data-ready="true"] .monaco-editor textarea, [data-testid="spec-editor"][data-ready="true"] .monaco-editor .native-edit-context');

/**
 * One visit to `url` (a share link) in `tab`: the verdict it opens with, then
 * the editor. `atVerdict` is called as soon as the verdict is seen, before
 * anything that comes after it (the editor, the offline copy) is waited for.
 */
async function visit(tab: Tab, url: string, atVerdict: () => void = () => undefined): Promise<Visit> {
  const start = Date.now();
  await tab.goto(url);
  await tab.waitFor('a verdict', () => !!document.querySelector('[data-testid="verdict"]'), 300_000);
  const first = Date.now() - start;
  atVerdict();
  // When the page had the verdict, on this machine's clock (the mark playground.svelte.ts sets; absent in older builds).
  const markedAt = await tab.eval(() => {
    const m = performance.getEntriesByName('osvlab:verdict', 'mark')[0];
    return m ? performance.timeOrigin + m.startTime : null;
  });
  const status = (await tab.eval(() => document.querySelector('[data-testid="verdict"]')?.getAttribute('data-status'))) ?? '?';
  const phases = await phasesOf(tab);
  await tab.waitFor('the editor', EDITOR_READY, 120_000);
  const editor = Date.now() - start;
  // The worker's own measure of loading Z3 (absent in builds before it was shown).
  await tab.waitFor('Z3 loaded', () => document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-kind') === 'ready', 120_000);
  const steps = await tab.eval(() => document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-steps') ?? '');
  const navigated = await tab.eval(() => performance.timeOrigin);
  const s = steps ? (JSON.parse(steps) as Z3LoadSteps) : undefined;
  const ready = s && Math.round(s.began - navigated + s.compile + s.instantiate + s.start + (s.warmUp ?? 0));
  return { editor, first, status, phases, ...(markedAt ? { markedAt, inPage: Math.round(markedAt - navigated) } : {}), ...(s ? { steps: s, z3Began: Math.round(s.began - navigated), z3Ready: ready } : {}) };
}

/** Bytes per file of the responses in `log` (a file the brotli host sent otherwise says how). */
function perFile(log: readonly Served[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of log) {
    const key = r.encoding === 'br' || r.bytes === 0 ? r.path : `${r.path} (${r.encoding})`;
    m.set(key, (m.get(key) ?? 0) + r.bytes);
  }
  return m;
}

interface Host {
  readonly url: string;
  written(): number;
  served(): readonly Served[];
}

/** One profile: a cold first visit (with its bytes), a warm re-verify, then `visits - 1` more visits. */
async function load(engine: Engine, host: Host, fragment: string, visits: number): Promise<LoadResult> {
  const tab = await engine.open(1280, 800);
  let slow: CpuSlowdown | undefined;
  try {
    slow = await emulate(tab);
    const before = host.written();
    const logStart = host.served().length;
    let polled = 0;
    let seenAt = 0;
    const v1 = await visit(tab, `${host.url}${fragment}`, () => {
      polled = host.written() - before;
      seenAt = Date.now();
    });
    // What the first route requested before its verdict: the requests that reached the host before the page's mark
    // (a poll sees the verdict up to ~0.1 s late, by when the editors' Monaco, requested on the verdict, is partly counted).
    // The visit waited for the editor and Z3, so every one of them has been answered by now.
    const cutAt = v1.markedAt ?? seenAt;
    const firstVisit = host.served().slice(logStart);
    const early = firstVisit.filter((r) => r.began < cutAt);
    const chunks = perFile(early);
    const bytes = v1.markedAt === undefined ? polled : early.reduce((n, r) => n + r.bytes, 0);
    const later = firstVisit.filter((r) => r.began >= cutAt).sort((a, b) => a.began - b.began);
    const next = later.length ? { ms: Math.round(later[0].began - cutAt), path: later[0].path } : undefined;

    // Warm: the same spec again in the same tab; wait for the finished-run counter to move.
    const runsBefore = Number(await tab.eval(() => document.querySelector('[data-testid="results"]')?.getAttribute('data-runs')));
    const w0 = Date.now();
    await tab.click('[data-testid="verify"]');
    await tab.waitFor('the re-verify', (n: number) => document.querySelector('[data-testid="results"]')?.getAttribute('data-runs') === String(n), 300_000, runsBefore + 1);
    const warm = Date.now() - w0;

    let after = 0;
    let afterChunks = new Map<string, number>();
    const out: Visit[] = [v1];
    if (visits > 1) {
      // A later visit comes once the first one's service worker took control (its offline copy is then complete).
      await tab.waitFor('the service worker in control', () => !!navigator.serviceWorker?.controller, 120_000);
      const offline = host.served().slice(logStart).filter((r) => r.began >= cutAt);
      after = v1.markedAt === undefined ? host.written() - before - polled : offline.reduce((n, r) => n + r.bytes, 0);
      afterChunks = perFile(offline);
      for (let n = 2; n <= visits; n++) out.push(await visit(tab, `${host.url}?visit=${n}${fragment}`));
    }
    return { visits: out, warm, bytes, chunks, after, afterChunks, ...(next ? { next } : {}), cut: v1.markedAt === undefined ? 'polled' : 'mark' };
  } finally {
    await slow?.stop();
    await tab.close();
  }
}

/** `vite preview`'s site with a byte counter and a log of its responses (bodies by their Content-Length), as a Host. */
async function preview(outDir: string): Promise<Host & { close(): Promise<void> }> {
  const site = await serve(outDir);
  let bytes = 0;
  const log: Served[] = [];
  const sockets = new Set<Socket>();
  site.server.httpServer.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      bytes += s.bytesWritten;
      sockets.delete(s);
    });
  });
  site.server.httpServer.on('request', (req, res) => {
    const began = Date.now();
    const path = (req.url ?? '/').split('?')[0];
    res.on('finish', () => log.push({ path, status: res.statusCode, bytes: Number(res.getHeader('content-length') ?? 0), encoding: 'identity', began, at: Date.now() }));
  });
  return { url: site.url, written: () => bytes + [...sockets].reduce((n, s) => n + s.bytesWritten, 0), served: () => log, close: () => site.close() };
}

const mb = (n: number) => (n / 1e6).toFixed(2);
const kb = (n: number) => (n / 1e3).toFixed(1).padStart(8);

function stepsText(s: Z3LoadSteps | undefined): string {
  if (!s) return 'steps not reported';
  return `download ${s.download ?? '?'} ms${s.cached ? ' (cached)' : ''}, compiled by ${s.compile} ms, instantiate ${s.instantiate} ms, start ${s.start} ms, warm-up ${s.warmUp !== undefined ? `${s.warmUp} ms` : s.threadsGetModule ? '?' : 'none (one thread)'}, threads given the module: ${s.threadsGetModule ? 'yes' : 'no (one thread)'}${s.threadsAhead === undefined ? '' : `, thread workers made ahead taken ${s.threadsAhead}`}`;
}

function cutText(x: LoadResult): string {
  const how = x.cut === 'mark' ? "requests before the page's verdict mark" : 'bytes sent by when this script saw the verdict (no mark in this build)';
  return x.next ? `${how}; the next request ${x.next.ms} ms after it: ${x.next.path}` : how;
}

function visitLine(label: string, v: Visit): string {
  return `${label}: first verdict ${v.first} ms (${v.status}${v.inPage === undefined ? '' : `; ${v.inPage} ms in the page`}), ${v.z3Ready === undefined ? '?' : v.first - v.z3Ready} ms after Z3 was ready, editor ${v.editor} ms; Z3 load began at ${v.z3Began ?? '?'} ms: ${stepsText(v.steps)}`;
}

/** Files sorted by bytes, largest first, with their sum. */
function chunkTable(chunks: Map<string, number>): string {
  const rows = [...chunks].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, b]) => n + b, 0);
  return [...rows.map(([p, n]) => `  ${kb(n)} kB  ${p}`), `  ${kb(total)} kB  (${rows.length} files)`].join('\n');
}

async function main() {
  const spec = specFile ? readFileSync(specFile, 'utf8') : oracleSpec(handler);
  if (!spec) throw new Error(`no oracle spec for ${handler}`);
  const fragment = shareFragment({ handler, spec, label: 'perf' });
  const t0 = Date.now();
  const outDir = await ensureBuilt();
  console.log(`build ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${outDir})`);
  const sites: [string, string][] = baseDir ? [['base', baseDir], ['new', outDir]] : [['new', outDir]];

  const engines = new Map<EngineName, Engine>();
  const results = new Map<string, LoadResult[]>();
  const hosts: (CompressingHost & { label: string })[] = [];
  const key = (site: string, b: EngineName) => `${site} ${b}`;
  try {
    for (const b of browsers) engines.set(b, await launchEngine(b));
    if (profile === 'mobile') await calibrate(engines.get('chromium')!);
    for (const [label, dir] of sites) {
      const host = await serveCompressed(dir, 'br');
      hosts.push(Object.assign(host, { label }));
      // A first load fills the host's compression memo, so the measured ones are not slowed by compressing.
      await load(engines.get(browsers[0])!, host, fragment, 1);
    }
    // Sites and engines take turns run by run, so the machine's load falls on all alike.
    for (let r = 0; r < runs; r++) {
      for (const b of browsers) {
        for (const host of hosts) {
          const x = await load(engines.get(b)!, host, fragment, VISITS);
          const k = key(host.label, b);
          results.set(k, [...(results.get(k) ?? []), x]);
          console.log(`\n${k} run ${r + 1}: ${mb(x.bytes)} MB before the first verdict (${cutText(x)}), ${mb(x.after)} MB after it (offline copy), warm re-verify ${x.warm} ms`);
          x.visits.forEach((v, i) => console.log(`  ${visitLine(`visit ${i + 1}`, v)}`));
        }
      }
    }
    // The same first visit from a gzip host and from vite preview (uncompressed), once per engine.
    if (compressedToo) {
      for (const [label, dir] of sites) {
        const gz = await serveCompressed(dir, 'gzip');
        const pv = await preview(dir);
        try {
          await load(engines.get(browsers[0])!, gz, fragment, 1);
          for (const b of browsers) {
            const g = await load(engines.get(b)!, gz, fragment, 1);
            const p = await load(engines.get(b)!, pv, fragment, 1);
            console.log(`\n${label} ${b}: first visit before the first verdict: gzip host ${mb(g.bytes)} MB, vite preview (uncompressed) ${mb(p.bytes)} MB`);
          }
        } finally {
          await gz.close();
          await pv.close();
        }
      }
    }
  } finally {
    for (const e of engines.values()) await e.close().catch(() => undefined);
    for (const h of hosts) await h.close();
  }

  const mark = (ok: boolean) => (ok ? 'ok' : 'over target');
  for (const b of browsers) {
    for (const [label] of sites) {
      const xs = results.get(key(label, b))!;
      console.log(`\n${label} ${b}: handler ${handler}, brotli host, profile ${profile}, medians of ${runs} profiles`);
      const last = xs[xs.length - 1];
      console.log(`bytes per file before the first verdict of a first visit (run ${xs.length}):\n${chunkTable(last.chunks)}`);
      console.log(`bytes per file after it, until the service worker is in control (offline copy, run ${xs.length}):\n${chunkTable(last.afterChunks)}`);
      const bytes = median(xs.map((x) => x.bytes));
      console.log(`before the first verdict       ${mb(bytes).padStart(6)} MB   target <= 6 MB   ${mark(bytes <= 6e6)}`);
      console.log(`after it (offline copy)        ${mb(median(xs.map((x) => x.after))).padStart(6)} MB`);
      console.log(`warm re-verify                 ${String(median(xs.map((x) => x.warm))).padStart(6)} ms   target < 1000 ms   ${mark(median(xs.map((x) => x.warm)) < 1000)}`);
      for (let i = 0; i < VISITS; i++) {
        const vs = xs.map((x) => x.visits[i]);
        const first = median(vs.map((v) => v.first));
        const target = i === 0 ? 2000 : 1000;
        const step = (f: (s: Z3LoadSteps) => number | undefined) => {
          const got = vs.map((v) => (v.steps ? f(v.steps) : undefined)).filter((n): n is number => n !== undefined);
          return got.length ? `${median(got)}` : '?';
        };
        const began = vs.map((v) => v.z3Began).filter((n): n is number => n !== undefined);
        const afterReady = vs.filter((v) => v.z3Ready !== undefined).map((v) => v.first - v.z3Ready!);
        const inPage = vs.map((v) => v.inPage).filter((n): n is number => n !== undefined);
        console.log(
          `visit ${i + 1}: first verdict ${first} ms (target <= ${target} ms: ${mark(first <= target)}; in the page ${inPage.length ? `${median(inPage)} ms` : '?'}), after Z3 was ready ${afterReady.length ? median(afterReady) : '?'} ms, editor ${median(vs.map((v) => v.editor))} ms; ` +
            `Z3 began at ${began.length ? median(began) : '?'} ms, download ${step((s) => s.download)} ms, compiled by ${step((s) => s.compile)} ms, instantiate ${step((s) => s.instantiate)} ms, start ${step((s) => s.start)} ms, ${vs.some((v) => v.steps?.warmUp !== undefined) ? `warm-up ${step((s) => s.warmUp)} ms` : 'no warm-up (one thread)'}; ` +
            `wasm from a cache ${vs.filter((v) => v.steps?.cached).length}/${vs.length}, threads given the module ${vs.filter((v) => v.steps?.threadsGetModule).length}/${vs.length}`,
        );
      }
      console.log(`phases of the first verdict (profile ${profile}; medians of ${runs} profiles; repeat = visits 2 and 3):`);
      console.log(phaseTable([['cold', xs.map((x) => x.visits[0])], ['repeat', xs.flatMap((x) => x.visits.slice(1))]]));
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
