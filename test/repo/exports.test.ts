/**
 * No dead exports: every name that a module of src/ exports has a real user,
 * another file of src/ (the app, the CLI, the workers), of bin/ (the CLI's
 * entry), scripts/ (the build) or perf/ (the benchmarks), or a test of its
 * own module: a test under the folder of test/ that tests the source's
 * folder (test/<area> for src/core/<area> and src/<area>, test/README.md),
 * or one above or below it (test/verify/lemmas for src/core/verify). A
 * function its own file calls is code the product runs, so any test may
 * import it. An export that only tests of other modules keep alive is code
 * no product runs; an export that only its own file uses should not be
 * exported; one that nothing uses should not exist. A re-export counts as a
 * use of the original and is itself an export that needs a user.
 *
 * Imports are read from the text, the way layers.test.ts reads them: static
 * imports and re-exports by name, `import * as ns` and dynamic `import()`
 * (whose names count when the importing file reads `.name` or destructures
 * `{ name }` from it), and `typeof import(...)`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Exports kept although nothing in the tree imports them, each with its reason.
 * Keys are `path#name`, paths relative to the repository root.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

const SOURCE = /\.(ts|mts|mjs|svelte)$/;

function files(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

const rel = (p: string) => relative(root, p).split('\\').join('/');

/** The folder a source file belongs to, as test/ mirrors it: `src/core/eval/grade/x.ts` -> `eval/grade`; `src/core/hash.ts` -> `hash`. */
function area(source: string): string {
  const r = source.replace(/^src\/(core\/)?/, '');
  return r.includes('/') ? r.slice(0, r.lastIndexOf('/')) : r.replace(/(\.d)?\.ts$/, '');
}

/** Test folders named after what they do rather than the folder they test: test/diff is the C executor's gcc differential test. */
const TESTS_OF: Readonly<Record<string, string>> = { diff: 'c' };

/** Is `importer` (a path from the root) a real user of `source`: production code, or a test of the source's own folder? */
function realUser(importer: string, source: string): boolean {
  if (!importer.startsWith('test/')) return true;
  const a = area(source);
  const t = importer.slice('test/'.length);
  const dir = t.includes('/') ? t.slice(0, t.lastIndexOf('/')) : '';
  const folder = TESTS_OF[dir.split('/')[0]] ?? dir;
  // test/quantile.test.ts tests src/core/quantile.ts; test/diagnostic/ tests src/core/diagnostic*.ts.
  if (folder === '') return t.startsWith(`${a}.`);
  return a === folder || a.startsWith(`${folder}/`) || folder.startsWith(`${a}/`) || (!a.includes('/') && a.startsWith(`${folder}-`));
}

/** `a`, `type a`, `a as b` → [local, exported, type-only]; an empty entry (trailing comma) is dropped. */
function names(list: string): [string, string, boolean][] {
  return list
    .replace(/\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const m = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(s);
      if (!m) throw new Error(`cannot read the import or export list item "${s}"`);
      return [m[2], m[3] ?? m[2], m[1] !== undefined];
    });
}

/** Resolves a relative specifier of `from` to a file of the tree, or undefined (packages, assets). */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), spec.replace(/\?.*$/, '')));
  for (const p of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(p) && statSync(p).isFile()) return p;
  return undefined;
}

interface Export {
  /** The module it is re-exported from; undefined when declared here. */
  readonly from?: string;
  /** A type (interface, type alias, `export type {}`), or undefined when `from` decides. */
  readonly type?: boolean;
}

interface Module {
  readonly exports: Map<string, Export>;
  /** `export * from` targets. */
  readonly stars: string[];
  readonly text: string;
}

interface Scan {
  readonly modules: Map<string, Module>;
  /** Module file → names imported from it by a real user (`realUser`). */
  readonly used: Map<string, Set<string>>;
  /** Module file → names only tests of other folders import. */
  readonly testUsed: Map<string, Set<string>>;
  /** How many import sites were read (a broken pattern would read none). */
  readonly sites: number;
  readonly unresolved: string[];
}

const DECL = /^export\s+(?:declare\s+)?(?:async\s+)?(function\*?|const|let|var|class|abstract\s+class|interface|type|enum|namespace)\s+([\w$]+)/gm;
const LIST = /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/gm;
const STAR = /^export\s+\*\s+(?:as\s+([\w$]+)\s+)?from\s*['"]([^'"]+)['"]/gm;
const DEFAULT = /^export\s+default\b/m;
const STATIC = /\bimport\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}\s*)?(?:\*\s+as\s+([\w$]+)\s*)?from\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const WORKER = /new URL\(\s*['"]([^'"]+)['"]/g;
const LOCAL_TYPE = (name: string) => new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:interface|type)\\s+${name.replace(/\$/g, '\\$')}\\b`, 'm');

function scan(): Scan {
  const modules = new Map<string, Module>();
  const used = new Map<string, Set<string>>();
  const testUsed = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  let sites = 0;
  const all = ['src', 'test', 'perf', 'scripts', 'bin'].flatMap((d) => files(join(root, d)));
  const use = (file: string, target: string, name: string) => {
    const into = realUser(rel(file), rel(target)) ? used : testUsed;
    let s = into.get(target);
    if (!s) into.set(target, (s = new Set()));
    s.add(name);
  };
  const target = (file: string, spec: string): string | undefined => {
    sites++;
    const t = resolve(file, spec);
    if (!t && spec.startsWith('.') && SOURCE.test(spec.replace(/\?.*$/, ''))) unresolved.push(`${rel(file)}: ${spec}`);
    return t;
  };
  /** Every identifier in `text`: what a namespace or dynamic import may reach (`ns.name`, `{ name } = await import(...)`). */
  const reads = (text: string) => new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);

  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    if (rel(file).startsWith('src/')) {
      const exports = new Map<string, Export>();
      const stars: string[] = [];
      for (const m of text.matchAll(DECL)) exports.set(m[2], { type: m[1] === 'interface' || m[1] === 'type' });
      if (DEFAULT.test(text) && !file.endsWith('.svelte')) exports.set('default', { type: false });
      for (const m of text.matchAll(LIST)) {
        const from = m[3] === undefined ? undefined : target(file, m[3]);
        for (const [local, exported, typeOnly] of names(m[2])) {
          const type = m[1] !== undefined || typeOnly ? true : from ? undefined : LOCAL_TYPE(local).test(text);
          exports.set(exported, { from, type });
          if (from) use(file, from, local);
        }
      }
      for (const m of text.matchAll(STAR)) {
        const from = target(file, m[2]);
        if (!from) continue;
        if (m[1]) exports.set(m[1], { type: false });
        else stars.push(from);
      }
      modules.set(file, { exports, stars, text });
    }
    let everyName: Set<string> | undefined;
    const names_ = () => (everyName ??= reads(text));
    for (const m of text.matchAll(STATIC)) {
      const t = target(file, m[4]);
      if (!t) continue;
      if (m[1]) use(file, t, 'default');
      if (m[2]) for (const [imported] of names(m[2])) use(file, t, imported);
      if (m[3]) for (const n of names_()) use(file, t, n);
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const t = target(file, m[1]);
      if (t) for (const n of names_()) use(file, t, n);
    }
    for (const m of text.matchAll(WORKER)) target(file, m[1]);
  }
  return { modules, used, testUsed, sites, unresolved };
}

/** Is `name`, exported by `file`, a type? Re-exports take the kind of their origin. */
function isType(s: Scan, file: string, name: string, seen = new Set<string>()): boolean {
  const e = s.modules.get(file)?.exports.get(name);
  if (!e) {
    // Reached through `export *`.
    for (const star of s.modules.get(file)?.stars ?? []) if (s.modules.get(star)?.exports.has(name)) return isType(s, star, name, seen);
    return false;
  }
  if (e.type !== undefined || !e.from || seen.has(file)) return e.type === true;
  seen.add(file);
  return isType(s, e.from, name, seen);
}

/** How often `name` occurs as a word in `text`. */
function occurrences(text: string, name: string): number {
  return text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
}

/** `text` without its comments (a use in a comment is no use). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * `path#name` of every export of src/ that no other file imports, except a
 * type that its own file uses (a type in the signature of an exported
 * function is part of that function's contract, named or not).
 */
function unusedExports(s: Scan): string[] {
  // Names used through an `export *` barrel count for the module behind it.
  for (const [file, mod] of s.modules) {
    const through = s.used.get(file);
    if (!through) continue;
    for (const star of mod.stars) {
      for (const n of through) {
        if (!s.modules.get(star)?.exports.has(n)) continue;
        if (!s.used.has(star)) s.used.set(star, new Set());
        s.used.get(star)!.add(n);
      }
    }
  }
  const out: string[] = [];
  for (const [file, mod] of s.modules) {
    for (const [name, e] of mod.exports) {
      if (s.used.get(file)?.has(name)) continue;
      if (!e.from && isType(s, file, name) && occurrences(mod.text, name) > 1) continue;
      if (!e.from && s.testUsed.get(file)?.has(name) && occurrences(code(mod.text), name) > 1) continue;
      out.push(`${rel(file)}#${name}`);
    }
  }
  return out.sort();
}

describe('exports', () => {
  const s = scan();
  const unused = unusedExports(s);

  it('reads the imports and exports it checks', () => {
    // A broken pattern would read nothing and find nothing unused.
    expect(s.sites).toBeGreaterThan(1000);
    const exportCount = [...s.modules.values()].reduce((n, m) => n + m.exports.size, 0);
    expect(exportCount).toBeGreaterThan(500);
    const term = join(root, 'src/core/smt/term.ts');
    expect(s.used.get(term)?.has('bvConst')).toBe(true);
    expect([isType(s, term, 'Sort'), isType(s, term, 'bvConst')]).toEqual([true, false]);
    expect(s.unresolved, 'relative imports of a source file that does not exist').toEqual([]);
  });

  it('counts as users production code and the tests of the same folder only', () => {
    expect(realUser('src/cli/commands/grade.ts', 'src/core/pool/pool.ts')).toBe(true);
    expect(realUser('scripts/bundle.ts', 'src/core/verify/index.ts')).toBe(true);
    expect(realUser('test/pool/pool.test.ts', 'src/core/pool/pool.ts')).toBe(true);
    expect(realUser('test/verify/lemmas/steps.test.ts', 'src/core/verify/step-lemmas.ts')).toBe(true);
    expect(realUser('test/c/x.test.ts', 'src/core/c/symex/exec.ts')).toBe(true);
    expect(realUser('test/eval/grade/g.test.ts', 'src/core/eval/run/runner.ts')).toBe(false);
    expect(realUser('test/verify/lemmas/steps.test.ts', 'src/core/kernel/state.ts')).toBe(false);
    expect(realUser('test/cli-main.ts', 'src/cli/main.ts')).toBe(false);
    expect(realUser('test/quantile.test.ts', 'src/core/quantile.ts')).toBe(true);
    expect(realUser('test/diagnostic/text.test.ts', 'src/core/diagnostic-text.ts')).toBe(true);
    expect(realUser('test/store/fixtures.ts', 'src/store/run-dir.ts')).toBe(true);
    expect(realUser('test/diff/run.ts', 'src/core/c/index.ts')).toBe(true);
  });

  it('has no export that nothing imports', () => {
    const bad = unused.filter((k) => !(k in ALLOWED));
    expect(bad, 'remove these exports, or un-export names only their own file uses').toEqual([]);
  });

  it('allows only exports that exist and are unused', () => {
    const stale = Object.keys(ALLOWED).filter((k) => !unused.includes(k));
    expect(stale, 'these allow-list entries are imported now, or gone: drop them').toEqual([]);
  });
});
