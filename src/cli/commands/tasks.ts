/**
 * `osvlab tasks [--json]`: the benchmark tasks. `--json` prints them as one
 * JSON array of task objects (the format of tasks/README.md).
 */
import { loadTasks } from '../../core/bench/tasks.ts';
import { UsageError, parseArgs } from '../args.ts';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { flags: ['json'] });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const tasks = await loadTasks();
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify(tasks)}\n`);
    return 0;
  }
  if (!tasks.length) {
    process.stderr.write('osvlab tasks: no tasks yet (run `npm run tasks`)\n');
    return 4;
  }
  const width = Math.max(...tasks.map((t) => t.id.length));
  const lines = tasks.map((t) => `${t.id.padEnd(width)}  ${t.bug_count ? `${t.bug_count} bug${t.bug_count > 1 ? 's' : ' '}` : 'correct'}  ${t.bug_classes.join(', ')}`);
  const buggy = tasks.filter((t) => t.bug_count > 0).length;
  process.stdout.write(`${lines.join('\n')}\n\n${tasks.length} tasks: ${tasks.length - buggy} correct, ${buggy} buggy\n`);
  return 0;
}
