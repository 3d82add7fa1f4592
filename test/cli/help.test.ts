/**
 * `osvlab <command> --help` (src/cli/help.ts, from src/cli/declarations.ts):
 * every command has a help text, and the options it documents are exactly
 * those its parser knows, taken from the command's own unknown-option
 * message as args.test.ts does. Every option a synopsis names is declared,
 * with the same value, and docs/cli.md is the text the declarations make
 * now. Everything runs `main` in this process; nothing here gets past the
 * argument parser, so no solver and no network is started.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/declarations.ts';
import { cliReference, withReadmeCommandTable } from '../../src/cli/help.ts';
import { COMMAND_NAMES } from '../../src/cli/main.ts';
import { optionsOf, osvlab } from '../cli-main.ts';

/**
 * Each option a synopsis names, with the word after it when that is its
 * value (`--spec FILE` -> ['spec', 'FILE']; a flag -> ['json', undefined];
 * `--merge DIR...` is a flag before positionals).
 */
function synopsisOptions(synopsis: string): [string, string | undefined][] {
  return [...synopsis.matchAll(/--([a-z][\w-]*)(?: ([A-Z][A-Z0-9_/]*(?![\w.])|[a-z]+(?=[\]) ]|$)))?/g)].map((m) => [m[1], m[2]]);
}

/** The options a help text documents: the lines of its table that start with `--name`. */
function documented(help: string): string[] {
  return [...help.matchAll(/^ {2}--([a-z][\w-]*)/gm)].map((m) => m[1]);
}

describe('osvlab <command> --help', () => {
  it('covers every command', () => {
    expect(COMMAND_NAMES.length).toBeGreaterThan(10);
  });

  for (const name of COMMAND_NAMES) {
    it(`${name}: documents exactly the options its parser knows`, async () => {
      const r = await osvlab(name, '--help');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toBe('');
      expect(r.out.split('\n')[0]).toMatch(new RegExp(`^usage: osvlab ${name}( |$)`));
      const docs = documented(r.out);
      expect(new Set(docs).size, `${name} documents an option twice`).toBe(docs.length);
      expect(docs.length).toBeGreaterThan(0);
      expect([...docs].sort()).toEqual((await optionsOf(name)).sort());
      expect(r.out.split('\n').filter((l) => l.length > 80), 'lines longer than 80 columns').toEqual([]);
      expect(r.out).toMatch(/\nexit codes: 0 /);
    });

    it(`${name}: -h and help ${name} print the same text`, async () => {
      const long = await osvlab(name, '--help');
      expect(await osvlab(name, '-h')).toEqual(long);
      expect(await osvlab('help', name)).toEqual(long);
      expect(await osvlab('--help', name)).toEqual(long);
    });
  }

  it('takes --help anywhere on the line, before the command reads anything', async () => {
    const help = (await osvlab('grade', '--help')).out;
    // A missing file, an unknown option or a missing value would each be an error without it.
    expect(await osvlab('grade', '--responses', '/no/such/file.jsonl', '--help')).toEqual({ code: 0, out: help, err: '' });
    expect(await osvlab('grade', '--nope', '-h')).toEqual({ code: 0, out: help, err: '' });
    expect((await osvlab('verify', 'sys_dup', '--spec', '--help')).out).toBe((await osvlab('verify', '--help')).out);
  });

  it('only as a whole argument: --help=1 is an unknown option', async () => {
    const r = await osvlab('verify', '--help=1');
    expect(r.code).toBe(4);
    expect(r.out).toBe('');
    expect(r.err).toContain('ARG003 unknown option --help');
  });
});

describe('the declarations', () => {
  it('name in each synopsis only declared options, each with its declared value (or one of its choices)', () => {
    expect(synopsisOptions('x (--spec FILE | --oracle) [--format osvbench] [--lemmas [--full]] --merge DIR...')).toEqual([
      ['spec', 'FILE'],
      ['oracle', undefined],
      ['format', 'osvbench'],
      ['lemmas', undefined],
      ['full', undefined],
      ['merge', undefined],
    ]);
    for (const c of COMMANDS) {
      for (const form of c.synopsis) {
        expect(form.split(' ')[0], form).toBe(c.name);
        for (const [name, value] of synopsisOptions(form)) {
          const o = c.options.find((x) => x.name === name);
          expect(o, `${c.name}: --${name} in the synopsis is not declared`).toBeDefined();
          const values = o!.value === undefined ? [undefined] : [o!.value, ...(o!.choices ?? [])];
          expect(values, `${c.name}: --${name} ${value ?? ''}`).toContain(value);
        }
      }
    }
  });

  it('give each command a name of its own, and each option one', () => {
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
    for (const c of COMMANDS) expect(new Set(c.options.map((o) => o.name)).size, c.name).toBe(c.options.length);
  });

  it('make docs/cli.md as it is (npx tsx scripts/gen-cli-doc.ts writes it)', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    expect(doc, 'docs/cli.md is stale: run npx tsx scripts/gen-cli-doc.ts').toBe(cliReference());
  });

  it("make README.md's command table as it is, one row per command", () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme, "README.md's command table is stale: run npx tsx scripts/gen-cli-doc.ts").toBe(withReadmeCommandTable(readme));
    for (const name of COMMAND_NAMES) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}[ \`]`, 'm'));
  });
});

describe('osvlab help', () => {
  it('alone, or --help and -h alone, prints the overview, which points to the commands help', async () => {
    const r = await osvlab('help');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^usage: osvlab <command> \[options\]/);
    expect(r.out).toContain('osvlab <command> --help');
    for (const name of COMMAND_NAMES) expect(r.out, name).toMatch(new RegExp(`[ ;]${name} `));
    expect(await osvlab('--help')).toEqual(r);
    expect(await osvlab('-h')).toEqual(r);
    // The help of help is the overview too.
    for (const argv of [['help', 'help'], ['help', '-h'], ['--help', '--help'], ['-h', 'help']]) expect(await osvlab(...argv), argv.join(' ')).toEqual(r);
  });

  it('of an unknown command is ARG003, exit 4; of an empty one ARG001; of two, ARG006', async () => {
    for (const argv of [['help', 'nosuch'], ['--help', 'nosuch'], ['help', 'constructor']]) {
      const r = await osvlab(...argv);
      expect(r.code, argv.join(' ')).toBe(4);
      expect(r.out).toBe('');
      expect(r.err).toContain(`osvlab: ARG003 unknown command '${argv[1]}'`);
    }
    expect(await osvlab('help', '')).toMatchObject({ code: 4, out: '', err: expect.stringContaining('ARG001 the command is empty') });
    expect(await osvlab('help', 'verify', 'grade')).toMatchObject({ code: 4, out: '', err: expect.stringContaining("ARG006 unexpected argument 'grade'") });
    expect(await osvlab('nosuch', '--help')).toMatchObject({ code: 4, out: '', err: expect.stringContaining("ARG003 unknown command 'nosuch'") });
  });
});
