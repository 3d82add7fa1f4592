/**
 * Static checks on the oracle specs, the functional descriptions and the
 * spec test cases (tasks/hv6/specs, tasks/hv6/descriptions,
 * test/cases/refute, test/cases/lemma). No Python and no solver: these only
 * read the files, so they catch a missing file, a wrong signature or a case
 * without an expectation before the verifier ever runs.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HANDLERS, type HandlerInfo } from '../../src/core/kernel/handlers.ts';
import { ALL_FIELDS } from '../../src/core/kernel/schema.ts';
import { type Case, loadCases } from '../cases/load.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SPECS = join(ROOT, 'tasks', 'hv6', 'specs');
const SHARED = join(SPECS, '_shared');
const DESCRIPTIONS = join(ROOT, 'tasks', 'hv6', 'descriptions');

const HEADER = ['import z3', 'from libirpy import util', 'import hv6py.kernel.spec.datatypes as dt'];
const HELPERS_LINE = /^from hv6py\.kernel\.spec\.helpers import (.+)$/;
const VALID_HELPERS = [
  'is_dmapn_valid', 'is_fd_valid', 'is_fn_valid', 'is_intremap_valid', 'is_pcipn_valid', 'is_pid_valid', 'is_pn_valid',
];
const LEMMAS = [
  'isolation', 'iommu_isolation', 'nr_children_refcnt', 'nr_fds_refcnt', 'nr_pages_refcnt', 'nr_dmapages_refcnt',
  'nr_devs_refcnt', 'nr_ports_refcnt', 'nr_vectors_refcnt', 'nr_intremaps_refcnt', 'files_refcnt',
];
const OBLIGATIONS = new Set(['cond', ...ALL_FIELDS.map((f) => f.path)]);

const read = (path: string) => readFileSync(path, 'utf8');
const lines = (text: string) => text.split('\n');

/** Strips `#` comments and string literals, leaving the code a reader would execute. */
function code(text: string): string {
  return lines(text)
    .map((l) => l.replace(/'[^']*'|"[^"]*"/g, "''").replace(/#.*$/, ''))
    .join('\n');
}

/** The helper names a file imports, or [] when it has no helper import line. */
function importedHelpers(text: string): string[] {
  const m = lines(text)[3]?.match(HELPERS_LINE);
  return m ? m[1].split(',').map((s) => s.trim()) : [];
}

/** Problems with the import header of a spec text (empty when it is right). */
function headerProblems(text: string): string[] {
  const ls = lines(text);
  const out: string[] = [];
  HEADER.forEach((h, i) => {
    if (ls[i] !== h) out.push(`line ${i + 1} should be '${h}', is '${ls[i]}'`);
  });
  const imported = importedHelpers(text);
  for (const n of imported) if (!VALID_HELPERS.includes(n)) out.push(`imports unknown helper ${n}`);
  const body = code(ls.slice(4).join('\n'));
  for (const n of imported) if (!new RegExp(`\\b${n}\\(`).test(body)) out.push(`imports ${n} but never calls it`);
  for (const n of VALID_HELPERS) {
    if (new RegExp(`\\b${n}\\(`).test(body) && !imported.includes(n)) out.push(`calls ${n} without importing it`);
  }
  return out;
}

/** The `def` line of the handler's entry function, checked against handlers.ts. */
function entryProblems(text: string, h: HandlerInfo): string[] {
  const fn = h.alias ?? h.name;
  const params = ['old', ...h.args.map((a) => a.name)].join(', ');
  const out: string[] = [];
  const def = new RegExp(`^def ${fn}\\((.*)\\):`, 'm').exec(text);
  if (!def) out.push(`no 'def ${fn}(...)'`);
  else if (def[1].replace(/\s+/g, ' ') !== params) out.push(`parameters are (${def[1]}), want (${params})`);
  if (h.alias && !new RegExp(`^${h.name} = ${h.alias}$`, 'm').test(text)) out.push(`missing alias line '${h.name} = ${h.alias}'`);
  return out;
}

/** Names in `# uses:` lines. */
function uses(text: string): string[] {
  return [...text.matchAll(/^# uses: (.+)$/gm)].flatMap((m) => m[1].split(',').map((s) => s.trim()));
}

/**
 * Every top-level conjunct of `cond = z3.And(...)` sits on its own line at
 * one indentation step inside the call and is preceded by a `#` gloss.
 * Returns the conjunct lines without a gloss.
 */
function unglossedConjuncts(text: string): string[] {
  const ls = lines(text);
  const out: string[] = [];
  for (let i = 0; i < ls.length; i++) {
    const open = /^(\s*)cond = z3\.And\($/.exec(ls[i]);
    if (!open) continue;
    const inner = open[1] + '    ';
    for (let j = i + 1; j < ls.length && !ls[j].startsWith(open[1] + ')'); j++) {
      const l = ls[j];
      const atLevel = l.startsWith(inner) && !l.startsWith(inner + ' ');
      if (atLevel && !l.trimStart().startsWith('#') && !ls[j - 1].trimStart().startsWith('#')) out.push(l.trim());
    }
  }
  return out;
}

function pyFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.py')).sort() : [];
}

/** The cases of a per-handler feature, with the folder's name as `handler` (undefined for a file outside one). */
function caseFiles(feature: string): (Case & { file: string })[] {
  return loadCases(feature).map((c) => ({ ...c, handler: c.group, file: c.name }));
}

const byName = new Map(HANDLERS.map((h) => [h.name, h]));

describe('oracle specs', () => {
  it('has one file per handler and nothing else', () => {
    const files = pyFiles(SPECS).map((f) => f.replace(/\.py$/, ''));
    expect(files).toEqual(HANDLERS.map((h) => h.name).sort());
  });

  for (const h of HANDLERS) {
    it(`${h.name}: header, entry function, helpers and glosses`, () => {
      const path = join(SPECS, `${h.name}.py`);
      expect(existsSync(path), `${path} is missing`).toBe(true);
      const text = read(path);
      expect(headerProblems(text)).toEqual([]);
      expect(entryProblems(text, h)).toEqual([]);
      for (const u of uses(text)) expect(existsSync(join(SHARED, `${u}.py`)), `_shared/${u}.py`).toBe(true);
      expect(unglossedConjuncts(text)).toEqual([]);
    });
  }

  it('use z3 connectives and util.If, never Python if/and/or/not', () => {
    const bad: string[] = [];
    for (const f of [...pyFiles(SPECS).map((x) => join(SPECS, x)), ...pyFiles(SHARED).map((x) => join(SHARED, x))]) {
      const body = code(read(f));
      for (const kw of ['if', 'elif', 'else', 'and', 'or', 'not', 'while', 'for']) {
        if (new RegExp(`(^|[^.\\w])${kw}\\b`, 'm').test(body)) bad.push(`${f}: '${kw}'`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('shared helper specs', () => {
  const shared = pyFiles(SHARED);

  it('are the four hv6 helpers', () => {
    expect(shared).toEqual(
      ['alloc_iommu_page_table_page.py', 'alloc_page_table.py', 'free_page_table_page.py', 'send_recv.py'],
    );
  });

  for (const f of shared) {
    it(`${f}: header, definition and glosses`, () => {
      const text = read(join(SHARED, f));
      const name = f.replace(/\.py$/, '');
      expect(headerProblems(text)).toEqual([]);
      expect(text).toMatch(new RegExp(`^def ${name}\\(old, `, 'm'));
      expect(unglossedConjuncts(text)).toEqual([]);
    });
  }

  it('are each used by some handler', () => {
    const used = new Set(HANDLERS.flatMap((h) => uses(read(join(SPECS, `${h.name}.py`)))));
    expect([...used].sort()).toEqual(shared.map((f) => f.replace(/\.py$/, '')));
  });
});

describe('descriptions', () => {
  it('has one file per handler and nothing else', () => {
    const files = existsSync(DESCRIPTIONS) ? readdirSync(DESCRIPTIONS).filter((f) => f.endsWith('.md')).sort() : [];
    expect(files).toEqual(HANDLERS.map((h) => `${h.name}.md`).sort());
  });

  for (const h of HANDLERS) {
    it(`${h.name}: 150-400 words naming every argument`, () => {
      const path = join(DESCRIPTIONS, `${h.name}.md`);
      expect(existsSync(path), `${path} is missing`).toBe(true);
      const text = read(path);
      const words = text.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
      expect(words).toBeGreaterThanOrEqual(150);
      expect(words).toBeLessThanOrEqual(400);
      const missing = h.args.map((a) => a.name).filter((n) => !new RegExp(`\\b${n}\\b`).test(text));
      expect(missing).toEqual([]);
      expect(text).not.toMatch(/^\s*(def |return |new\.)/m);
    });
  }
});

describe('refute cases', () => {
  const cases = caseFiles('refute');

  it('has at least three per handler, in folders named after handlers', () => {
    for (const c of cases) expect(byName.has(c.handler!), `${c.handler} is not a handler`).toBe(true);
    for (const h of HANDLERS) {
      expect(cases.filter((c) => c.handler === h.name).length, h.name).toBeGreaterThanOrEqual(3);
    }
  });

  for (const c of cases) {
    it(`${c.handler}/${c.file}: expectation, header and entry function`, () => {
      const [want, ...more] = c.header.expectations;
      expect({ kind: want.kind, more: more.length }, 'the header expects one refutation').toEqual({ kind: 'refuted', more: 0 });
      const obligations = want.kind === 'refuted' ? want.obligations : [];
      expect(obligations.length, 'the refutation names an obligation').toBeGreaterThan(0);
      expect(obligations.filter((o) => !OBLIGATIONS.has(o))).toEqual([]);
      expect(new Set(obligations).size).toBe(obligations.length);
      const body = c.body;
      expect(headerProblems(body)).toEqual([]);
      expect(entryProblems(body, byName.get(c.handler!)!)).toEqual([]);
      expect(uses(body)).toEqual([]);
    });
  }
});

describe('lemma cases', () => {
  const cases = caseFiles('lemma');

  it('has at least ten, in folders named after handlers', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) expect(byName.has(c.handler!), `${c.handler} is not a handler`).toBe(true);
  });

  for (const c of cases) {
    it(`${c.handler}/${c.file}: expectations, header and entry function`, () => {
      const kinds = c.header.expectations.map((e) => e.kind);
      expect(kinds).toEqual(['verified', 'lemma-fail']);
      const fail = c.header.expectations.find((e) => e.kind === 'lemma-fail');
      expect(LEMMAS).toContain(fail?.kind === 'lemma-fail' ? fail.lemma : undefined);
      const body = c.body;
      expect(headerProblems(body)).toEqual([]);
      expect(entryProblems(body, byName.get(c.handler!)!)).toEqual([]);
    });
  }
});
