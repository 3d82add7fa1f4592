/**
 * A published site of one 245-answer run (docs/publish.md): its size, the
 * bytes of a reader's first visit, and the time to re-verify the row in the
 * Results page and with `osvlab publish --check`, alternating page and CLI
 * in one process so both see the same machine. The run is made as
 * perf/regrade.ts makes its own: one answer per task, the oracle spec of
 * the task's handler ending with a comment naming its task (no two alike,
 * so the grader's memo skips none), graded once with `osvlab grade --out`.
 *
 *   npx tsx perf/publish-reverify.ts [--rounds N] [--tasks N]
 *
 * Each round: the CLI (a child process, worker threads one per core) and the
 * page (a fresh Chromium profile on a plain static host, Web Workers one per
 * core, at most four; Z3 loaded before the click, as a reader who opened the
 * page a moment ago). Prints each time as the check reports it (grading
 * only) and as wall time, the medians, the ratio page / CLI and the load.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { startCli } from '../test/cli-process.ts';
import { ARTIFACTS, ensureBuilt, launch, serveStatic } from '../test/e2e/harness.ts';
import { serveCompressed } from './compressing-host.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const rounds = arg('rounds', 3);
const tasks = (await loadTasks()).slice(0, arg('tasks', Infinity));
const dir = join(ARTIFACTS, 'perf-publish');
const fmtLoad = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function osvlab(args: readonly string[]): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const started = Date.now();
  const r = await startCli(args, process.env).result;
  return { ...r, ms: Date.now() - started };
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const responses = join(dir, 'responses.jsonl');
writeFileSync(responses, tasks.map((t) => JSON.stringify({ task_id: t.id, response: `\`\`\`python\n${oracleSpec(t.handler)!.trimEnd()}\n\n# answer for ${t.id}\n\`\`\`\n` })).join('\n') + '\n');
process.stdout.write(`${tasks.length} answers, one per task; ${cpus().length} cores; load ${fmtLoad()}\n`);
const g = await osvlab(['grade', '--responses', responses, '--out', join(dir, 'run')]);
if (g.code !== 0) throw new Error(`osvlab grade exited with ${g.code}\n${g.err}`);
process.stdout.write(`made the run with osvlab grade in ${s(g.ms)}\n`);

const site = join(dir, 'site');
const p = await osvlab(['publish', join(dir, 'run'), '--out', site, '--title', 'perf', '--app', await ensureBuilt(), '--json']);
if (p.code !== 0) throw new Error(`osvlab publish exited with ${p.code}\n${p.err}`);
const published = JSON.parse(p.out) as { bytes: number; publishedBytes: number; runs: { bytes: number }[] };
process.stdout.write(`site: ${mb(published.bytes)} on disk (${execFileSync('du', ['-sh', site], { encoding: 'utf8' }).split('\t')[0]}), of which the run file ${mb(published.runs[0].bytes)} and published/ ${mb(published.publishedBytes)}\n`);

const browser = await launch();
try {
  // A reader's first visit, to the table with Z3 loaded, from a host that compresses as most do.
  for (const enc of ['gzip', 'br'] as const) {
    const host = await serveCompressed(site, enc);
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const before = host.written();
      await page.goto(host.url);
      await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]', { timeout: 120_000 });
      await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]', { timeout: 120_000 });
      process.stdout.write(`first visit from a ${enc} host, to the table with Z3 loaded: ${mb(host.written() - before)}\n`);
      await context.close();
    } finally {
      await host.close();
    }
  }

  const host = await serveStatic(site);
  const times = { cli: [] as number[], cliWall: [] as number[], page: [] as number[], pageWall: [] as number[] };
  try {
    for (let r = 1; r <= rounds; r++) {
      const c = await osvlab(['publish', '--check', site, '--json']);
      // Exit 0: every cell reproduced (a timing of a check that changed cells would compare unlike work).
      if (c.code !== 0) throw new Error(`publish --check exited with ${c.code}\n${c.out}\n${c.err}`);
      const row = (JSON.parse(c.out) as { rows: { ms: number; answers: number }[] }).rows[0];
      times.cli.push(row.ms);
      times.cliWall.push(c.ms);

      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(host.url);
      await page.waitForSelector('[data-testid="results-page"][data-loading="ready"]', { timeout: 120_000 });
      await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]', { timeout: 120_000 });
      const started = Date.now();
      await page.click('[data-testid="reverify-row"]');
      await page.waitForSelector('[data-testid="result-row"][data-status="reproduced"], [data-testid="result-row"][data-status="changed"]', { timeout: 3_600_000 });
      const wall = Date.now() - started;
      const status = await page.getAttribute('[data-testid="result-row"]', 'data-status');
      if (status !== 'reproduced') throw new Error(`the page re-verified the row as ${status}, not reproduced`);
      await page.click('[data-testid="row-link"]');
      const text = (await page.textContent('[data-testid="row-verdict"]')) ?? '';
      const m = /(\d+) answers graded again .* in (\d+\.\d) s/.exec(text);
      if (!m) throw new Error(`unexpected verdict: ${text}`);
      times.page.push(Number(m[2]) * 1000);
      times.pageWall.push(wall);
      await context.close();
      process.stdout.write(`round ${r}: CLI ${s(row.ms)} (${row.answers} answers; process ${s(c.ms)}), page ${m[2]} s (${m[1]} answers; click to verdict ${s(wall)}); load ${fmtLoad()}\n`);
    }
  } finally {
    await host.close();
  }
  process.stdout.write(
    `median of ${rounds}: CLI ${s(median(times.cli))} (process ${s(median(times.cliWall))}), page ${s(median(times.page))} (click to verdict ${s(median(times.pageWall))}); page / CLI ${(median(times.page) / median(times.cli)).toFixed(2)}\n`,
  );
} finally {
  await browser.close();
}
