/**
 * `osvlab`: the headless front end of the same core the web app runs.
 * Each command lives in its own module under ./commands.
 */
import { hasDiagnostic } from '../core/diagnostic.ts';
import { UsageError } from './args.ts';
import { flushed, guardOutput, outputFailure } from './closed-output.ts';
import { printDiagnostic } from './diagnostics.ts';

type Command = { run(argv: string[]): Promise<number> };

// A Map, not an object literal: `osvlab constructor` must be an unknown command, not Object's constructor.
const COMMANDS = new Map<string, () => Promise<Command>>([
  ['verify', () => import('./commands/verify.ts')],
  ['tasks', () => import('./commands/tasks.ts')],
  ['task', () => import('./commands/task.ts')],
  ['prompt', () => import('./commands/prompt.ts')],
  ['bench', () => import('./commands/bench.ts')],
  ['lemmas', () => import('./commands/lemmas.ts')],
  ['grade', () => import('./commands/grade.ts')],
  ['run', () => import('./commands/run.ts')],
  ['report', () => import('./commands/report.ts')],
  ['merge', () => import('./commands/merge.ts')],
  ['compare', () => import('./commands/compare.ts')],
  ['study', () => import('./commands/study.ts')],
  ['regrade', () => import('./commands/regrade.ts')],
]);

/** The command names, in the order `osvlab --help` lists them. */
export const COMMAND_NAMES: readonly string[] = [...COMMANDS.keys()];

const USAGE = `usage: osvlab <command> [options]

commands:
  verify <handler> [--spec FILE | --oracle] [--impl FILE | --variant ID] [--timeout MS] [--strict] [--json]
  lemmas <handler> [--spec FILE | --oracle] [--json]
  tasks [--json | --format osvbench]            task show <id>
  prompt <task-id> [--shots N] [--stats] [--json]      prompt --stats --all [--shots N]
  grade --responses FILE [--out DIR] [--json] [--no-strict]   (FILE: JSONL or an OSVBench results file)
  run --provider P --model M [--base-url URL] [--tasks SEL] [--n N] [--shots K] [--repair R] [--concurrency C] [--out DIR]
      [--temperature T] [--top-p P] [--max-tokens N] [--seed S] [--reasoning-effort minimal|low|medium|high] [--extract osvbench]
  report DIR [--json] [--benchmark FILE]
  regrade DIR|FILE [--out DIR] [--json]          (re-verify a run: which grades this verifier changes)
  run ... --shard K/N | grade ... --shard K/N --out DIR; merge DIR... --out DIR [--export FILE]
  run ... --max-cost USD | --max-total-tokens N [--price IN/OUT]    (needs --max-tokens, the cap per answer)
  compare A B [--json] [--seed S]
  study FILE.json [--out DIR] [--shard K/N] [--report] [--json]    study FILE.json --merge DIR...
  bench [--handlers a,b] [--runs N] [--lemmas] [--json]     bench --corpus FILE [--made PREFIX] [--limit N] [--json]
`;

/**
 * Runs the CLI; returns the process exit code. Output that goes away
 * (`| head`, a full disk) ends printing, not the command: its work (a run
 * directory) is still written, and a lost write other than a closed pipe
 * makes the exit code 4.
 */
export async function main(argv: string[]): Promise<number> {
  guardOutput(process.stdout);
  guardOutput(process.stderr);
  const code = await dispatch(argv);
  await flushed(process.stdout);
  const lost = outputFailure(process.stdout);
  if (lost) {
    process.stderr.write(`osvlab: standard output failed (${lost.code ?? lost.message}); some output was lost\n`);
    return 4;
  }
  return code;
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!name) {
    process.stderr.write(`osvlab: ${name === '' ? 'ARG001 the command is empty' : 'ARG006 which command?'}\n\n${USAGE}`);
    return 4;
  }
  const load = COMMANDS.get(name);
  if (!load) {
    process.stderr.write(`osvlab: ARG003 unknown command '${name}'\n\n${USAGE}`);
    return 4;
  }
  try {
    const cmd = await load();
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`osvlab ${name}: ${e.message}\n`);
      return 4;
    }
    // A coded error that reached the top (an unknown handler, a request error): its code and notes.
    const d = hasDiagnostic(e) ? e.toDiagnostic() : undefined;
    if (d) {
      process.stderr.write(`osvlab ${name}: `);
      printDiagnostic(process.stderr, d);
      return 4;
    }
    process.stderr.write(`osvlab ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 4;
  }
}
