/**
 * The agent loop's own cost in the page (docs/research.md, "The agent
 * mode"), beside perf/agent-overhead.ts's CLI figure: the built site in a
 * real browser runs an agent benchmark from the Evaluate page against the
 * scripted agent on the local fake provider (zero latency), with the page's
 * own Web Worker pool and IndexedDB. A one-task run first warms the pool
 * (Z3's start is not the loop's); the measured run then goes over the tasks
 * asked (default first:20) with a model name of its own, so no answer comes
 * from the response cache.
 *
 * The figures come from the run's stored attempts, read from IndexedDB in
 * the page, turn by turn: between two turns of one trajectory, the time from
 * the first turn's end to the second's (AgentTurn.at, taken once a turn's
 * tool calls are answered), less the second request's latency as the page's
 * client saw it and the second turn's tool calls as the loop saw them
 * (ToolResult.ms: the worker's verification with the pool's dispatch and the
 * structured clone). A wait for a free grading slot, when several tasks'
 * calls are due at once, falls in the overhead.
 * What is left is the loop's own time per turn in the page: reading the tool
 * calls, building the next request, the IndexedDB writes, the page's
 * bookkeeping. Tasks overlap while one waits for the verifier (a request at a
 * time, the pool's workers in parallel), so the run's wall time is not a sum;
 * the gaps are each one trajectory's own. The page cannot see a tool call's
 * time inside its worker, so the dispatch counts as verification here and
 * the ratio is a lower bound of the CLI's (perf/agent-overhead.ts).
 *
 * With `--shots DIR` it also screenshots the warm-up run's trajectory
 * timeline (a `run` call, a `verify` with its counterexample, the fix, the
 * answer) at 1400 and 390 px in each engine.
 *
 * With `--one-by-one` each task is a run of its own, so no trajectory waits
 * for a grading slot another task holds (such a wait falls in the overhead).
 *
 * With `--base DIR` (a site built from another tree) every step runs on that
 * site first and then on this tree's, in the same browser, so the two compare
 * under the same load; `--repeat N` does the warm-up run N times per site,
 * alternating, each in a fresh tab (a fresh worker pool), and `--warm-only`
 * skips the measured run (the warm-up's `run` call alone: the first call of a
 * fresh pool).
 *
 * With `--cpuprofile DIR` (Chromium) the page's main thread is profiled
 * through the measured run: DIR/<label>.cpuprofile, for Chrome's DevTools.
 *
 *   npx tsx perf/agent-overhead-page.ts [--engines chromium,firefox,webkit] [--tasks first:N] [--one-by-one] [--shots DIR] [--base DIR] [--repeat N] [--warm-only] [--cpuprofile DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptedAgent } from '../test/fake-provider/agent.ts';
import { startFakeProvider } from '../test/fake-provider/server.ts';
import { ENGINES, type Engine, type EngineName, type Tab, launchEngine, settled } from '../test/e2e/driver.ts';
import { type Site, ensureBuilt, serve } from '../test/e2e/harness.ts';
import { selectTasks } from '../src/core/eval/run/run-setup.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { type TimedTurn, gapsOf, median } from './agent-gaps.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

const engines = (option('engines') ?? 'chromium').split(',').map((e) => e.trim()) as EngineName[];
for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`unknown engine ${e}; the engines are ${ENGINES.join(', ')}`);
const selection = option('tasks') ?? 'first:20';
const shots = option('shots');
const oneByOne = process.argv.includes('--one-by-one');
const cpuprofile = option('cpuprofile');
if (cpuprofile) mkdirSync(cpuprofile, { recursive: true });
if (shots) mkdirSync(shots, { recursive: true });
const KEY = 'perf-key-agent-0123456789';
const LONG = 1_800_000;
const WARM_TASK = 'sys_set_runnable-v0';

const baseDir = option('base');
const repeat = Math.max(1, Number(option('repeat') ?? 1));
const warmOnly = process.argv.includes('--warm-only');
/** The sites measured, base first: each on an origin of its own (its own IndexedDB and caches). */
const sites: { readonly label: string; readonly site: Site }[] = [];
if (baseDir) sites.push({ label: 'base', site: await serve(baseDir) });
sites.push({ label: 'new', site: await serve(await ensureBuilt()) });
const fake = await startFakeProvider({ key: KEY });

/** The longest stall of the page's main thread (a 50 ms timer's longest wait) in the last `agentRun`. */
let lastStallMs = 0;

/** Starts an agent run of `tasks` as `model` from the Evaluate page and waits for its end; the run's id. */
async function agentRun(site: Site, tab: Tab, model: string, tasks: string): Promise<string> {
  await tab.goto(`${site.url}#/evaluate`);
  await tab.waitFor('the provider form', () => !!document.querySelector('[data-testid="provider"]'), LONG);
  await tab.select('[data-testid="provider"]', 'openai-compatible');
  await tab.fill('[data-testid="base-url"]', `${fake.url}/v1`);
  await tab.fill('[data-testid="model"]', model);
  await tab.fill('[data-testid="api-key"]', KEY);
  await tab.eval(() => document.querySelector('[data-testid="api-key"]')?.dispatchEvent(new Event('change', { bubbles: true })));
  await tab.fill('[data-testid="selection"]', tasks);
  // One request at a time, as the CLI figure (the pool still verifies several tasks' calls at once).
  await tab.fill('[data-testid="concurrency"]', '1');
  if (await tab.eval(() => (document.querySelector('[data-testid="strict"]') as HTMLInputElement).checked)) await tab.click('[data-testid="strict"]');
  await tab.select('[data-testid="run-mode"]', 'agent');
  await tab.waitFor('the agent options', () => !!document.querySelector('[data-testid="agent-options"]'), LONG);
  // The page may still show the last run's end: wait for this run's.
  const before = await tab.eval(() => document.querySelector('[data-testid="run-ended"] a')?.getAttribute('href') ?? '');
  // The page's main thread while the run goes: the longest wait between two ticks of a 50 ms timer (a stall).
  await tab.eval(() => {
    const w = window as unknown as { perfStall?: { last: number; max: number; timer: number } };
    if (w.perfStall) clearInterval(w.perfStall.timer);
    const hb = { last: performance.now(), max: 0, timer: 0 };
    hb.timer = setInterval(() => {
      const t = performance.now();
      hb.max = Math.max(hb.max, t - hb.last);
      hb.last = t;
    }, 50) as unknown as number;
    w.perfStall = hb;
  });
  await tab.click('[data-testid="start-run"]');
  await tab.waitFor('the run to end', (old: string) => {
    const a = document.querySelector('[data-testid="run-ended"] a');
    return !!a && a.getAttribute('href') !== old;
  }, LONG, before);
  const status = await tab.eval(() => document.documentElement.dataset.run);
  if (status !== 'done') throw new Error(`the run ended ${status}`);
  const href = await tab.eval(() => document.querySelector('[data-testid="run-ended"] a')!.getAttribute('href')!);
  lastStallMs = Math.round(await tab.eval(() => (window as unknown as { perfStall: { max: number } }).perfStall.max));
  return decodeURIComponent(href.replace('#/runs/', ''));
}

/** The run's trajectories as IndexedDB holds them, read in the page: each attempt's turns. */
function trajectoriesOf(runId: string): Promise<TimedTurn[][]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('osvlab');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction('attempts').objectStore('attempts').getAll();
      req.onerror = () => reject(req.error);
      req.onsuccess = () => {
        type Row = { runId: string; trajectory?: { turns: TimedTurn[] } };
        resolve((req.result as Row[]).filter((a) => a.runId === runId).map((a) => a.trajectory?.turns ?? []));
      };
    };
  });
}

/** The warm-up run's trajectory timeline at 1400 and 390 px, in `shots`. */
async function screenshots(site: Site, tab: Tab, name: string, runId: string): Promise<void> {
  await tab.goto(`${site.url}#/runs/${encodeURIComponent(runId)}`);
  await tab.waitFor('the trajectory', () => !!document.querySelector('[data-testid="trajectory"]'), LONG);
  await tab.click('[data-testid="trajectory"] > summary');
  // The run's tables above the timeline may still be laying out (WebKitGTK): scroll once they have.
  const toTimeline = async () => {
    await settled(tab);
    await tab.eval(() => document.querySelector('[data-testid="trajectories"]')?.scrollIntoView());
  };
  await toTimeline();
  await tab.screenshot(join(shots!, `trajectories-${name}-1400.png`));
  await tab.resize(390, 844);
  await toTimeline();
  const width = await tab.eval(() => window.innerWidth);
  if (width !== 390) console.error(`${name}: the narrowest window this engine opens is ${width} px wide, not 390`);
  await tab.screenshot(join(shots!, `trajectories-${name}-390.png`));
  const wide = await tab.eval(() => document.querySelector('[data-testid="trajectories"]')!.scrollWidth - window.innerWidth);
  if (wide > 0) console.error(`${name}: the timeline is ${wide} px wider than the 390 px screen`);
  await tab.resize(1400, 900);
}

/** The measured run (or runs, with --one-by-one) on `site`, on a page warmed by a run first; its figures. */
async function measured(site: Site, engine: Engine, name: string, label: string): Promise<Record<string, unknown>> {
  const tab = await engine.open(1400, 900);
  try {
    fake.reset();
    fake.respond(scriptedAgent({ run: true }));
    // Z3's start and the kernel's parse are not the loop's: a warm-up run on this page first.
    await agentRun(site, tab, `agent-prewarm-${name}-${label}`, WARM_TASK);
    fake.reset();
    fake.respond(scriptedAgent());
    // --one-by-one: a run per task, so no task waits for a grading slot another holds (that wait is not the loop's).
    const runs = oneByOne ? selectTasks(await loadTasks(), selection) : [selection];
    const trajectories: TimedTurn[][] = [];
    const profiling = cpuprofile && tab.cdp ? tab.cdp : undefined;
    if (profiling) {
      await profiling('Profiler.enable');
      await profiling('Profiler.setSamplingInterval', { interval: 200 });
      await profiling('Profiler.start');
    }
    const started = Date.now();
    for (const [i, sel] of runs.entries()) {
      trajectories.push(...(await tab.eval(trajectoriesOf, await agentRun(site, tab, `agent-perf-${name}-${label}-${i}`, sel))));
      if (runs.length > 1 && (i + 1) % 25 === 0) console.error(`${name} ${label}: ${i + 1} of ${runs.length} runs, ${Math.round((Date.now() - started) / 1000)} s`);
    }
    const wallMs = Date.now() - started;
    if (profiling) {
      const { profile } = (await profiling('Profiler.stop')) as { profile: unknown };
      writeFileSync(join(cpuprofile!, `${name}-${label}.cpuprofile`), JSON.stringify(profile));
    }
    const gaps = gapsOf(trajectories);
    const overhead = gaps.reduce((n, g) => n + g.overhead, 0);
    const tools = gaps.reduce((n, g) => n + g.tools, 0);
    // Every turn's tool calls, the first turn's (the draft's refutation, before any gap) included.
    const turns = trajectories.reduce((n, t) => n + t.length, 0);
    const allTools = trajectories.flat().reduce((n, t) => n + t.results.reduce((m, r) => m + r.ms, 0), 0);
    return {
      tasks: trajectories.length,
      turns,
      requests: fake.requests.length,
      gaps: gaps.length,
      wallMs,
      providerMs: Math.round(trajectories.flat().reduce((n, t) => n + t.response.latencyMs, 0)),
      toolMs: Math.round(tools),
      overheadMs: Math.round(overhead),
      overheadPerGapMs: +(overhead / gaps.length).toFixed(1),
      toolPerGapMs: +(tools / gaps.length).toFixed(1),
      overheadShareOfTools: +(overhead / tools).toFixed(3),
      medianOverheadPerGapMs: +median(gaps.map((g) => g.overhead)).toFixed(1),
      // The gap into a final answer has no call: the calls' median is over the gaps with calls.
      medianToolMsOfGapsWithCalls: +median(gaps.filter((g) => g.tools > 0).map((g) => g.tools)).toFixed(1),
      medianOverheadShareOfGapsWithCalls: +median(gaps.filter((g) => g.tools > 0).map((g) => g.overhead / g.tools)).toFixed(3),
      toolPerTurnMs: +(allTools / turns).toFixed(1),
      // The mean overhead of a gap against the mean tool time of a turn (the CLI's measure: per turn, all calls).
      overheadPerGapShareOfToolPerTurn: +(overhead / gaps.length / (allTools / turns)).toFixed(3),
      medianToolMsOfFirstTurns: +median(trajectories.filter((t) => t.length).map((t) => t[0].results.reduce((m, r) => m + r.ms, 0))).toFixed(1),
    };
  } finally {
    await tab.close();
  }
}

const out: Record<string, unknown> = {};
for (const name of engines) {
  const engine = await launchEngine(name);
  try {
    // The warm-up run on a fresh page (a fresh worker pool), `repeat` times per site, the sites alternating.
    const warm: Record<string, { runCallMs: number[]; stallMs: number[] }> = {};
    for (let rep = 0; rep < repeat; rep++) {
      for (const { label, site } of sites) {
        const tab = await engine.open(1400, 900);
        try {
          fake.reset();
          fake.respond(scriptedAgent({ run: true }));
          const runId = await agentRun(site, tab, `agent-warm-${name}-${rep}`, WARM_TASK);
          const w = (warm[label] ??= { runCallMs: [], stallMs: [] });
          // The warm-up run's first call is `run` (the kernel's C parsed where the call is answered): the page's longest stall in it.
          w.stallMs.push(lastStallMs);
          // The `run` calls' time (ToolResult.ms).
          w.runCallMs.push(...(await tab.eval(trajectoriesOf, runId)).flat().flatMap((t) => t.results.filter((x) => x.name === 'run').map((x) => Math.round(x.ms))));
          console.error(`${name} ${label} warm-up ${rep}: run call ${w.runCallMs[w.runCallMs.length - 1]} ms, longest stall ${lastStallMs} ms`);
          if (shots && rep === 0 && label === 'new') await screenshots(site, tab, name, runId);
        } finally {
          await tab.close();
        }
      }
    }
    const figures: Record<string, unknown> = {};
    for (const { label, site } of sites) {
      const f: Record<string, unknown> = { warmRunCallMs: warm[label].runCallMs, warmStallMs: warm[label].stallMs };
      if (!warmOnly) Object.assign(f, await measured(site, engine, name, label));
      figures[label] = f;
      console.error(`${name} ${label}: ${JSON.stringify(f)}`);
    }
    // Each engine's figures as soon as they are known (a later engine may take long).
    out[name] = baseDir ? figures : figures.new;
  } finally {
    await engine.close();
  }
}
await fake.close();
for (const { site } of sites) await site.close();
console.log(JSON.stringify({ selection, figures: out }, null, 2));
