/**
 * The text made from the commands' declarations (declarations.ts): each
 * command's help, printed by `osvlab <command> --help`, `osvlab <command> -h`
 * and `osvlab help <command>` (its synopsis, what it is for, its arguments,
 * every option with its value, choices and default, and its exit codes);
 * the overview `osvlab` prints alone or on a usage error (every command's
 * synopsis); and docs/cli.md, the same for the docs (written by
 * scripts/gen-cli-doc.ts, checked by test/cli/help.test.ts).
 */
import type { OptionDecl } from './args.ts';
import { COMMANDS, type CommandDecl, findCommand } from './declarations.ts';

/** "a, b or c", each in the order given. */
const choices = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

/** "a (default), b or c": the choices with the default marked. */
const withDefault = (xs: readonly string[], fallback: number | string | undefined): string => choices(xs.map((x) => (x === fallback ? `${x} (default)` : x)));

/** `--name VALUE`, or `--flag`. */
const optionName = (o: OptionDecl): string => `--${o.name}${o.value ? ` ${o.value}` : ''}`;

/** What an option does, with its choices, its default and its note. */
function optionText(o: OptionDecl): string {
  const tail = o.choices ? `: ${withDefault(o.choices, o.default)}` : o.default !== undefined ? ` (default ${o.default})` : '';
  return `${o.meaning}${tail}${o.note ? ` ${o.note}` : ''}${aliasNote(o)}`;
}

/** What the help says of an option's older spelling. */
function aliasNote(o: OptionDecl): string {
  return o.alias === undefined ? '' : ` (also --${o.alias}, its older spelling)`;
}

const WIDTH = 80;

/** `words` in lines of at most WIDTH characters, each after `indent` (the first after `first`, when given). */
function wrap(words: readonly string[], indent: string, first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let fresh = true;
  for (const w of words) {
    if (!fresh && line.length + 1 + w.length > WIDTH) {
      lines.push(line);
      line = indent;
      fresh = true;
    }
    line += fresh ? w : ` ${w}`;
    fresh = false;
  }
  lines.push(line);
  return lines;
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** A synopsis in pieces that stay on one line: words outside brackets, bracketed groups whole. */
function groups(synopsis: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of synopsis) {
    if (ch === ' ' && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
      continue;
    }
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') depth--;
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** Name-and-meaning rows: the meaning beside the name, or under it when the name is long. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const col = Math.min(24, Math.max(...rows.map(([k]) => k.length)) + 2);
  const indent = ' '.repeat(2 + col);
  return rows.flatMap(([k, v]) => {
    const head = `  ${k}`;
    if (head.length + 2 > indent.length) return [head, ...wrap(words(v), indent)];
    return wrap(words(v), indent, head.padEnd(indent.length));
  });
}

function render(h: CommandDecl): string {
  const out: string[] = [];
  h.synopsis.forEach((s, i) => {
    const [name, ...rest] = groups(s);
    const first = `${i === 0 ? 'usage: ' : '       '}osvlab ${name} `;
    out.push(...wrap(rest, ' '.repeat(first.length), first));
  });
  out.push('', ...wrap(words(h.purpose), ''));
  if (h.args?.length) out.push('', 'arguments:', ...table(h.args));
  out.push('', 'options:', ...table(h.options.map((o) => [optionName(o), optionText(o)] as const)));
  if (h.notes) out.push('', ...wrap(words(h.notes), ''));
  out.push('', ...wrap(words(`exit codes: ${h.exit}`), ''));
  return `${out.map((l) => l.trimEnd()).join('\n')}\n`;
}

/** The help text of command `name`, or undefined for a name that is no command. */
export function commandHelp(name: string): string | undefined {
  const h = findCommand(name);
  return h ? render(h) : undefined;
}

/** What `osvlab` prints alone, or after a usage error that names no command: every form of every command. */
export function overview(): string {
  const lines = COMMANDS.flatMap((c) =>
    c.synopsis.flatMap((s) => {
      const [name, ...rest] = groups(s);
      const first = `  ${name} `;
      return wrap(rest, ' '.repeat(first.length), first);
    }),
  );
  return ['usage: osvlab <command> [options]', '', 'commands:', ...lines.map((l) => l.trimEnd()), '', "osvlab <command> --help (or -h, or osvlab help <command>) shows a command's options.", ''].join('\n');
}

/** A table cell: pipes escaped, so a synopsis or a meaning stays in its cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** docs/cli.md: every command's declaration as Markdown (scripts/gen-cli-doc.ts writes it). */
export function cliReference(): string {
  const out = [
    '# The `osvlab` command line',
    '',
    '<!-- Generated from src/cli/declarations.ts by `npx tsx scripts/gen-cli-doc.ts`; test/cli/help.test.ts checks that it is current. -->',
    '',
    'Each command, as `osvlab <command> --help` prints it. Error codes: `docs/cli-errors.md`.',
  ];
  for (const c of COMMANDS) {
    out.push('', `## ${c.name}`, '', ...c.synopsis.map((s) => `    osvlab ${s}`), '', c.purpose);
    if (c.args?.length) out.push('', '| argument | meaning |', '| --- | --- |', ...c.args.map(([k, v]) => `| \`${cell(k)}\` | ${cell(v)} |`));
    out.push('', '| option | meaning | default |', '| --- | --- | --- |');
    for (const o of c.options) {
      const meaning = `${o.meaning}${o.choices ? `: ${choices(o.choices)}` : ''}${o.note ? ` ${o.note}` : ''}${aliasNote(o)}`;
      out.push(`| \`${optionName(o)}\` | ${cell(meaning)} | ${o.default === undefined ? '' : `\`${o.default}\``} |`);
    }
    if (c.notes) out.push('', c.notes);
    out.push('', `Exit codes: ${c.exit}`);
  }
  return `${out.join('\n')}\n`;
}

/** The marks around README.md's command table, which scripts/gen-cli-doc.ts rewrites. */
const README_TABLE_MARKS = ['<!-- commands: generated from src/cli/declarations.ts -->', '<!-- end of commands -->'] as const;

/** README.md's command table: each command's first synopsis and its purpose, in declaration order. */
function readmeCommandTable(): string {
  const rows = COMMANDS.map((c) => `| \`${cell(c.synopsis[0]!)}\` | ${cell(c.purpose)} |`);
  return ['| Command | What it does |', '|---|---|', ...rows].join('\n');
}

/** README.md with its command table (between README_TABLE_MARKS) made from the declarations. */
export function withReadmeCommandTable(readme: string): string {
  const [open, close] = README_TABLE_MARKS;
  const from = readme.indexOf(open);
  const to = readme.indexOf(close);
  if (from < 0 || to < from) throw new Error(`README.md has no command table between ${open} and ${close}`);
  return `${readme.slice(0, from + open.length)}\n${readmeCommandTable()}\n${readme.slice(to)}`;
}
