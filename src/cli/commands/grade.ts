/**
 * `osvlab grade --responses FILE.jsonl [--json] [--concurrency N] [--timeout MS]`:
 * grades answers obtained elsewhere. Each line is `{"task_id": ..., "response": ...}`
 * or `{"handler": ..., "response": ...}` (graded against the correct implementation).
 * Prints one line per answer and a summary (with throughput).
 */
import { handlerOnlyTask } from '../../core/bench/grade.ts';
import type { GradeResult } from '../../core/bench/grade-types.ts';
import type { Task } from '../../core/bench/task.ts';
import { loadTasks } from '../../core/bench/tasks.ts';
import { findHandler } from '../../core/kernel/handlers.ts';
import { UsageError, intOption, parseArgs } from '../args.ts';
import { GradePool } from '../grade-pool.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';

interface Line {
  readonly line: number;
  readonly task: Task;
  readonly response: string;
}

export async function parseResponses(text: string): Promise<Line[]> {
  const tasks = await loadTasks();
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const out: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let v: { task_id?: unknown; handler?: unknown; response?: unknown };
    try {
      v = JSON.parse(raw);
    } catch (e) {
      throw new UsageError(`line ${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof v.response !== 'string') throw new UsageError(`line ${i + 1}: "response" must be a string`);
    let task: Task | undefined;
    if (typeof v.task_id === 'string') {
      task = byId.get(v.task_id);
      if (!task) throw new UsageError(`line ${i + 1}: unknown task_id '${v.task_id}'`);
    } else if (typeof v.handler === 'string') {
      const h = findHandler(v.handler);
      if (!h) throw new UsageError(`line ${i + 1}: unknown handler '${v.handler}'`);
      task = byId.get(`${h.name}-v0`) ?? handlerOnlyTask(h.name);
    } else {
      throw new UsageError(`line ${i + 1}: needs "task_id" or "handler"`);
    }
    out.push({ line: i + 1, task, response: v.response });
  });
  return out;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['responses', 'concurrency', 'timeout'], flags: ['json', 'no-strict'] });
  const file = args.values.get('responses');
  if (!file) throw new UsageError('--responses FILE.jsonl is required');
  const text = await readInput(file, 'responses', RESPONSES_CAP);
  const lines = await parseResponses(text);
  const pool = new GradePool({ size: intOption(args, 'concurrency', 0) || undefined, timeoutMs: intOption(args, 'timeout', 20000), strict: !args.flags.has('no-strict') });
  const started = Date.now();
  const results: { line: Line; grade: GradeResult }[] = [];
  try {
    await Promise.all(
      lines.map(async (line) => {
        const grade = await pool.grade(line.task, line.response);
        results.push({ line, grade });
        if (!args.flags.has('json')) {
          process.stdout.write(`line ${line.line}  ${line.task.id.padEnd(28)} ${grade.category}${grade.bugFollowing ? ' (bug-following)' : ''}\n`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  results.sort((a, b) => a.line.line - b.line.line);
  const ms = Date.now() - started;
  const counts: Record<string, number> = { pass: 0, syntax: 0, semantic: 0, timeout: 0 };
  for (const r of results) counts[r.grade.category]++;
  const perMinute = results.length ? (results.length / ms) * 60000 : 0;
  const summary = { answers: results.length, ...counts, ms, answersPerMinute: Math.round(perMinute * 10) / 10 };
  if (args.flags.has('json')) {
    process.stdout.write(
      `${JSON.stringify({
        results: results.map((r) => ({ line: r.line.line, task_id: r.line.task.id, category: r.grade.category, bug_following: r.grade.bugFollowing ?? null, diagnosis: r.grade.diagnosis })),
        summary,
      })}\n`,
    );
  } else {
    process.stdout.write(
      `\n${results.length} answers: pass ${counts.pass}, syntax ${counts.syntax}, semantic ${counts.semantic}, timeout ${counts.timeout}; ${(ms / 1000).toFixed(1)} s (${summary.answersPerMinute} answers/min)\n`,
    );
  }
  return 0;
}
