/**
 * Re-verify time for a whole run of 245 answers, in the CLI and in the page,
 * one after the other on the same machine: one answer per task (the oracle
 * spec of the task's handler, each ending with a comment naming its task so
 * that no two are alike and the grader's memo cannot skip one), graded once
 * with `osvlab grade --out` to make the run, exported as a run file; then
 *
 *   1. `osvlab regrade DIR` (a child process; worker threads, one per core),
 *   2. the Runs page in Chromium: the run file imported, Re-verify clicked,
 *      until the result is shown (Web Workers, one per core, at most four).
 *
 * Both go through src/core/eval/session/regrade.ts. Prints each time as the
 * command and the page report it and as wall time, their ratio, and the
 * machine's load. Nothing of this is in the test suite.
 *
 *   npx tsx perf/regrade.ts [--same] [--no-lemmas] [--tasks N]
 *
 * --same gives every variant of a handler the same answer (the memo then
 * verifies each handler's answer once per worker); --no-lemmas grades and
 * re-verifies without the lemma checks; --tasks N takes the first N
 * tasks only (for a quick try).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { JsonlRepository } from '../src/store/jsonl.ts';
import { exportStoredRun } from '../src/store/transfer.ts';
import { startCli } from '../test/cli-process.ts';
import { ensureBuilt, launch, newPage, serve } from '../test/e2e/harness.ts';

const same = process.argv.includes('--same');
const strict = !process.argv.includes('--no-lemmas');
const at = process.argv.indexOf('--tasks');
const count = at >= 0 ? Number(process.argv[at + 1]) : Infinity;

const tasks = (await loadTasks()).slice(0, count);
const dir = mkdtempSync(join(tmpdir(), 'osvlab-regrade-bench-'));
const responses = join(dir, 'responses.jsonl');
writeFileSync(
  responses,
  tasks
    .map((t) => {
      const spec = oracleSpec(t.handler)!.trimEnd();
      const body = same ? spec : `${spec}\n\n# answer for ${t.id}`;
      return JSON.stringify({ task_id: t.id, response: `\`\`\`python\n${body}\n\`\`\`\n` });
    })
    .join('\n') + '\n',
);

const fmtLoad = () => loadavg().map((x) => x.toFixed(2)).join(' ');

async function osvlab(args: readonly string[]): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const started = Date.now();
  const r = await startCli(args, process.env).result;
  return { ...r, ms: Date.now() - started };
}

const runDir = join(dir, 'run');
const runFile = join(dir, 'run.json');
try {
  process.stdout.write(`${tasks.length} answers (${same ? 'the same answer for every variant of a handler' : 'every one distinct'}), strict ${strict ? 'on' : 'off'}; ${cpus().length} cores\n`);
  process.stdout.write(`making the run: osvlab grade --out (load ${fmtLoad()})\n`);
  const g = await osvlab(['grade', '--responses', responses, '--out', runDir, '--json', ...(strict ? [] : ['--no-lemmas'])]);
  if (g.code !== 0) throw new Error(`osvlab grade exited with ${g.code}\n${g.err}`);
  process.stdout.write(`  graded in ${(g.ms / 1000).toFixed(1)} s wall\n`);
  const store = await JsonlRepository.open(runDir, { create: false });
  const [run] = await store.listRuns();
  writeFileSync(runFile, JSON.stringify(await exportStoredRun(store, run.id, tasks)));
  await store.close();

  process.stdout.write(`\n1. CLI: osvlab regrade DIR --json (load before ${fmtLoad()})\n`);
  const r = await osvlab(['regrade', runDir, '--json']);
  if (r.code !== 0 && r.code !== 1) throw new Error(`osvlab regrade exited with ${r.code}\n${r.err}`);
  const cli = JSON.parse(r.out) as { total: number; unchanged: number; changed: unknown[]; ms: number };
  process.stdout.write(`  ${cli.unchanged} of ${cli.total} unchanged; regrade ${(cli.ms / 1000).toFixed(1)} s, process ${(r.ms / 1000).toFixed(1)} s wall (load after ${fmtLoad()})\n`);

  process.stdout.write(`\n2. page: import the run file, Re-verify (load before ${fmtLoad()})\n`);
  const site = await serve(await ensureBuilt());
  const browser = await launch();
  let pageMs: number;
  let pageWall: number;
  try {
    const { page } = await newPage(browser);
    await page.goto(site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', runFile);
    await page.waitForSelector('[data-testid="metrics"]', { timeout: 120_000 });
    const started = Date.now();
    await page.click('[data-testid="reverify"]');
    await page.waitForSelector('[data-testid="reverify-result"]', { timeout: 3_600_000 });
    pageWall = Date.now() - started;
    const summary = (await page.locator('[data-testid="reverify-summary"]').textContent()) ?? '';
    const workers = await page.evaluate(() => Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)));
    const m = /(\d+) of (\d+) grades unchanged.*\((\d+\.\d) s\)/.exec(summary);
    if (!m) throw new Error(`unexpected summary: ${summary}`);
    pageMs = Number(m[3]) * 1000;
    process.stdout.write(`  ${m[1]} of ${m[2]} unchanged; Re-verify ${m[3]} s as the page reports it, ${(pageWall / 1000).toFixed(1)} s from the click to the result (${workers} workers; load after ${fmtLoad()})\n`);
  } finally {
    await browser.close();
    await site.close();
  }
  process.stdout.write(`\nregrade of ${tasks.length} answers: CLI ${(cli.ms / 1000).toFixed(1)} s, page ${(pageMs / 1000).toFixed(1)} s; page / CLI = ${(pageMs / cli.ms).toFixed(2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
