/**
 * `osvlab prompt <task-id>` (options: ../declarations.ts): the benchmark
 * prompt of one task in a prompt variant (docs/research.md; its messages, or
 * with --stats its size in tokens). `osvlab prompt --stats --all`: prompt
 * tokens over all tasks, per few-shot count k (median, p10, p90, ...).
 */
import { SHOT_COUNTS, buildPrompt } from '../../core/eval/prompt/prompt.ts';
import { formatStats, promptTokenStats } from '../../core/eval/prompt/prompt-stats.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { ENCODING, promptTokens, tokenCount } from '../../core/eval/prompt/tokens.ts';
import { UsageError, choiceOption, intOption, parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { lensOption } from '../lens-option.ts';
import { SHAPE_LENS } from '../../core/shape/choice.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';

/** Runs `f`; a prompt that cannot have that many examples (the only way building one fails) is a usage error. */
function withShots<T>(shots: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError(`--shots ${shots}: ${e instanceof Error ? e.message : String(e)}`, 'ARG005');
  }
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('prompt'));
  const variant = choiceOption(args, 'prompt')!;
  const rename = lensOption(args, RENAME_LENS);
  const shape = lensOption(args, SHAPE_LENS);
  const seen = { ...(rename ? { rename } : {}), ...(shape ? { shape } : {}) };
  const tasks = await loadTasks();
  if (!tasks.length) {
    process.stderr.write('osvlab prompt: no tasks yet (run `npm run tasks`)\n');
    return 4;
  }
  if (args.flags.has('all')) {
    if (!args.flags.has('stats')) throw new UsageError('--all goes with --stats (the prompts of all tasks would be millions of tokens)');
    if (args.positionals.length) throw new UsageError('give a task id or --all, not both');
    const ks = args.values.has('shots') ? [intOption(args, 'shots')] : [...SHOT_COUNTS];
    const rows = withShots(ks.join(', '), () => promptTokenStats(tasks, ks, seen));
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify({ encoding: ENCODING, rows })}\n`);
    else process.stdout.write(`prompt tokens (${ENCODING}) over ${tasks.length} tasks\n${formatStats(rows)}`);
    return 0;
  }
  const [id, ...extra] = args.positionals;
  if (!id) throw new UsageError('which task? e.g. osvlab prompt sys_dup-v1 --shots 5');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const task = tasks.find((t) => t.id === id);
  if (!task) throw new UsageError(`no task '${id}' (osvlab tasks lists them)`, 'ARG007');
  const shots = intOption(args, 'shots');
  const p = withShots(String(shots), () => buildPrompt(task, shots, tasks, { variant, ...seen }));
  if (args.flags.has('stats')) {
    const stats = {
      task: task.id,
      shots,
      encoding: ENCODING,
      tokens: promptTokens(p.messages),
      messages: p.messages.map((m) => ({ role: m.role, tokens: tokenCount(m.content), chars: m.content.length })),
      examples: p.meta.examples,
      excluded: p.meta.excluded,
    };
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(stats)}\n`);
    else {
      process.stdout.write(
        `${task.id}, ${shots}-shot: ${stats.tokens} tokens (${ENCODING}), ${p.meta.chars} characters\n` +
          stats.messages.map((m) => `  ${m.role.padEnd(6)} ${String(m.tokens).padStart(6)} tokens\n`).join('') +
          `  examples: ${stats.examples.join(', ') || '(none)'}\n  kept out: ${stats.excluded.join(', ')}\n`,
      );
    }
    return 0;
  }
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify(p)}\n`);
    return 0;
  }
  process.stdout.write(p.messages.map((m) => `===== ${m.role} =====\n${m.content.trimEnd()}\n`).join('\n'));
  return 0;
}
