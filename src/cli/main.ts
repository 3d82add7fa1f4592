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
  ['publish', () => import('./commands/publish.ts')],
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
  publish RUN... --out DIR [--title T] [--base PATH]   publish --check DIR   (a site readers re-verify in the browser)
  run ... --shard K/N | grade ... --shard K/N --out DIR; merge DIR... --out DIR [--export FILE]
  run ... --max-cost USD | --max-total-tokens N [--price IN/OUT]    (needs --max-tokens, the cap per answer)
  compare A B [--json] [--seed S]
  study FILE.json [--out DIR] [--shard K/N] [--report] [--json]    study FILE.json --merge DIR...
  bench [--handlers a,b] [--runs N] [--lemmas] [--json]     bench --corpus FILE [--made PREFIX] [--limit N] [--full] [--json]

osvlab <command> --help (or -h, or osvlab help <command>) shows a command's options.
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

/** `--help` or `-h` as a whole argument asks for help (`--help=x` is an unknown option). */
const isHelp = (a: string | undefined): boolean => a === '--help' || a === '-h';

/** Why `name` names no command (ARG006, ARG001, ARG003; docs/cli-errors.md), or undefined when it names one. */
function nameError(name: string | undefined): string | undefined {
  if (name === undefined) return 'ARG006 which command?';
  if (name === '') return 'ARG001 the command is empty';
  return COMMANDS.has(name) ? undefined : `ARG003 unknown command '${name}'`;
}

/**
 * `osvlab help [command]` (also `--help`, `-h`): the overview alone, or the
 * help of one command (src/cli/help.ts), on stdout with exit 0.
 */
async function help(args: readonly string[]): Promise<number> {
  const [name, ...extra] = args;
  // `help help`, `help --help`: the help of help is the overview.
  if (name === undefined || ((name === 'help' || isHelp(name)) && !extra.length)) {
    process.stdout.write(USAGE);
    return 0;
  }
  const bad = nameError(name) ?? (extra.length ? `ARG006 unexpected argument '${extra[0]}' (osvlab help takes one command)` : undefined);
  if (bad) {
    process.stderr.write(`osvlab: ${bad}\n\n${USAGE}`);
    return 4;
  }
  // Loaded only when asked for: no command pays for the text of all of them.
  const { commandHelp } = await import('./help.ts');
  process.stdout.write(commandHelp(name) ?? USAGE);
  return 0;
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' || isHelp(name)) return help(rest);
  const bad = nameError(name);
  if (bad !== undefined || name === undefined) {
    process.stderr.write(`osvlab: ${bad}\n\n${USAGE}`);
    return 4;
  }
  // `osvlab <command> --help` anywhere on its line: the help, before the command parses anything.
  if (rest.some(isHelp)) return help([name]);
  const load = COMMANDS.get(name)!;
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
