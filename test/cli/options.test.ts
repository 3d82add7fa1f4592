/**
 * A command's options read as their declarations type them (src/cli/args.ts
 * `optionsOf`, src/cli/declarations.ts `parseCommand`): flags as booleans,
 * whole numbers in their range, finite numbers, choices, text, and the
 * declared default of an absent option; a bad value is refused with the code
 * and message the per-option readers give.
 */
import { describe, expect, it } from 'vitest';
import { UsageError, optionsOf, parseArgs } from '../../src/cli/args.ts';
import { commandOptions, parseCommand } from '../../src/cli/declarations.ts';
import { DEFAULT_GRADE_TIMEOUT_MS } from '../../src/core/eval/grade/grade-types.ts';
import { RUN_DEFAULTS } from '../../src/core/eval/session/config.ts';

const DECL = [
  { name: 'spec', value: 'FILE', meaning: 'a file' },
  { name: 'json', meaning: 'json' },
  { name: 'max-turns', value: 'N', meaning: 'turns', default: 3 },
  { name: 'limit', value: 'N', type: 'int', range: { min: 1, max: 9 }, meaning: 'at most' },
  { name: 'temperature', value: 'T', type: 'number', meaning: 'sampling' },
  { name: 'mode', value: 'M', meaning: 'mode', choices: ['fast', 'slow'], default: 'slow' },
  { name: 'budget', value: 'MS', meaning: 'budget', default: 5, alias: 'timeout' },
] as const;

/** The code of the usage error `f` throws. */
function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof UsageError ? e.code : 'not a usage error';
  }
  return undefined;
}

describe('optionsOf', () => {
  it('gives every declared option, typed, keyed in camel case, with its default when absent', () => {
    const none = optionsOf(DECL, parseArgs([], DECL));
    expect(none).toEqual({ spec: undefined, json: false, maxTurns: 3, limit: undefined, temperature: undefined, mode: 'slow', budget: 5 });
    const all = optionsOf(DECL, parseArgs(['--spec', 'a.py', '--json', '--max-turns=7', '--limit', '9', '--temperature', '0.5', '--mode', 'fast', '--timeout', '12'], DECL));
    expect(all).toEqual({ spec: 'a.py', json: true, maxTurns: 7, limit: 9, temperature: 0.5, mode: 'fast', budget: 12 });
    // The types follow the declaration: these lines only compile if they do.
    const turns: number = all.maxTurns;
    const limit: number | undefined = all.limit;
    const mode: 'fast' | 'slow' = all.mode;
    const json: boolean = all.json;
    expect([turns, limit, mode, json]).toEqual([7, 9, 'fast', true]);
  });

  it("refuses a value out of its option's type with the per-option readers' codes and messages", () => {
    const of = (...argv: string[]) => () => optionsOf(DECL, parseArgs(argv, DECL));
    expect(code(of('--limit', '0'))).toBe('ARG005');
    expect(of('--limit', '10')).toThrow("ARG005 --limit must be a whole number from 1 to 9, got '10'");
    expect(code(of('--max-turns', '1.5'))).toBe('ARG005');
    expect(of('--temperature', 'hot')).toThrow("ARG006 --temperature must be a number, got 'hot'");
    expect(of('--mode', 'medium')).toThrow("ARG006 --mode must be one of fast, slow, got 'medium'");
  });

  it("reads a real command's options from its declaration", () => {
    const { args, options } = parseCommand('run', ['--provider', 'openai', '--model', 'm', '--agent', '--max-turns', '4', '--temperature', '0.2']);
    expect(options.provider).toBe('openai');
    expect(options.agent).toBe(true);
    expect(options.maxTurns).toBe(4);
    expect(options.temperature).toBe(0.2);
    expect(options.budget).toBe(DEFAULT_GRADE_TIMEOUT_MS);
    expect(options.n).toBe(RUN_DEFAULTS.n);
    expect(options.extract).toBe('osvlab');
    expect(commandOptions('run', args)).toEqual(options);
    expect(parseCommand('verify', ['sys_dup', '--oracle', '--timeout', '99']).options).toMatchObject({ oracle: true, budget: 99, lemmas: false, json: false });
    expect(code(() => parseCommand('publish', ['--check', 'd', '--concurrency', '0']))).toBe('ARG005');
    expect(code(() => parseCommand('run', ['--reasoning-effort', 'huge']))).toBe('ARG006');
    expect(code(() => parseCommand('bench', ['--limit', 'x']))).toBe('ARG005');
  });
});
