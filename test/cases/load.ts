/**
 * The one loader of golden case files (the grammar is in README.md beside
 * this file). `loadCases(feature)` lists the cases of test/cases/<feature>/,
 * either flat or one folder per handler, and parses each file's header. It
 * throws, naming the file, on a missing or empty folder, a case without an
 * expectation, a malformed `expect:` line or a header line it cannot place:
 * a case that silently expects nothing would pass whatever the product does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const CASES = import.meta.dirname;
const ROOT = join(CASES, '..', '..');

interface Diagnostic {
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** What a case must give; one `expect:` line each. */
export type Expectation =
  /** Checking fails with this error (spec or C front end). */
  | ({ readonly kind: 'error' } & Diagnostic)
  /** Checking gives this warning. */
  | ({ readonly kind: 'warning' } & Diagnostic)
  /** The C front end accepts the file, executing `fn` fails with this error. */
  | { readonly kind: 'exec-error'; readonly fn: string; readonly code: string; readonly line: number; readonly column: number; readonly message: string }
  /** Executing `fn` records this safety condition (`check` is its kind: bounds, div-zero, ...). */
  | { readonly kind: 'safety'; readonly fn: string; readonly check: string; readonly line: number; readonly column: number; readonly message: string }
  | { readonly kind: 'verified' }
  /** Refinement fails; each named obligation is among the failed ones. */
  | { readonly kind: 'refuted'; readonly obligations: readonly string[] }
  /** The lemma check fails this lemma (and the lemmas including it), nothing else. */
  | { readonly kind: 'lemma-fail'; readonly lemma: string }
  /** Compared by meaning with the handler's oracle: equivalent, differing in exactly these ghost fields (none: the same). */
  | { readonly kind: 'equivalent'; readonly ghost: readonly string[] }
  /** Compared by meaning with the handler's oracle: different, each of these (cond, backed field paths) among what differs. */
  | { readonly kind: 'different'; readonly fields: readonly string[] };

export type ExpectationKind = Expectation['kind'];

/** Header keys besides `expect`; any other `word: ...` line is an error, lines that are not `word: ...` are prose. */
const FIELDS = ['handler', 'upstream', 'mistake', 'gcc'] as const;
export type Field = (typeof FIELDS)[number];

export interface Header {
  readonly expectations: readonly Expectation[];
  readonly fields: Readonly<Partial<Record<Field, string>>>;
  /** How many leading lines the header takes (the case's code starts after them). */
  readonly lines: number;
}

export interface Case {
  readonly feature: string;
  /** The folder the file is in below the feature, which names its handler; undefined in a flat feature. */
  readonly group?: string;
  /** The file name. */
  readonly name: string;
  /** Path from the repository root. */
  readonly path: string;
  readonly text: string;
  readonly header: Header;
  /** The header's `handler:`, else the group, else undefined. */
  readonly handler?: string;
  /** The text after the header. */
  readonly body: string;
}

/** A case's expectations of one kind. */
export function expectations<K extends ExpectationKind>(c: Case | Header, kind: K): Extract<Expectation, { kind: K }>[] {
  const h = 'header' in c ? c.header : c;
  return h.expectations.filter((e): e is Extract<Expectation, { kind: K }> => e.kind === kind);
}

const COMMENT: Record<string, string> = { '.py': '#', '.c': '//' };
const POS = /^(\d+):(\d+)$/;
const CODE = /^[A-Z]+\d{3}$/;
const NAME = /^[\w.#-]+$/;

function diagnostic(args: string, withFn: boolean): { fn?: string; code: string; line: number; column: number; message: string } | undefined {
  const words = args.split(' ');
  const fn = withFn ? words.shift() : undefined;
  const code = words.shift();
  const pos = POS.exec(words.shift() ?? '');
  const message = words.join(' ');
  if ((withFn && !fn?.match(/^\w+$/)) || !code || !pos || !message) return undefined;
  return { fn, code, line: Number(pos[1]), column: Number(pos[2]), message };
}

/** One expectation from `<kind> <args>`; throws with the grammar of that kind when malformed. */
export function parseExpectation(spec: string): Expectation {
  const m = /^([a-z-]+)(?: (.*))?$/.exec(spec.trim());
  const kind = m?.[1] ?? '';
  const args = m?.[2]?.trim() ?? '';
  const bad = (grammar: string) => new Error(`malformed expectation 'expect: ${spec.trim()}': want 'expect: ${grammar}'`);
  switch (kind) {
    case 'error':
    case 'warning': {
      const d = diagnostic(args, false);
      if (!d || !CODE.test(d.code)) throw bad(`${kind} CODE LINE:COL MESSAGE`);
      return { kind, code: d.code, line: d.line, column: d.column, message: d.message };
    }
    case 'exec-error': {
      const d = diagnostic(args, true);
      if (!d || !CODE.test(d.code)) throw bad('exec-error FUNCTION CODE LINE:COL MESSAGE');
      return { kind, fn: d.fn!, code: d.code, line: d.line, column: d.column, message: d.message };
    }
    case 'safety': {
      const d = diagnostic(args, true);
      if (!d || !/^[a-z-]+$/.test(d.code)) throw bad('safety FUNCTION CHECK LINE:COL MESSAGE');
      return { kind, fn: d.fn!, check: d.code, line: d.line, column: d.column, message: d.message };
    }
    case 'verified':
      if (args) throw bad('verified');
      return { kind };
    case 'refuted': {
      const obligations = args ? args.split(/\s+/) : [];
      if (!obligations.every((o) => NAME.test(o))) throw bad('refuted [OBLIGATION ...]');
      return { kind, obligations };
    }
    case 'lemma-fail':
      if (!/^\w+$/.test(args)) throw bad('lemma-fail LEMMA');
      return { kind, lemma: args };
    case 'equivalent':
    case 'different': {
      const names = args ? args.split(/\s+/) : [];
      if (!names.every((n) => NAME.test(n)) || (kind === 'different' && !names.length)) throw bad(kind === 'different' ? 'different FIELD ...' : 'equivalent [GHOST-FIELD ...]');
      return kind === 'equivalent' ? { kind, ghost: names } : { kind, fields: names };
    }
    default:
      throw bad('<error|warning|exec-error|safety|verified|refuted|lemma-fail|equivalent|different> ...');
  }
}

/**
 * Reads the header of a case text: its leading comment lines (`comment` is
 * `#` or `//`). A spelling from before this grammar (`expect-error: X`,
 * `// expect-error X`, `verdict: verified`) is refused with the line to write.
 */
export function parseHeader(text: string, comment: string, file = 'case'): Header {
  const lines = text.split('\n');
  const expectationsOut: Expectation[] = [];
  const fields: Partial<Record<Field, string>> = {};
  let n = 0;
  for (; n < lines.length && lines[n].startsWith(comment); n++) {
    const line = lines[n].slice(comment.length).trim();
    const where = `${file}:${n + 1}`;
    const old = /^expect-([a-z-]+):? (.*)$/.exec(line) ?? /^(verdict): (.*)$/.exec(line);
    const kv = /^([a-z][\w-]*):(?: (.*))?$/.exec(line);
    try {
      if (old) throw new Error(`'${line}' is an old spelling; write '${comment} expect: ${old[1] === 'verdict' ? '' : old[1] + ' '}${old[2]}'`);
      if (kv?.[1] === 'expect') expectationsOut.push(parseExpectation(kv[2] ?? ''));
      else if (kv && (FIELDS as readonly string[]).includes(kv[1])) {
        if (!kv[2]?.trim()) throw new Error(`'${kv[1]}:' needs a value`);
        if (fields[kv[1] as Field] !== undefined) throw new Error(`'${kv[1]}:' given twice`);
        fields[kv[1] as Field] = kv[2].trim();
      } else if (kv || /^expect/i.test(line)) throw new Error(`'${line}' is not a header line (keys: expect, ${FIELDS.join(', ')})`);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
  }
  if (!expectationsOut.length) throw new Error(`${file}: no 'expect:' line in the leading comment lines; every case file must state what it expects (test/cases/README.md)`);
  return { expectations: expectationsOut, fields, lines: n };
}

function caseOf(feature: string, group: string | undefined, dir: string, name: string, root: string): Case {
  const file = join(dir, name);
  const path = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const header = parseHeader(text, COMMENT[name.slice(name.lastIndexOf('.'))], path);
  return {
    feature,
    group,
    name,
    path,
    text,
    header,
    handler: header.fields.handler ?? group,
    body: text.split('\n').slice(header.lines).join('\n'),
  };
}

const isCase = (name: string) => Object.keys(COMMENT).some((ext) => name.endsWith(ext));

/**
 * The cases of test/cases/<feature>/, sorted by group then name: the .py
 * and .c files directly in it, or in its subfolders (one per handler).
 * Other files (C headers the cases include) are not cases. `cases` is the
 * folder holding the features (another one only in the loader's own test).
 */
export function loadCases(feature: string, cases = CASES): Case[] {
  const dir = join(cases, feature);
  const root = cases === CASES ? ROOT : cases;
  const where = relative(root, dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${where} is missing: the golden cases are part of the repository`);
  const out: Case[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const sub = join(dir, entry);
    if (statSync(sub).isDirectory()) {
      const files = readdirSync(sub).filter(isCase).sort();
      if (!files.length) throw new Error(`${where}/${entry} holds no case file`);
      for (const f of files) out.push(caseOf(feature, entry, sub, f, root));
    } else if (isCase(entry)) out.push(caseOf(feature, undefined, dir, entry, root));
  }
  if (!out.length) throw new Error(`${where} holds no case file`);
  return out;
}

/** The absolute path of a feature's folder (for the support files a case includes). */
export function featureDir(feature: string): string {
  return join(CASES, feature);
}
