/**
 * The docs are true about the tree and the CLI: every file or folder that
 * README.md or a docs/*.md names exists, every `osvlab` command line they
 * show uses a declared command with options that command declares
 * (src/cli/declarations.ts, which the parser reads), and every `npm run`
 * script they name is in package.json.
 *
 * What counts as a path, read from code spans and fenced blocks:
 * - one that starts with a top-level entry of the repository (`src/...`,
 *   `docs/x.md`) must exist; `*`, `<placeholder>` and an upper-case
 *   placeholder (`NN-name.md`, `FILE`) match any name; paths under the
 *   ignored build folders (test-artifacts/, dist/, .osvlab/) are not
 *   checked, nothing commits them;
 * - a shorter source path (`lib/markdown.ts`, `serve.ts`) must be the end
 *   of some tracked file's path;
 * - in a layout block, a line that starts with a folder (`src/worker/  a.ts,
 *   b.ts`) names files of that folder, and so do the lines indented under it.
 * Data files a run writes (`run.json`, `my.c`) are examples, not the tree.
 *
 * A flag shown outside an `osvlab` command line (`--full` in a sentence or
 * a span of its own) is read against the tool its span starts with, else the
 * last tool a span of its paragraph started with: a script's flag must be
 * read by the script's code, an `osvlab` flag declared by a command the
 * paragraph names (by some command, where it names none); other programs'
 * flags (sbatch, vllm) are not checked.
 *
 * README.md's CLI table is the overview a newcomer reads first: it names
 * every declared command, each option it shows belongs to its row's command
 * (or to the command its code span starts with), the exit codes it quotes
 * and the defaults it gives in seconds are the declaration's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/declarations.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const TRACKED = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const TOP = new Set(TRACKED.map((f) => f.split('/')[0]));
const IGNORED = new Set(['test-artifacts', 'dist', '.osvlab', 'node_modules']);
/** Source files, whose short names are checked; data files (json, c, h, py) are too often examples. */
const SOURCE = /\.(ts|mts|mjs|svelte)$/;
const SCRIPTS = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** The code of a Markdown text: fenced blocks (line by line, a `\` continuation joined) and inline spans. */
function codeOf(md: string): { blocks: string[]; spans: string[] } {
  const blocks = [...md.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1].replace(/\\\n\s*/g, ' '));
  const prose = md.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const spans = [...prose.matchAll(/(`+)([^`]+?)\1/g)].map((m) => m[2]);
  return { blocks, spans };
}

/** A path pattern as a regular expression over the tracked files: `*`, `<x>` and upper-case words match a name part. */
function pattern(path: string): RegExp {
  const parts = path.split(/(\*|<[^>]*>|\b[A-Z][A-Z0-9_]*\b)/);
  const body = parts.map((p, i) => (i % 2 ? '[^/]+' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}${path.endsWith('/') ? '' : '(/|$)'}`);
}

/** Is `path` (relative to the repository) a tracked file or folder? */
function exists(path: string): boolean {
  const p = path.replace(/^\.\//, '');
  if (existsSync(join(root, p))) return true;
  const re = pattern(p);
  return /[*<A-Z]/.test(p) && TRACKED.some((f) => re.test(f));
}

const PATH = /(?<![\w.\/<>*-])((?:\.\/)?[\w.<>*-]+(?:\/[\w.<>*-]+)*\/?)/g;

/** The paths that `code` names that do not exist (see the header for the rules). */
function missingPaths(code: string, isTracked: (p: string) => boolean = exists, tracked: readonly string[] = TRACKED): string[] {
  const out: string[] = [];
  const check = (p: string) => {
    const first = p.replace(/^\.\//, '').split('/')[0];
    if (IGNORED.has(first)) return;
    if (TOP.has(first) && p.includes('/')) {
      if (!isTracked(p)) out.push(p);
    } else if (SOURCE.test(p) && /^\w/.test(p) && !/[*<]/.test(p) && !tracked.some((f) => f === p || f.endsWith(`/${p}`))) out.push(p);
  };
  for (const m of code.matchAll(PATH)) check(m[1]);
  // Layout lines: `DIR/  names` and the lines indented under them.
  const stack: { indent: number; dir: string }[] = [];
  for (const line of code.split('\n')) {
    const indent = line.length - line.trimStart().length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const words = line.replace(/\([^)]*\)/g, '').trim().split(/[\s,]+/).filter(Boolean);
    const head = words[0] ?? '';
    const parent = stack[stack.length - 1]?.dir;
    const dir = head.endsWith('/') ? (TOP.has(head.split('/')[0]) ? head : parent ? parent + head : undefined) : undefined;
    if (dir) {
      stack.push({ indent, dir });
      for (const w of words.slice(1)) if (/\.\w+$/.test(w) && !w.includes('/')) if (!isTracked(dir + w)) out.push(dir + w);
    } else if (parent && /\.\w+$/.test(head)) {
      for (const w of words.filter((x) => /^[\w.*-]+(\/[\w.*-]+)*\.\w+$/.test(x))) if (!isTracked(parent + w)) out.push(parent + w);
    }
  }
  return out;
}

/** Each `osvlab` command line in `code`: at the start of a line or span, after `$ `, `npx ` or a shell operator. */
function commandLines(code: string): { command: string; options: string[] }[] {
  const out: { command: string; options: string[] }[] = [];
  for (const m of code.matchAll(/(?:^|[|;&(]\s*|\$ |npx )(?:[A-Z_]+=\S* )*osvlab\s+([a-z][\w-]*)([^\n|;&`)]*)/gm)) {
    out.push({ command: m[1], options: [...m[2].matchAll(/(?<![\w-])--([a-z][\w-]*)/g)].map((f) => f[1]) });
  }
  return out;
}

/** What is wrong with an `osvlab` command line, or undefined. */
function commandProblem(line: { command: string; options: string[] }): string | undefined {
  if (line.command === 'help') return undefined;
  const decl = COMMANDS.find((c) => c.name === line.command);
  if (!decl) return `no command ${line.command}`;
  const bad = line.options.filter((o) => o !== 'help' && !decl.options.some((d) => d.name === o || d.alias === o));
  return bad.length ? `osvlab ${line.command} has no ${bad.map((b) => `--${b}`).join(', ')}` : undefined;
}

/** What a span or a fenced line starts with: an `osvlab` command, a TypeScript script of the repository, or another program. */
type Tool = { readonly kind: 'osvlab'; readonly command: string } | { readonly kind: 'script'; readonly file: string } | { readonly kind: 'other' };

/** The tool `code` starts with (after `$ `, `x=$(`, `VAR=x`, `npx`, `tsx`, `node`), if it starts with one. */
function toolOf(code: string): Tool | undefined {
  const words = code.trim().replace(/^\$ /, '').replace(/^\w+=\$\(/, '').split(/\s+/).filter((w) => !/^[A-Z_]+=/.test(w));
  while (['npx', 'tsx', 'node'].includes(words[0]) && words.length > 1) words.shift();
  const [first = '', second = ''] = words;
  if (first === 'osvlab') return /^[a-z][\w-]*$/.test(second) ? { kind: 'osvlab', command: second } : undefined;
  if (COMMANDS.some((c) => c.name === first)) return { kind: 'osvlab', command: first };
  if (/^(?:\.\/)?(?:scripts|perf|test)\/[\w./-]+\.(?:ts|mjs)$/.test(first)) return { kind: 'script', file: first.replace(/^\.\//, '') };
  return /^[a-z][\w./-]*$/.test(first) ? { kind: 'other' } : undefined;
}

/** A flag shown outside an `osvlab` command line, with what it is read against. */
interface BareFlag {
  readonly flag: string;
  /** The tool its own span or line starts with, else the last one a span of its paragraph started with before it. */
  readonly tool: Tool | undefined;
  /** The `osvlab` commands the spans of its paragraph name. */
  readonly commands: readonly string[];
}

/**
 * The flags a doc shows outside an `osvlab` command line: `--full` alone in a
 * span, a flag in prose, a script's flag. A paragraph is a fenced line, a
 * table row, a list item, or prose up to a blank line; tools count only in
 * code.
 */
function bareFlags(md: string): BareFlag[] {
  const out: BareFlag[] = [];
  const fenced = [...md.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((m) => m[1].replace(/\\\n\s*/g, ' ').split('\n').map((l) => [`\`${l}\``]));
  const prose = md
    .replace(/^```[^\n]*\n[\s\S]*?^```/gm, '')
    .split(/\n\s*\n/)
    .flatMap((p) => p.split(/\n(?=\||\s*(?:[-*]|\d+\.) )/))
    .map((p) => p.split(/(`+[^`]+?`+)/));
  for (const parts of [...fenced, ...prose]) {
    const spans = parts.filter((t) => t.startsWith('`')).map((t) => t.replace(/^`+|`+$/g, ''));
    const commands = spans.flatMap((t) => {
      const tool = toolOf(t);
      return tool?.kind === 'osvlab' ? [tool.command] : [];
    });
    let last: Tool | undefined;
    for (const part of parts) {
      const code = part.startsWith('`');
      const text = part.replace(/^`+|`+$/g, '');
      const own = code ? toolOf(text) : undefined;
      if (!(own?.kind === 'osvlab' && commandLines(text).length)) {
        for (const m of text.matchAll(/(?<![\w-])--([a-z][\w-]*)/g)) out.push({ flag: m[1], tool: own ?? last, commands });
      }
      if (own) last = own;
    }
  }
  return out;
}

/**
 * What is wrong with a bare flag, or undefined: a script's flag its code
 * never reads, an `osvlab` flag that no command its paragraph names declares
 * (no command at all, where the paragraph names none). Other programs' flags
 * are theirs.
 */
function flagProblem({ flag, tool, commands }: BareFlag, scriptText: (file: string) => string = readScript): string | undefined {
  if (flag === 'help' || tool?.kind === 'other') return undefined;
  if (tool?.kind === 'script') return new RegExp(`['"\`]--${flag}\\b|['"]${flag}['"]`).test(scriptText(tool.file)) ? undefined : `${tool.file} reads no --${flag}`;
  const declared = COMMANDS.filter((c) => c.options.some((o) => o.name === flag || o.alias === flag)).map((c) => c.name);
  if (commands.length === 0) return declared.length ? undefined : `no osvlab command has --${flag}`;
  return commands.some((c) => declared.includes(c)) ? undefined : `--${flag} beside ${[...new Set(commands)].join(', ')}, which have no --${flag}`;
}

/** A script's code without its comments (a usage line in a header is a claim, not the parser). */
function readScript(file: string): string {
  const path = join(root, file);
  if (!existsSync(path)) return '';
  return readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*(\/\/|#).*$/gm, '');
}

/** The rows of the Markdown table under `## heading`: cells, split at `|` that are not `\\|`. */
function tableRows(md: string, heading: string): string[][] {
  const section = md.split(/^## /m).find((s) => s.startsWith(`${heading}\n`)) ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) => l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|')));
}

/** The (command, option) pairs of a README CLI table row; `--x` spans belong to the row's first command. */
function rowOptions(row: string[]): { command: string; options: string[] }[] {
  const names = new Set(COMMANDS.map((c) => c.name));
  let rowCommand: string | undefined;
  const out: { command: string; options: string[] }[] = [];
  for (const [i, cell] of row.entries()) {
    for (const [, span] of cell.matchAll(/`([^`]+)`/g)) {
      const first = span.split(/\s+/)[0];
      const command = names.has(first) ? first : span.startsWith('--') ? rowCommand : i === 0 ? first : undefined;
      if (command === undefined) continue;
      if (i === 0) rowCommand ??= command;
      out.push({ command, options: [...span.matchAll(/(?<![\w-])--([a-z][\w-]*)/g)].map((m) => m[1]) });
    }
  }
  return out;
}

describe('docs', () => {
  const code = DOCS.map((d) => ({ doc: d, ...codeOf(readFileSync(join(root, d), 'utf8')) }));

  it('reads the docs it checks', () => {
    expect(DOCS.length).toBeGreaterThan(15);
    const lines = code.flatMap((c) => [...c.blocks, ...c.spans].flatMap(commandLines));
    expect(lines.length).toBeGreaterThan(60);
    expect(new Set(lines.map((l) => l.command)).size).toBeGreaterThan(10);
  });

  it('name only paths that exist', () => {
    const bad = code.flatMap(({ doc, blocks, spans }) => [...blocks, ...spans].flatMap((c) => missingPaths(c).map((p) => `${doc}: ${p}`)));
    expect([...new Set(bad)]).toEqual([]);
  });

  it('show only declared commands and options', () => {
    const bad = code.flatMap(({ doc, blocks, spans }) =>
      [...blocks, ...spans].flatMap(commandLines).flatMap((l) => {
        const p = commandProblem(l);
        return p ? [`${doc}: ${p}`] : [];
      }),
    );
    expect([...new Set(bad)]).toEqual([]);
  });

  it('name a flag outside an osvlab line only where its command or script takes it', () => {
    const found = DOCS.map((d) => ({ doc: d, flags: bareFlags(readFileSync(join(root, d), 'utf8')) }));
    expect(found.flatMap((f) => f.flags).length).toBeGreaterThan(50);
    const bad = found.flatMap(({ doc, flags }) => flags.flatMap((f) => {
      const p = flagProblem(f);
      return p ? [`${doc}: ${p}`] : [];
    }));
    expect([...new Set(bad)]).toEqual([]);
  });

  it('run only npm scripts package.json has', () => {
    const bad = code.flatMap(({ doc, blocks, spans }) =>
      [...blocks, ...spans].flatMap((c) => [...c.matchAll(/\bnpm run ([\w:-]+)/g)].filter((m) => !SCRIPTS.includes(m[1])).map((m) => `${doc}: npm run ${m[1]}`)),
    );
    expect(bad).toEqual([]);
  });

  it("README's CLI table: every command, only its own options, the declared exit codes and defaults", () => {
    const rows = tableRows(readFileSync(join(root, 'README.md'), 'utf8'), 'The CLI');
    expect(rows.length).toBeGreaterThan(10);
    const lines = rows.flatMap(rowOptions);
    expect(COMMANDS.map((c) => c.name).filter((n) => !lines.some((l) => l.command === n)), 'commands the table leaves out').toEqual([]);
    expect(lines.map(commandProblem).filter(Boolean)).toEqual([]);
    for (const row of rows) {
      const command = rowOptions(row)[0].command;
      const decl = COMMANDS.find((c) => c.name === command)!;
      const exit = /Exit codes: ([^|]*?)\s*$/.exec(row[1]);
      if (exit) expect(exit[1], `${command}'s exit codes`).toBe(decl.exit);
      for (const m of row[1].matchAll(/`--([a-z][\w-]*)[^`]*`[^`]*?\((\d+) s by default\)/g)) {
        expect(Number(decl.options.find((o) => o.name === m[1])?.default) / 1000, `${command} --${m[1]}'s default`).toBe(Number(m[2]));
      }
    }
    // What it reads from a row: the first command's options, a span naming another command, the `\|` of a cell.
    const row = tableRows('## The CLI\n\n| a | b |\n|---|---|\n| `run --n N`, `--shard K/N` | `--seed S`; `tasks --format osvbench`; `regrade DIR\\|FILE` |\n', 'The CLI');
    expect(row).toEqual([['`run --n N`, `--shard K/N`', '`--seed S`; `tasks --format osvbench`; `regrade DIR|FILE`']]);
    expect(rowOptions(row[0])).toEqual([
      { command: 'run', options: ['n'] },
      { command: 'run', options: ['shard'] },
      { command: 'run', options: ['seed'] },
      { command: 'tasks', options: ['format'] },
      { command: 'regrade', options: [] },
    ]);
  });

  it('finds what is wrong', () => {
    const tracked = ['src/cli/main.ts', 'src/worker/web-pool.ts', 'src/core/pool/pool.ts', 'src/app/lib/markdown.ts', 'docs/cli.md'];
    const has = (p: string) => tracked.some((f) => pattern(p.replace(/^\.\//, '')).test(f));
    expect(missingPaths('see `src/worker/pool.ts` and docs/cli.md', has, tracked)).toEqual(['src/worker/pool.ts']);
    expect(missingPaths('lib/markdown.ts, lib/marks.ts, the `.ts` files, docs/*.md, src/app/lib/<x>.ts, test-artifacts/site-x/', has, tracked)).toEqual(['lib/marks.ts']);
    expect(missingPaths('src/worker/   web-pool.ts, pool.ts (the adapter; src/core/pool/)\nsrc/app/\n  lib/markdown.ts  main.ts   the entry', has, tracked)).toEqual([
      'src/worker/pool.ts',
      'src/app/main.ts',
    ]);
    const lines = commandLines('$ osvlab verify sys_dup --oracle --jsn\nkilled the osvlab process\nX=1 osvlab nope --a | osvlab lemmas --only a');
    expect(lines).toEqual([
      { command: 'verify', options: ['oracle', 'jsn'] },
      { command: 'nope', options: ['a'] },
      { command: 'lemmas', options: ['only'] },
    ]);
    expect(lines.map(commandProblem)).toEqual(['osvlab verify has no --jsn', 'no command nope', undefined]);
    // Bare flags: read against their span's tool, else the paragraph's last one, else its osvlab commands, else any.
    const md = [
      'With `osvlab bench --corpus F`, `--full` also checks; `--only` too.',
      '',
      '- `osvlab verify X` and `--full`',
      '- `--fresh` and `--frsh` and `--jsn`',
      '',
      '`npx tsx scripts/gen.ts` (`--fresh` redoes all, `--frsh` not), `sbatch --parsable`, `--jsn`',
      '',
      '```',
      '$ osvlab lemmas --only a',
      'jid=$(sbatch --array=0-3 x)',
      '```',
    ].join('\n');
    const flags = bareFlags(md);
    expect(flags.map((f) => f.flag)).toEqual(['array', 'full', 'only', 'full', 'fresh', 'frsh', 'jsn', 'fresh', 'frsh', 'parsable', 'jsn']);
    const script = (file: string) => (file === 'scripts/gen.ts' ? "const fresh = argv.includes('--fresh'); // --frsh" : '');
    expect(flags.map((f) => flagProblem(f, script))).toEqual([
      undefined,
      undefined,
      '--only beside bench, which have no --only',
      '--full beside verify, which have no --full',
      'no osvlab command has --fresh',
      'no osvlab command has --frsh',
      'no osvlab command has --jsn',
      undefined,
      'scripts/gen.ts reads no --frsh',
      undefined,
      undefined,
    ]);
  });
});
