/**
 * The Evaluate page against `osvlab run` on the same work (issue 38, item 4):
 * one run of the same tasks, answered by the fake provider with no delay
 * (test/fake-provider/server.ts), graded by the same number of verifier
 * workers (the CLI's --grade-concurrency set to the page's pool size).
 * Every answer is the oracle spec of its task's handler ending with a
 * comment naming the task, so no two are alike and the grader's memo skips
 * none: the time is grading's, not the provider's.
 *
 *   npx tsx perf/evaluate-vs-run.ts [--tasks N] [--rounds R]
 *
 * --tasks takes the first N tasks (default 49: every handler once, its
 * first variant). Each round runs the CLI (a child process, from its start
 * to its exit) and the page (a fresh Chromium profile on the built site,
 * from the click on Start to "Run done"), alternating which goes first.
 * Both load Z3 and start their workers within the time measured: the
 * Evaluate page starts its workers when a run starts, as the CLI does.
 * Prints each time, the medians, the ratio page / CLI and the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import type { Task } from '../src/core/tasks/task.ts';
import { startCli } from '../test/cli-process.ts';
import { ensureBuilt, launch, serve } from '../test/e2e/harness.ts';
import { fillRunForm } from '../test/e2e/evaluate-form.ts';
import { taskOf } from '../test/eval/run/cli.ts';
import { startFakeProvider } from '../test/fake-provider/server.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const all = await loadTasks();
const firstOfEach = all.filter((t, i) => all.findIndex((u) => u.handler === t.handler) === i);
const n = arg('tasks', firstOfEach.length);
const tasks: Task[] = n <= firstOfEach.length ? firstOfEach.slice(0, n) : all.slice(0, n);
const rounds = arg('rounds', 1);
const MODEL = 'fake-evaluate-vs-run';
const fmtLoad = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const fake = await startFakeProvider();
fake.respond((req) => {
  const t = taskOf(req.prompt, tasks);
  return { kind: 'text', text: `\`\`\`python\n${oracleSpec(t.handler)!.trimEnd()}\n\n# answer for ${t.id}\n\`\`\`\n`, usage: { input: 1000, output: 300 } };
});
const site = await serve(await ensureBuilt());
const browser = await launch();
const dir = mkdtempSync(join(tmpdir(), 'osvlab-evaluate-vs-run-'));

/** The page's pool size, read from a page before any run (About states it). */
async function pageWorkers(): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}#/about`);
  const text = (await page.locator('text=/up to \\d+ verifier workers/').first().textContent({ timeout: 120_000 })) ?? '';
  await context.close();
  const m = /up to (\d+) verifier workers/.exec(text);
  if (!m) throw new Error(`About does not say the pool size: ${text}`);
  return Number(m[1]);
}

async function cliRun(round: number, workers: number): Promise<number> {
  const out = join(dir, `cli-${round}`);
  const args = ['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', MODEL, '--tasks', tasks.map((t) => t.id).join(','), '--shots', '0', '--repair', '0', '--grade-concurrency', String(workers), '--out', out];
  // The compiled CLI (bin/compiled-cli.mjs) made current first: worktrees sharing node_modules recompile it in turn, which is no run's work.
  await startCli(['--help'], process.env).result;
  const started = Date.now();
  const r = await startCli(args, process.env).result;
  const ms = Date.now() - started;
  if (r.code !== 0) throw new Error(`osvlab run exited with ${r.code}\n${r.err}`);
  return ms;
}

async function pageRun(): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  try {
    await fillRunForm(page, { site: site.url, provider: fake.url, model: MODEL, ids: tasks.map((t) => t.id), shots: 0, repair: 0 });
    const started = Date.now();
    await page.click('[data-testid="start-run"]');
    await page.waitForFunction(() => /Run done/.test(document.querySelector('[data-testid="run-progress"]')?.textContent ?? ''), undefined, { timeout: 3_600_000, polling: 100 });
    return Date.now() - started;
  } finally {
    await context.close();
  }
}

try {
  const workers = await pageWorkers();
  process.stdout.write(`${tasks.length} tasks, answers from a fake provider with no delay; ${cpus().length} cores; ${workers} verifier workers in both; load ${fmtLoad()}\n`);
  const cli: number[] = [];
  const pg: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Who goes first alternates, so both meet the same load.
    if (r % 2 === 0) {
      cli.push(await cliRun(r, workers));
      pg.push(await pageRun());
    } else {
      pg.push(await pageRun());
      cli.push(await cliRun(r, workers));
    }
    process.stdout.write(`round ${r + 1}: CLI ${s(cli[r])} (process start to exit), page ${s(pg[r])} (Start to Run done); load ${fmtLoad()}\n`);
  }
  process.stdout.write(`median of ${rounds}: CLI ${s(median(cli))}, page ${s(median(pg))}; page / CLI ${(median(pg) / median(cli)).toFixed(2)}\n`);
} finally {
  await browser.close();
  await site.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
