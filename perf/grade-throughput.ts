/**
 * Grading throughput of `osvlab grade` over the whole benchmark: one answer
 * per task (all 245), each the oracle spec of the task's handler in a python
 * fence, so every answer is verified in full and passes (and, unless
 * --no-strict is given, also goes through the declarative checks). Runs the
 * CLI as a child process and prints wall time, answers per minute, the pass
 * count and the machine's load (the target is under 5 minutes on 2 cores).
 *
 *   npx tsx perf/grade-throughput.ts [--distinct] [--no-strict | --compare] [--concurrency N] [--timeout MS]
 *
 * --compare grades the same answers twice, without the strict check and then
 * with it, and prints both times and their ratio (strict / without).
 *
 * The five variants of a handler get the same answer, so a grader that
 * remembers verdicts (src/core/eval/grade/grade-memo.ts) verifies each handler's
 * oracle once. --distinct ends every answer's spec with a comment naming its
 * task, so no two answers are alike and every one is verified from scratch:
 * the cost of real model answers. Other arguments go to `osvlab grade` as
 * they are.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTasks } from '../src/core/tasks/load.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';

const ROOT = join(import.meta.dirname, '..');
const TARGET_MS = 5 * 60_000;
const distinct = process.argv.includes('--distinct');
const compare = process.argv.includes('--compare');
const extra = process.argv.slice(2).filter((a) => a !== '--distinct' && a !== '--compare');

const tasks = await loadTasks();
const lines = tasks.map((t) => {
  const spec = oracleSpec(t.handler);
  if (!spec) throw new Error(`no oracle spec for ${t.handler}`);
  const body = distinct ? `${spec.trimEnd()}\n\n# answer for ${t.id}` : spec.trimEnd();
  const response = `The specification:\n\n\`\`\`python\n${body}\n\`\`\`\n`;
  return JSON.stringify({ task_id: t.id, response });
});
const dir = mkdtempSync(join(tmpdir(), 'osvlab-grade-bench-'));
const file = join(dir, 'responses.jsonl');
writeFileSync(file, `${lines.join('\n')}\n`);

const fmtLoad = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' ');

interface Outcome {
  readonly wallMs: number;
  readonly gradingMs: number;
}

async function gradeAll(gradeArgs: readonly string[]): Promise<Outcome> {
  const loadBefore = loadavg();
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
  const args = ['grade', '--responses', file, '--json', ...gradeArgs];
  process.stdout.write(
    `\ngrading ${lines.length} oracle answers (${distinct ? 'every one distinct' : `${new Set(tasks.map((t) => t.handler)).size} distinct specs`}): osvlab grade --responses FILE ${args.slice(3).join(' ')}\n`,
  );
  process.stdout.write(`${cpus().length} cores, load average before: ${fmtLoad(loadBefore)}\n`);
  const started = Date.now();
  const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, out, err }));
  });
  const wallMs = Date.now() - started;
  clearInterval(sampler);
  const loadAfter = loadavg();
  if (code !== 0) {
    process.stderr.write(`osvlab grade exited with ${code}\n${err}`);
    process.exit(1);
  }
  const result = JSON.parse(out) as {
    results: { task_id: string; category: string }[];
    summary: { answers: number; pass: number; syntax: number; semantic: number; timeout: number; ms: number; answersPerMinute: number };
  };
  const s = result.summary;
  const perMinute = (s.answers / wallMs) * 60_000;
  const meanLoad = samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : loadAfter[0];
  const notPassing = result.results.filter((r) => r.category !== 'pass');
  process.stdout.write(
    [
      `answers: ${s.answers}   pass ${s.pass}, syntax ${s.syntax}, semantic ${s.semantic}, timeout ${s.timeout}`,
      `wall time (process start to exit): ${(wallMs / 1000).toFixed(1)} s   ${perMinute.toFixed(1)} answers/min`,
      `grading time (as osvlab grade reports it): ${(s.ms / 1000).toFixed(1)} s   ${s.answersPerMinute} answers/min`,
      `load average after: ${fmtLoad(loadAfter)}   mean 1-min load during the run: ${meanLoad.toFixed(2)} (${samples.length} samples)`,
      `target < ${TARGET_MS / 60_000} min: ${wallMs < TARGET_MS ? 'met' : 'MISSED'}`,
      ...(notPassing.length ? [`not passing (${notPassing.length}): ${notPassing.map((r) => `${r.task_id}=${r.category}`).join(', ')}`] : []),
      '',
    ].join('\n'),
  );
  return { wallMs, gradingMs: s.ms };
}

try {
  if (compare) {
    const plain = await gradeAll(['--no-strict', ...extra.filter((a) => a !== '--no-strict')]);
    const strict = await gradeAll(extra.filter((a) => a !== '--no-strict'));
    process.stdout.write(
      `\nwithout strict: ${(plain.wallMs / 1000).toFixed(1)} s wall (${(plain.gradingMs / 1000).toFixed(1)} s grading)\n` +
        `with strict:    ${(strict.wallMs / 1000).toFixed(1)} s wall (${(strict.gradingMs / 1000).toFixed(1)} s grading)\n` +
        `ratio strict / without: ${(strict.wallMs / plain.wallMs).toFixed(2)}x wall, ${(strict.gradingMs / plain.gradingMs).toFixed(2)}x grading\n`,
    );
  } else await gradeAll(extra);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
