/**
 * `osvlab tasks` (options: ../declarations.ts): the benchmark tasks. `--json`
 * prints them as one JSON array of task objects (the format of
 * tasks/README.md); `--format osvbench` as OSVBench's benchmark.json (a list
 * of {syscall, declaration, description, code, bug_type, bug_num}, in task
 * index order; see docs/osvbench.md), so OSVBench's own harness can ask
 * models for our tasks and `osvlab grade` can grade its results file.
 * `--rename STYLE` prints them in a renaming (docs/rename.md), for a harness
 * whose answers `osvlab grade --rename STYLE` then grades.
 */
import { toOsvbenchBenchmark } from '../../core/eval/files/osvbench.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { renamedTask } from '../../core/rename/task.ts';
import { shapedTask } from '../../core/shape/task.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import { lensOption } from '../lens-option.ts';
import { SHAPE_LENS } from '../../core/shape/choice.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';

export async function run(argv: string[]): Promise<number> {
  const { args, options } = parseCommand('tasks', argv);
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const format = options.format;
  const rename = lensOption(args, RENAME_LENS);
  const shape = lensOption(args, SHAPE_LENS);
  // Shaped first, renamed after: a renaming keeps every line where it is.
  const shaped = shape ? (await loadTasks()).map((t) => shapedTask(t, shape)) : await loadTasks();
  const tasks = rename ? shaped.map((t) => renamedTask(t, rename)) : shaped;
  if (format === 'osvbench') {
    process.stdout.write(`${JSON.stringify(toOsvbenchBenchmark(tasks), null, 4)}\n`);
    return 0;
  }
  if (options.json) {
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
