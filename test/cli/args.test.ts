/**
 * The one flag parser (src/cli/args.ts): empty values, missing values,
 * repeats, and the shared time limits, checked the same in every command.
 * The parser's rules are tested on it directly; "every command" is tested by
 * running `main` in this process on each command's own options (the list the
 * command prints for an unknown option), so an option added later is covered.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArgError, MAX_TIME_LIMIT_MS, type OptionDecl, UsageError, choiceOption, intOption, optionalInt, parseArgs, textOption } from '../../src/cli/args.ts';
import { declaredOptions } from '../../src/cli/declarations.ts';
import { COMMAND_NAMES } from '../../src/cli/main.ts';
import { optionsOf, osvlab } from '../cli-main.ts';

const SPEC: readonly OptionDecl[] = [
  { name: 'spec', value: 'FILE', meaning: 'a spec' },
  { name: 'budget', value: 'MS', meaning: 'a limit', default: 5, alias: 'timeout' },
  { name: 'n', value: 'N', meaning: 'a count', default: 1 },
  { name: 'mode', value: 'MODE', meaning: 'a mode', choices: ['fast', 'slow'], default: 'slow' },
  { name: 'json', meaning: 'JSON' },
];

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof ArgError ? e.code : `not coded: ${e}`;
  }
  return undefined;
}

describe('parseArgs', () => {
  it('refuses an empty value in both forms, and an empty positional (ARG001)', () => {
    expect(code(() => parseArgs(['--spec', ''], SPEC))).toBe('ARG001');
    expect(code(() => parseArgs(['--spec='], SPEC))).toBe('ARG001');
    expect(code(() => parseArgs(['sys_kill', ''], SPEC))).toBe('ARG001');
  });

  it('refuses a missing value, also when the next argument is an option (ARG002)', () => {
    expect(code(() => parseArgs(['--spec'], SPEC))).toBe('ARG002');
    expect(code(() => parseArgs(['--spec', '--json'], SPEC))).toBe('ARG002');
    // A file whose name starts with dashes is still reachable.
    expect(parseArgs(['--spec=--json'], SPEC).values.get('spec')).toBe('--json');
    expect(parseArgs(['--n', '-5'], SPEC).values.get('n')).toBe('-5');
  });

  it('codes unknown options and valued flags (ARG003, ARG004); the last of a repeated option holds', () => {
    expect(code(() => parseArgs(['--nope'], SPEC))).toBe('ARG003');
    expect(code(() => parseArgs(['--json=1'], SPEC))).toBe('ARG004');
    expect(parseArgs(['--spec', 'a.py', '--spec', 'b.py'], SPEC).values.get('spec')).toBe('b.py');
    expect(code(() => parseArgs(['--constructor'], SPEC))).toBe('ARG003');
  });

  it('takes --budget from 1 ms to 24 h, as it parses, and nothing else (ARG005), under its old spelling too', () => {
    for (const bad of ['0', '-1', '1e4', '1.5', ' 5', '0x10', String(MAX_TIME_LIMIT_MS + 1), '357913942', '99999999999999999999']) {
      expect(code(() => parseArgs(['--budget', bad], SPEC)), bad).toBe('ARG005');
      expect(code(() => parseArgs(['--timeout', bad], SPEC)), bad).toBe('ARG005');
    }
    expect(intOption(parseArgs(['--budget', '1'], SPEC), 'budget')).toBe(1);
    expect(intOption(parseArgs([`--budget=${MAX_TIME_LIMIT_MS}`], SPEC), 'budget')).toBe(MAX_TIME_LIMIT_MS);
    // The alias is the same option: the last one given holds, whichever spelling.
    expect(intOption(parseArgs(['--timeout', '7'], SPEC), 'budget')).toBe(7);
    expect(intOption(parseArgs(['--budget', '3', '--timeout', '9'], SPEC), 'budget')).toBe(9);
    // An error names the spelling that was typed.
    expect(() => parseArgs(['--timeout', '0'], SPEC)).toThrow(/^ARG005 --timeout must be/);
    // Absent: the declared default.
    expect(intOption(parseArgs([], SPEC), 'budget')).toBe(5);
    expect(optionalInt(parseArgs([], SPEC), 'budget')).toBeUndefined();
  });

  it('takes the lemma flags under their old spellings (--strict, --no-strict)', () => {
    expect([...parseArgs(['--strict'], declaredOptions('verify')).flags]).toEqual(['lemmas']);
    expect([...parseArgs(['--lemmas'], declaredOptions('verify')).flags]).toEqual(['lemmas']);
    for (const cmd of ['grade', 'run'] as const) {
      expect([...parseArgs(['--no-strict'], declaredOptions(cmd)).flags]).toEqual(['no-lemmas']);
      expect([...parseArgs(['--no-lemmas'], declaredOptions(cmd)).flags]).toEqual(['no-lemmas']);
    }
  });

  it('reads whole numbers within a range, and refuses what is not a safe integer', () => {
    const args = (v: string) => parseArgs(['--n', v], SPEC);
    expect(intOption(args('007'), 'n')).toBe(7);
    expect(code(() => intOption(args('9007199254740993'), 'n'))).toBe('ARG005');
    expect(code(() => intOption(args('0'), 'n', { min: 1 }))).toBe('ARG005');
    expect(code(() => intOption(args('65'), 'n', { max: 64 }))).toBe('ARG005');
  });

  it('gives a declared default when the option is absent, and takes only the declared choices', () => {
    expect(textOption(parseArgs([], SPEC), 'mode')).toBe('slow');
    expect(textOption(parseArgs([], SPEC), 'spec')).toBeUndefined();
    expect(choiceOption(parseArgs(['--mode', 'fast'], SPEC), 'mode')).toBe('fast');
    expect(choiceOption(parseArgs([], SPEC), 'mode')).toBe('slow');
    expect(() => choiceOption(parseArgs(['--mode', 'constructor'], SPEC), 'mode')).toThrow(UsageError);
    expect(() => choiceOption(parseArgs(['--mode', 'medium'], SPEC), 'mode')).toThrow("ARG006 --mode must be one of fast, slow, got 'medium'");
    // An option the command does not declare, or one without a number as its default, is the program's error, not the user's.
    expect(() => intOption(parseArgs([], SPEC), 'spec')).toThrow('--spec declares no number as its default');
    expect(() => textOption(parseArgs([], SPEC), 'nope')).toThrow('--nope is not an option of this command');
  });
});

describe('empty inputs that would mean something else', () => {
  it("an --impl file that defines no function is IN004, not the kernel's own handler verified", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osvlab-args-'));
    try {
      const empty = join(dir, 'impl.c');
      writeFileSync(empty, '\n  \n');
      const r = await osvlab('verify', 'sys_kill', '--oracle', '--impl', empty);
      expect(r.code).toBe(4);
      expect(r.err).toContain(`IN004 implementation '${empty}' defines no function`);
      // Nor one with only a comment and a declaration: it overrides nothing either.
      writeFileSync(empty, '/* mine */\n#include "kernel.h"\nint helper(void);\n');
      const c = await osvlab('verify', 'sys_kill', '--oracle', '--impl', empty);
      expect(c.code).toBe(4);
      expect(c.err).toContain(`IN004 implementation '${empty}' defines no function`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command itself', () => {
  it('missing is ARG006, empty is ARG001, unknown is ARG003', async () => {
    expect(await osvlab()).toMatchObject({ code: 4, err: expect.stringContaining('ARG006 which command?') });
    expect(await osvlab('')).toMatchObject({ code: 4, err: expect.stringContaining('ARG001 the command is empty') });
    expect(await osvlab('verfy')).toMatchObject({ code: 4, err: expect.stringContaining("ARG003 unknown command 'verfy'") });
  });
});

describe('every command', () => {
  it('refuses an empty value for every option it has (exit 4, ARG001; a flag given one is ARG004)', async () => {
    let tried = 0;
    for (const command of COMMAND_NAMES) {
      for (const option of await optionsOf(command)) {
        for (const argv of [[`--${option}=`], [`--${option}`, '']]) {
          const r = await osvlab(command, ...argv);
          expect(r.code, `${command} ${argv.join(' ')}: ${r.err}`).toBe(4);
          expect(r.err, `${command} ${argv.join(' ')}`).toMatch(/ARG001|ARG004/);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(60);
  });

  it('refuses a time limit of 0 and past the timers, identically wherever there is one, old spelling included', async () => {
    const timed: string[] = [];
    for (const command of COMMAND_NAMES) {
      const options = await optionsOf(command);
      const limits: string[] = options.filter((o) => o === 'budget' || o === 'query-timeout' || o === 'request-timeout');
      // --timeout, the old spelling of --budget and --query-timeout, wherever a command has one of them.
      if (limits.some((o) => o !== 'request-timeout')) limits.push('timeout');
      for (const option of limits) {
        timed.push(`${command} --${option}`);
        for (const v of ['0', '357913942', '2147483648']) {
          const r = await osvlab(command, `--${option}`, v);
          expect(r.code, `${command} --${option} ${v}`).toBe(4);
          expect(r.err).toContain(`ARG005 --${option} must be a whole number from 1 to ${MAX_TIME_LIMIT_MS} ms, got '${v}'`);
        }
      }
    }
    expect(timed).toEqual(
      expect.arrayContaining(['verify --budget', 'verify --timeout', 'lemmas --query-timeout', 'lemmas --timeout', 'grade --budget', 'run --budget', 'run --request-timeout', 'bench --budget']),
    );
  });
});
