/**
 * No dead exports: every name that a module of src/ exports is imported by
 * some other file of src/, test/, perf/, scripts/ or bin/ (bin/osvlab.mjs is
 * the CLI's entry). An export that only its own file uses should not be
 * exported; one that nothing uses should not exist. A re-export counts as a
 * use of the original and is itself an export that needs an importer.
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
  /** Module file → names imported from it by another file. */
  readonly used: Map<string, Set<string>>;
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
  const unresolved: string[] = [];
  let sites = 0;
  const all = ['src', 'test', 'perf', 'scripts', 'bin'].flatMap((d) => files(join(root, d)));
  const use = (target: string, name: string) => {
    let s = used.get(target);
    if (!s) used.set(target, (s = new Set()));
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
          if (from) use(from, local);
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
      if (m[1]) use(t, 'default');
      if (m[2]) for (const [imported] of names(m[2])) use(t, imported);
      if (m[3]) for (const n of names_()) use(t, n);
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const t = target(file, m[1]);
      if (t) for (const n of names_()) use(t, n);
    }
    for (const m of text.matchAll(WORKER)) target(file, m[1]);
  }
  return { modules, used, sites, unresolved };
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

  it('has no export that nothing imports', () => {
    const bad = unused.filter((k) => !(k in ALLOWED));
    expect(bad, 'remove these exports, or un-export names only their own file uses').toEqual([]);
  });

  it('allows only exports that exist and are unused', () => {
    const stale = Object.keys(ALLOWED).filter((k) => !unused.includes(k));
    expect(stale, 'these allow-list entries are imported now, or gone: drop them').toEqual([]);
  });
});
