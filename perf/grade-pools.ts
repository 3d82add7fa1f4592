/**
 * Grading throughput per verifier worker, in the browser and in the CLI, on
 * the same answers (docs/lemmas.md, "Benchmarks"): the corpus
 * (perf/corpus/answers.jsonl) as one OSVBench results file (each answer
 * under its handler's correct task), graded with the lemma check
 *
 *   1. by `osvlab grade --responses FILE --concurrency 1` (one worker thread), then
 *   2. by the built app in Chromium: the file imported on the Runs page, which
 *      grades it in the page's verifier pool one answer at a time (one worker
 *      busy), storing each grade in IndexedDB as it comes,
 *
 * one after the other, and prints the answers per minute of each and their
 * ratio (the target: the browser within 1.3x of the CLI).
 *
 *   npx tsx perf/grade-pools.ts [--limit N] [--made PREFIX]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, launch, newPage, serve } from '../test/e2e/harness.ts';

const ROOT = join(import.meta.dirname, '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Answer {
  readonly handler: string;
  readonly response: string;
  readonly made: string;
}

const limit = Number(arg('limit') ?? Number.MAX_SAFE_INTEGER);
const made = arg('made');
const tasks: { id: string; handler: string }[] = JSON.parse(readFileSync(join(ROOT, 'tasks/hv6/tasks.json'), 'utf8')).tasks;
const answers = readFileSync(join(ROOT, 'perf/corpus/answers.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Answer)
  .filter((a) => (made === undefined || a.made.startsWith(made)) && tasks.some((t) => t.id === `${a.handler}-v0`))
  .slice(0, limit);

// OSVBench's results file: task index -> syscall -> answers.
const results: Record<string, Record<string, string[]>> = {};
for (const a of answers) {
  const index = String(tasks.findIndex((t) => t.id === `${a.handler}-v0`));
  ((results[index] ??= {})[a.handler] ??= []).push(a.response);
}
const dir = mkdtempSync(join(tmpdir(), 'osvlab-grade-pools-'));
const file = join(dir, 'corpus_results.json');
writeFileSync(file, JSON.stringify(results));

const load = () => loadavg()[0].toFixed(2);

async function cli(): Promise<number> {
  const started = Date.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), 'grade', '--responses', file, '--concurrency', '1', '--json'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`osvlab grade exited with ${code}`);
  return Date.now() - started;
}

async function browser(): Promise<number> {
  const site = await serve(await ensureBuilt());
  const b = await launch();
  try {
    const { page, context } = await newPage(b);
    await page.goto(`${site.url}#/runs`);
    await page.waitForSelector('[data-testid="import-run"]', { state: 'attached' });
    const started = Date.now();
    await page.setInputFiles('[data-testid="import-run"]', file);
    await page.waitForFunction(() => /Imported and graded/.test(document.body.textContent ?? ''), undefined, { timeout: 0, polling: 1000 });
    const ms = Date.now() - started;
    await context.close();
    return ms;
  } finally {
    await b.close();
    await site.close();
  }
}

try {
  const n = answers.length;
  console.log(`${n} answers over ${Object.keys(results).length} tasks, graded with the lemma check, one worker each; load ${load()}`);
  const cliMs = await cli();
  console.log(`CLI (osvlab grade --concurrency 1): ${(cliMs / 1000).toFixed(1)} s, ${((n / cliMs) * 60_000).toFixed(1)} answers/min; load ${load()}`);
  const pageMs = await browser();
  console.log(`browser (Runs page import, Chromium): ${(pageMs / 1000).toFixed(1)} s, ${((n / pageMs) * 60_000).toFixed(1)} answers/min; load ${load()}`);
  console.log(`browser / CLI time per answer: ${(pageMs / cliMs).toFixed(2)}x (target <= 1.3)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
