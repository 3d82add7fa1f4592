/**
 * The one command-line parser of every `osvlab` command: `--name value`,
 * `--name=value`, boolean `--flag`, positionals. Whatever it refuses is a
 * usage error (exit 4) with a stable code (docs/cli-errors.md):
 *
 *   ARG001  an empty value or argument (`--spec ""`, `--spec=`, `--spec="$UNSET"`):
 *           an empty path must never fall back to a default such as the oracle
 *   ARG002  an option without its value (last on the line, or followed by another option)
 *   ARG003  an unknown option (or, in main.ts, command)
 *   ARG004  a flag given a value (`--json=1`)
 *   ARG005  a number that is not a whole number in the option's range
 *   ARG006  the arguments do not fit the command (one missing, one too many, options
 *           that exclude each other, a value that is not one of the choices): the
 *           code of every UsageError that names no other
 *   ARG007  an argument names nothing known (no such task, no such lemma)
 *
 * Options every command shares by name mean the same everywhere and are
 * checked here as they are parsed (`SHARED`): `--budget`, `--query-timeout` and
 * `--request-timeout` are time limits from 1 ms to `MAX_TIME_LIMIT_MS`, so
 * no command can take 0 (no time at all) or a value past what a timer holds.
 */

/**
 * A usage error: `osvlab` prints its message, which starts with its code
 * (ARG006 unless another is given; InputError's are IN001-IN004), and exits 4.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code: string = 'ARG006',
  ) {
    super(`${code} ${message}`);
    this.name = 'UsageError';
  }
}

export type ArgCode = 'ARG001' | 'ARG002' | 'ARG003' | 'ARG004' | 'ARG005' | 'ARG006' | 'ARG007';

/** A usage error the parser found. */
export class ArgError extends UsageError {
  constructor(
    override readonly code: ArgCode,
    message: string,
  ) {
    super(message, code);
    this.name = 'ArgError';
  }
}

/**
 * The largest time limit any option takes: 24 hours. A grading job's hard
 * limit is eleven solver budgets and 30 s (src/core/service/grade-job.ts), and
 * timers hold at most 2^31 - 1 ms (24.8 days), past which they fire at once;
 * eleven days' worth stays inside that with room to spare.
 */
export const MAX_TIME_LIMIT_MS = 86_400_000;

export interface IntRange {
  readonly min?: number;
  readonly max?: number;
  /** What the number counts, for the message ("ms", "workers"). */
  readonly unit?: string;
}

/** Options checked as they are parsed, in every command that has them. */
const SHARED = new Map<string, IntRange>([
  ['budget', { min: 1, max: MAX_TIME_LIMIT_MS, unit: 'ms' }],
  ['query-timeout', { min: 1, max: MAX_TIME_LIMIT_MS, unit: 'ms' }],
  ['request-timeout', { min: 1, max: MAX_TIME_LIMIT_MS, unit: 'ms' }],
]);

/**
 * One option of a command, as its declaration (declarations.ts) states it:
 * the parser, `--help`, the overview and docs/cli.md all read this.
 */
export interface OptionDecl {
  /** `--name`. */
  readonly name: string;
  /** The value's name in the help (`FILE`, `MS`); absent for a flag. */
  readonly value?: string;
  /** What it does, in a phrase; the choices and the default are added to it. */
  readonly meaning: string;
  /** The values it takes (shown, and checked by `choiceOption` and `optionsOf`). */
  readonly choices?: readonly string[];
  /**
   * What its value is when it is not text: `int`, a whole number (in `range`,
   * 0 and up without one; a number default makes an option `int` too), or
   * `number`, any finite number (`optionsOf` checks and converts it).
   */
  readonly type?: 'int' | 'number';
  /** The range of an `int` option; the time limits of `SHARED` always have theirs. */
  readonly range?: IntRange;
  /** The value it has when absent: the constant the command uses (`intOption`, `textOption`, `choiceOption` read it here). */
  readonly default?: number | string;
  /** More to say after the choices and the default (a limit, a document). */
  readonly note?: string;
  /** An older spelling the parser still takes as this option (`--timeout` for `--budget`); the help names it. */
  readonly alias?: string;
}

export interface ParsedArgs {
  readonly positionals: string[];
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
  /** The options the command declares, defaults included. */
  readonly options: readonly OptionDecl[];
}

/** Parses `argv` against a command's declared `options`. */
export function parseArgs(argv: readonly string[], options: readonly OptionDecl[]): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  const valueNames = new Set(options.filter((o) => o.value !== undefined).map((o) => o.name));
  const flagNames = new Set(options.filter((o) => o.value === undefined).map((o) => o.name));
  const aliases = new Map(options.flatMap((o) => (o.alias === undefined ? [] : [[o.alias, o.name] as const])));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || a === '--') {
      if (a === '') throw new ArgError('ARG001', `an argument is empty (an unset shell variable?)`);
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const given = a.slice(2, eq < 0 ? undefined : eq);
    const name = aliases.get(given) ?? given;
    if (valueNames.has(name)) {
      let v: string;
      if (eq >= 0) v = a.slice(eq + 1);
      else {
        const next = argv[i + 1];
        if (next === undefined) throw new ArgError('ARG002', `--${given} needs a value`);
        // `--spec --json` is a forgotten value, not a file named --json (that one is --spec=--json).
        if (next.startsWith('--') && next.length > 2) throw new ArgError('ARG002', `--${given} needs a value, and the next argument is the option ${next}`);
        v = next;
        i++;
      }
      if (v === '') throw new ArgError('ARG001', `--${given} has an empty value (an unset shell variable?); give a value or leave the option out`);
      const range = SHARED.get(name);
      if (range) wholeNumber(given, v, range);
      // Given twice, the last one holds: scripts append an override to their defaults.
      values.set(name, v);
    } else if (flagNames.has(name)) {
      if (eq >= 0) throw new ArgError('ARG004', `--${given} takes no value`);
      flags.add(name);
    } else {
      const known = [...valueNames, ...flagNames].map((n) => `--${n}`).join(', ');
      throw new ArgError('ARG003', `unknown option --${given}${known ? ` (known: ${known})` : ''}`);
    }
  }
  return { positionals, values, flags, options };
}

/** `text` as a whole number within `range` (a safe integer at most), or ARG005 naming `--name`. */
function wholeNumber(name: string, text: string, range: IntRange): number {
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const unit = range.unit ? ` ${range.unit}` : '';
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const what = max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
    throw new ArgError('ARG005', `--${name} must be ${what}${unit}, got '${text}'`);
  }
  return n;
}

/** The declaration of option `name` of the parsed command (an undeclared name is the program's error). */
function declared(args: ParsedArgs, name: string): OptionDecl {
  const o = args.options.find((x) => x.name === name);
  if (!o) throw new Error(`--${name} is not an option of this command`);
  return o;
}

/**
 * A whole-number option, or undefined when it is absent. `range` defaults
 * to 0 and up; options in `SHARED` always have their shared range.
 */
export function optionalInt(args: ParsedArgs, name: string, range: IntRange = {}): number | undefined {
  const v = args.values.get(name);
  if (v === undefined) return undefined;
  return wholeNumber(name, v, SHARED.get(name) ?? range);
}

/** A whole-number option, or its declared default (a number) when it is absent. */
export function intOption(args: ParsedArgs, name: string, range: IntRange = {}): number {
  const v = optionalInt(args, name, range);
  if (v !== undefined) return v;
  const d = declared(args, name).default;
  if (typeof d !== 'number') throw new Error(`--${name} declares no number as its default`);
  return d;
}

/** An option's text, or its declared default when it is absent (undefined without one). */
export function textOption(args: ParsedArgs, name: string): string | undefined {
  const d = declared(args, name).default;
  return args.values.get(name) ?? (d === undefined ? undefined : String(d));
}

/** An option that takes one of its declared choices (ARG006 otherwise), or its declared default when it is absent. */
export function choiceOption<T extends string>(args: ParsedArgs, name: string): T | undefined {
  const { choices = [] } = declared(args, name);
  const v = textOption(args, name);
  if (v === undefined || choices.includes(v)) return v as T | undefined;
  throw new UsageError(`--${name} must be ${choices.length === 1 ? choices[0] : `one of ${choices.join(', ')}`}, got '${v}'`);
}

/** `max-turns` as `maxTurns`: the key of an option in `optionsOf`'s record. */
type CamelName<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<CamelName<B>>}` : S;

/** The type of a given value of option `O`: its choices, a number, or text. */
type GivenValue<O extends OptionDecl> = O extends { readonly choices: readonly (infer C extends string)[] }
  ? C
  : O extends { readonly type: 'int' | 'number' } | { readonly default: number } | { readonly range: IntRange }
    ? number
    : string;

/** The value of option `O` in `optionsOf`'s record: a flag's boolean, or its value (undefined when absent without a default). */
type OptionValue<O extends OptionDecl> = O extends { readonly value: string } ? (O extends { readonly default: number | string } ? GivenValue<O> : GivenValue<O> | undefined) : boolean;

/** The typed record of a command's options, keyed by each option's name in camel case (`--max-turns` is `maxTurns`). */
export type OptionValues<D extends readonly OptionDecl[]> = { readonly [O in D[number] as CamelName<O['name']>]: OptionValue<O> };

const camelName = (name: string): string => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** Whether an option's value is a whole number, as its declaration states it (a number default says so too). */
function isInt(o: OptionDecl): boolean {
  return o.type === 'int' || (o.type === undefined && (typeof o.default === 'number' || o.range !== undefined || SHARED.has(o.name)));
}

/**
 * Every declared option of the parsed command, typed as its declaration
 * states it (`options` declared `as const`, declarations.ts): a flag is a
 * boolean; a value is one of its choices (ARG006 otherwise), a whole number
 * in its range (ARG005 otherwise), a finite number (ARG006 otherwise) or its
 * text; an absent one is its default, or undefined without one.
 */
export function optionsOf<const D extends readonly OptionDecl[]>(options: D, args: ParsedArgs): OptionValues<D> {
  const out: Record<string, boolean | number | string | undefined> = {};
  for (const o of options) {
    const key = camelName(o.name);
    if (o.value === undefined) {
      out[key] = args.flags.has(o.name);
      continue;
    }
    const v = args.values.get(o.name);
    if (v === undefined) out[key] = o.default;
    else if (o.choices) out[key] = choiceOption(args, o.name);
    else if (isInt(o)) out[key] = wholeNumber(o.name, v, SHARED.get(o.name) ?? o.range ?? {});
    else if (o.type === 'number') {
      const x = Number(v);
      if (!Number.isFinite(x)) throw new UsageError(`--${o.name} must be a number, got '${v}'`);
      out[key] = x;
    } else out[key] = v;
  }
  return out as OptionValues<D>;
}
