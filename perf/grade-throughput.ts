/**
 * Grading throughput of `osvlab grade` over the whole benchmark: one answer
 * per task (all 245), each the oracle spec of the task's handler in a python
 * fence, so every answer is verified in full and passes (and, unless
 * --no-lemmas is given, also goes through the lemma checks). Runs the
 * CLI as a child process and prints wall time, answers per minute, the pass
 * count and the machine's load (the target is under 5 minutes on 2 cores).
 *
 *   npx tsx perf/grade-throughput.ts [--distinct] [--no-lemmas | --compare] [--concurrency N] [--timeout MS]
 *   npx tsx perf/grade-throughput.ts --responses FILE [--against DIR] [--rounds N] [--no-lemmas | --compare] ...
 *
 * --responses grades FILE (a JSONL of answers, e.g. perf/corpus/answers.jsonl
 * or perf/corpus/per-task.jsonl) instead of the oracle answers. --against
 * DIR also grades it with the osvlab of another checkout (e.g. a worktree of
 * main at the start of a round), the two alternating, --rounds times each
 * (default 1), so both meet the same load; each run's time is printed with
 * its CPU time (user + system, all threads, from /usr/bin/time where it
 * exists), and at the end the medians and their ratios, and the grades of
 * the two compared line by line (category, strict, bug-following, found_by
 * and the diagnosis's text): a speed-up must not change one. Each run also
 * prints each grading worker's start, jobs and busy time and the idle tail
 * (one worker done while another still grades), from `osvlab grade`'s
 * summary.
 *
 * --compare grades the same answers twice, without the lemma check and then
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
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadTasks } from '../src/core/tasks/load.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';

const ROOT = join(import.meta.dirname, '..');
const TARGET_MS = 5 * 60_000;
const distinct = process.argv.includes('--distinct');
const compare = process.argv.includes('--compare');
/** The value of `--name`, taken out of the arguments passed on to osvlab grade. */
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const responses = option('responses');
const against = option('against');
const rounds = Number(option('rounds') ?? 1);
const ours = new Set(['--distinct', '--compare', '--responses', '--against', '--rounds']);
const extra = process.argv.slice(2).filter((a, i, all) => !ours.has(a) && !['--responses', '--against', '--rounds'].includes(all[i - 1]));

const tasks = await loadTasks();
const lines = tasks.map((t) => {
  const spec = oracleSpec(t.handler);
  if (!spec) throw new Error(`no oracle spec for ${t.handler}`);
  const body = distinct ? `${spec.trimEnd()}\n\n# answer for ${t.id}` : spec.trimEnd();
  const response = `The specification:\n\n\`\`\`python\n${body}\n\`\`\`\n`;
  return JSON.stringify({ task_id: t.id, response });
});
const dir = mkdtempSync(join(tmpdir(), 'osvlab-grade-bench-'));
const file = responses ? resolve(responses) : join(dir, 'responses.jsonl');
if (!responses) writeFileSync(file, `${lines.join('\n')}\n`);
const answers = responses ? readFileSync(file, 'utf8').trim().split('\n').length : lines.length;

const fmtLoad = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' ');

interface Outcome {
  readonly wallMs: number;
  readonly gradingMs: number;
  /** User + system time of the whole process (ms), where /usr/bin/time could measure it. */
  readonly cpuMs?: number;
  /** Each answer's grade, by line: its category and strict result. */
  readonly grades: readonly string[];
}

const TIME = '/usr/bin/time';

/** One grading worker as `osvlab grade --json`'s summary reports it (ms from the start of grading). */
interface WorkerSummary {
  readonly readyMs?: number;
  readonly jobs: number;
  readonly busyMs: number;
  readonly doneMs?: number;
}

/** The time from the first worker's last job's end to the last one's (ms), over the workers that ran a job. */
function idleTailMs(workers: readonly { readonly jobs: number; readonly doneMs?: number }[]): number {
  const done = workers.filter((w) => w.jobs > 0 && w.doneMs !== undefined).map((w) => w.doneMs!);
  return done.length ? Math.max(...done) - Math.min(...done) : 0;
}

async function gradeAll(gradeArgs: readonly string[], root = ROOT): Promise<Outcome> {
  const loadBefore = loadavg();
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
  const args = ['grade', '--responses', file, '--json', ...gradeArgs];
  process.stdout.write(
    `\ngrading ${responses ? `${answers} answers of ${responses}` : `${lines.length} oracle answers (${distinct ? 'every one distinct' : `${new Set(tasks.map((t) => t.handler)).size} distinct specs`})`} with ${root}: osvlab grade --responses FILE ${args.slice(3).join(' ')}\n`,
  );
  process.stdout.write(`${cpus().length} cores, load average before: ${fmtLoad(loadBefore)}\n`);
  // The compiled CLI (bin/compiled-cli.mjs) made current first, untimed: checkouts sharing node_modules recompile it in turn, which is no grading's work.
  await new Promise((done) => spawn(process.execPath, [join(root, 'bin/osvlab.mjs'), '--help'], { cwd: root, stdio: 'ignore' }).on('close', done));
  const started = Date.now();
  const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const command = [process.execPath, join(root, 'bin/osvlab.mjs'), ...args];
    const timed = existsSync(TIME) ? [TIME, '-f', 'cpu %U %S', '-o', join(dir, 'cpu.txt'), ...command] : command;
    const child = spawn(timed[0], timed.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, out, err }));
  });
  const wallMs = Date.now() - started;
  clearInterval(sampler);
  const cpu = existsSync(join(dir, 'cpu.txt')) ? /cpu ([\d.]+) ([\d.]+)/.exec(readFileSync(join(dir, 'cpu.txt'), 'utf8')) : null;
  rmSync(join(dir, 'cpu.txt'), { force: true });
  const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined;
  const loadAfter = loadavg();
  if (code !== 0) {
    process.stderr.write(`osvlab grade exited with ${code}\n${err}`);
    process.exit(1);
  }
  const result = JSON.parse(out) as {
    results: { line: number; task_id: string; category: string; strict: boolean | null; bug_following: boolean | null; found_by?: string; diagnosis: string }[];
    summary: {
      answers: number;
      pass: number;
      syntax: number;
      semantic: number;
      timeout: number;
      ms: number;
      answersPerMinute: number;
      /** Absent from an osvlab that does not report its workers. */
      workers?: WorkerSummary[];
    };
  };
  const s = result.summary;
  const perMinute = (s.answers / wallMs) * 60_000;
  const meanLoad = samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : loadAfter[0];
  const notPassing = result.results.filter((r) => r.category !== 'pass');
  process.stdout.write(
    [
      `answers: ${s.answers}   pass ${s.pass}, syntax ${s.syntax}, semantic ${s.semantic}, timeout ${s.timeout}`,
      `wall time (process start to exit): ${(wallMs / 1000).toFixed(1)} s   ${perMinute.toFixed(1)} answers/min${cpuMs === undefined ? '' : `   CPU ${(cpuMs / 1000).toFixed(1)} s`}`,
      `grading time (as osvlab grade reports it): ${(s.ms / 1000).toFixed(1)} s   ${s.answersPerMinute} answers/min`,
      ...workerLines(s.workers),
      `load average after: ${fmtLoad(loadAfter)}   mean 1-min load during the run: ${meanLoad.toFixed(2)} (${samples.length} samples)`,
      `target < ${TARGET_MS / 60_000} min: ${wallMs < TARGET_MS ? 'met' : 'MISSED'}`,
      ...(notPassing.length ? [`not passing (${notPassing.length}): ${notPassing.map((r) => `${r.task_id}=${r.category}`).join(', ')}`] : []),
      '',
    ].join('\n'),
  );
  const grades = result.results.map(
    (r) => `line ${r.line} ${r.task_id} ${r.category} strict=${r.strict} bug-following=${r.bug_following} found-by=${r.found_by ?? '-'} diagnosis=${createHash('sha256').update(r.diagnosis).digest('hex').slice(0, 12)}`,
  );
  return { wallMs, gradingMs: s.ms, grades, ...(cpuMs === undefined ? {} : { cpuMs }) };
}

/**
 * Each worker's start, jobs and busy time, and the idle tail: from the first
 * worker's last job to the last worker's, when a core had nothing to grade.
 */
function workerLines(workers: readonly WorkerSummary[] | undefined): string[] {
  if (!workers?.length) return [];
  const s = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);
  return [
    ...workers.map((w, i) => `worker ${i + 1}: ready at ${s(w.readyMs)}, ${w.jobs} jobs, busy ${s(w.busyMs)}, last job done at ${s(w.doneMs)}`),
    `idle tail (one worker done, another still grading): ${s(idleTailMs(workers))}`,
  ];
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (o: readonly Outcome[]) =>
  `${(median(o.map((x) => x.wallMs)) / 1000).toFixed(1)} s wall${o.every((x) => x.cpuMs !== undefined) ? `, ${(median(o.map((x) => x.cpuMs!)) / 1000).toFixed(1)} s CPU` : ''}`;

/** This checkout against `other`, alternating, `rounds` times each; the medians and ratios. */
async function versus(other: string, gradeArgs: readonly string[]): Promise<void> {
  const mine: Outcome[] = [];
  const theirs: Outcome[] = [];
  for (let r = 0; r < rounds; r++) {
    // Who goes first alternates too.
    if (r % 2 === 0) {
      theirs.push(await gradeAll(gradeArgs, other));
      mine.push(await gradeAll(gradeArgs));
    } else {
      mine.push(await gradeAll(gradeArgs));
      theirs.push(await gradeAll(gradeArgs, other));
    }
  }
  const ratio = (f: (o: Outcome) => number | undefined) => {
    const a = theirs.map(f);
    const b = mine.map(f);
    return a.every((x) => x !== undefined) && b.every((x) => x !== undefined) ? `${(median(a as number[]) / median(b as number[])).toFixed(2)}x` : '-';
  };
  // The same answers must get the same grades from both (category, strict, bug-following), line for line.
  const differ = mine.flatMap((m, r) => m.grades.filter((g, i) => g !== theirs[r].grades[i] || m.grades.length !== theirs[r].grades.length).map((g) => `round ${r + 1}: ${g} here`));
  process.stdout.write(
    `\n${other} (medians of ${rounds}): ${fmt(theirs)}\nthis checkout: ${fmt(mine)}\nspeed-up: ${ratio((o) => o.wallMs)} wall, ${ratio((o) => o.cpuMs)} CPU\n` +
      `grades compared line by line: ${mine.reduce((n, m) => n + m.grades.length, 0)}, ${differ.length} differ${differ.length ? `:\n${differ.join('\n')}` : ''}\n`,
  );
}

try {
  if (against) {
    if (compare) {
      await versus(resolve(against), ['--no-lemmas', ...extra.filter((a) => a !== '--no-lemmas')]);
      await versus(resolve(against), extra.filter((a) => a !== '--no-lemmas'));
    } else await versus(resolve(against), extra);
  } else if (compare) {
    const plain = await gradeAll(['--no-lemmas', ...extra.filter((a) => a !== '--no-lemmas')]);
    const strict = await gradeAll(extra.filter((a) => a !== '--no-lemmas'));
    process.stdout.write(
      `\nwithout strict: ${(plain.wallMs / 1000).toFixed(1)} s wall (${(plain.gradingMs / 1000).toFixed(1)} s grading)\n` +
        `with strict:    ${(strict.wallMs / 1000).toFixed(1)} s wall (${(strict.gradingMs / 1000).toFixed(1)} s grading)\n` +
        `ratio strict / without: ${(strict.wallMs / plain.wallMs).toFixed(2)}x wall, ${(strict.gradingMs / plain.gradingMs).toFixed(2)}x grading\n`,
    );
  } else await gradeAll(extra);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
