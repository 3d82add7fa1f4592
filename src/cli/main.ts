/**
 * `osvlab`: the headless front end of the same core the web app runs.
 * Each command lives in its own module under ./commands.
 */
import { hasDiagnostic } from '../core/diagnostic.ts';
import { loadNameFilter } from '../core/dialect/unicode-names.ts';
import { UsageError } from './args.ts';
import { flushed, guardOutput, outputFailure } from './closed-output.ts';
import { showControls } from './visible-output.ts';
import { printDiagnostic } from './diagnostics.ts';
import { COMMANDS, type CommandName, findCommand } from './declarations.ts';
import { commandHelp, overview } from './help.ts';
import { errnoWords } from '../store/run-dir-file.ts';

type Command = { run(argv: string[]): Promise<number> };

/** Each declared command's module (declarations.ts declares the commands; the type asks for a loader for each). */
const LOADERS: Readonly<Record<CommandName, () => Promise<Command>>> = {
  verify: () => import('./commands/verify.ts'),
  tasks: () => import('./commands/tasks.ts'),
  task: () => import('./commands/task.ts'),
  prompt: () => import('./commands/prompt.ts'),
  bench: () => import('./commands/bench.ts'),
  diff: () => import('./commands/diff.ts'),
  lemmas: () => import('./commands/lemmas.ts'),
  grade: () => import('./commands/grade.ts'),
  run: () => import('./commands/run.ts'),
  report: () => import('./commands/report.ts'),
  merge: () => import('./commands/merge.ts'),
  compare: () => import('./commands/compare.ts'),
  study: () => import('./commands/study.ts'),
  regrade: () => import('./commands/regrade.ts'),
  publish: () => import('./commands/publish.ts'),
};

/** The command names, in the order `osvlab --help` lists them. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

const USAGE = overview();

/**
 * Runs the CLI; returns the process exit code. Output that goes away
 * (`| head`, a full disk) ends printing, not the command: its work (a run
 * directory) is still written, and a lost write other than a closed pipe
 * makes the exit code 4.
 */
export async function main(argv: string[]): Promise<number> {
  guardOutput(process.stdout);
  guardOutput(process.stderr);
  // Outside the guard: what is printed from files never reaches the terminal as control characters.
  showControls(process.stdout);
  showControls(process.stderr);
  // The commands lex specs on this thread too (lint, the oracles, a run's answers), synchronously: the Unicode name
  // filter the page loads on demand is loaded once here, a few milliseconds from disk (docs/design.md, "The worker's
  // first code").
  await loadNameFilter();
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
  return findCommand(name) ? undefined : `ARG003 unknown command '${name}'`;
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
  try {
    const cmd = await LOADERS[name as CommandName]();
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
    const sys = systemError(e);
    process.stderr.write(`osvlab ${name}: ${sys ?? (e instanceof Error ? e.message : String(e))}\n`);
    return 4;
  }
}

/** Calls that read: a refusal there is an input's (IN003); any other is a file being written (RUNDIR005). */
const READ_CALLS = new Set(['open', 'read', 'stat', 'lstat', 'fstat', 'scandir', 'opendir', 'readlink', 'access', 'realpath']);

/**
 * The system's refusal of a file (ENOENT, EROFS, ENOSPC, EACCES, ...) as a
 * coded line naming the path, for one that no command caught itself; or
 * undefined for any other error.
 */
function systemError(e: unknown): string | undefined {
  const { code, path, syscall } = (e ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || typeof path !== 'string') return undefined;
  return READ_CALLS.has(syscall ?? '') ? `IN003 ${path} cannot be read: ${errnoWords(code, true)} (${code})` : `RUNDIR005 ${path} cannot be written: ${errnoWords(code)} (${code})`;
}
