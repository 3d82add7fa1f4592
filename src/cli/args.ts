/**
 * A small, strict command-line parser: `--name value`, `--name=value`,
 * boolean `--flag`, positionals. Unknown options are a usage error.
 */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  /** Options taking a value. */
  readonly values?: readonly string[];
  /** Boolean flags. */
  readonly flags?: readonly string[];
}

export interface ParsedArgs {
  readonly positionals: string[];
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
}

export function parseArgs(argv: readonly string[], spec: OptionSpec): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  const valueNames = new Set(spec.values ?? []);
  const flagNames = new Set(spec.flags ?? []);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || a === '--') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (valueNames.has(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      values.set(name, v);
    } else if (flagNames.has(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
    } else {
      const known = [...valueNames, ...flagNames].map((n) => `--${n}`).join(', ');
      throw new UsageError(`unknown option --${name}${known ? ` (known: ${known})` : ''}`);
    }
  }
  return { positionals, values, flags };
}

/** A non-negative integer option, or the default. */
export function intOption(args: ParsedArgs, name: string, fallback: number): number {
  const v = args.values.get(name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
}
