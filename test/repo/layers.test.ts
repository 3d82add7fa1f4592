/**
 * The layering of src/ (docs/design.md, "Layers"): every import runs from a
 * module to itself or to a lower layer, never upwards and never sideways
 * between the two front ends. A new top-level module must be given a layer
 * here, so the rule cannot be skipped by adding a folder. Within a module,
 * no two files import each other, directly or through others (type-only
 * imports included): a reader can start at some file and read upwards.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Lowest first; modules in one row may not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['hv6'], // the generated content bundle under tasks/hv6 (data)
  ['core/span', 'core/rng', 'core/platform', 'core/bounded-map', 'core/hash', 'core/quantile', 'core/phases', 'core/lens', 'core/visible-text', 'core/plural', 'core/budget', 'core/load-once'],
  ['core/pool'], // the generic worker pool and a one-job-at-a-time queue (imports nothing)
  ['core/diagnostic'],
  ['core/diagnostic-text'],
  ['core/smt'],
  ['core/c'],
  ['core/kernel'],
  ['core/version'],
  ['core/dialect'],
  ['core/verify'],
  ['core/llm'],
  ['core/tasks'],
  ['core/rename'],
  ['core/shape'],
  ['core/eval'],
  ['core/service'],
  ['store'],
  ['z3'], // Z3's loading and build steps: platform-free rewrites plus one adapter per platform
  ['worker'],
  ['cli', 'app'],
];

function layerOf(mod: string): number {
  return LAYERS.findIndex((row) => row.includes(mod));
}

/** `src/core/smt/term.ts` → `core/smt`; `src/core/span.ts` → `core/span`; `src/app/x` → `app`. */
export function moduleOf(file: string): string {
  const rel = relative(root, file).split('\\').join('/');
  if (rel.startsWith('tasks/hv6/')) return 'hv6';
  const parts = rel.split('/');
  if (parts[0] !== 'src') return rel;
  if (parts[1] !== 'core') return parts[1];
  return 'core/' + parts[2].replace(/(\.d)?\.ts$/, '');
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|svelte)$/.test(name)) out.push(p);
  }
  return out;
}

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly line: number;
}

/** Relative imports in any form: `import`, `import type`, `export ... from`, `import()`, `new URL`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)['"](\.{1,2}\/[^'"?]+)/g;

/** Every file of src/ -> the files it imports, as paths from the root. */
function fileImports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    out.set(
      relative(root, file),
      [...text.matchAll(IMPORT)].map((m) => relative(root, normalize(join(dirname(file), m[1])))),
    );
  }
  return out;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), m[1]));
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (from === to) continue;
      out.push({ from, to, file: relative(root, file), line: text.slice(0, m.index).split('\n').length });
    }
  }
  return out;
}

/**
 * The import cycles of `graph`: its strongly connected components of more
 * than one file (or a file importing itself), each sorted, in a stable order
 * (Tarjan's algorithm).
 */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * Cycles known to be there (none now: issue 23.2 took the last ones apart).
 * A new cycle fails the test, and so does a listed one that no longer exists.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

/**
 * The modules docs/design.md's "Layers" block names, in its order: each
 * line's leading `name.ts` / `name/` words under `src/core/` (`core/smt`), and
 * the top-level `src/NAME/` lines (`app`); with the subfolders its `eval/`
 * entry names (`grade/ (...)`).
 */
function designLayers(md: string): { modules: string[]; evalFolders: string[] } {
  const block = /## 1\. Layers\s*\n+```\n([\s\S]*?)```/.exec(md)?.[1] ?? '';
  const modules: string[] = [];
  let evalText = '';
  let inEval = false;
  for (const line of block.split('\n')) {
    const top = /^src\/(\w+)\//.exec(line);
    if (top && top[1] !== 'core') modules.push(top[1]);
    const entry = /^ {2}(\S.*?)(?: {2,}|$)/.exec(line);
    if (entry) {
      const words = entry[1].split(/,\s*/).filter((w) => /^[\w-]+(\.d)?\.ts$|^[\w-]+\/$/.test(w));
      modules.push(...words.map((w) => `core/${w.replace(/(\.d)?\.ts$|\/$/, '')}`));
      inEval = entry[1] === 'eval/';
    }
    if (inEval && (entry || /^ {3,}/.test(line))) evalText += line;
  }
  return { modules, evalFolders: [...evalText.matchAll(/\b([a-z]+)\/ \(/g)].map((m) => m[1]) };
}

describe('layers', () => {
  const all = edges();

  it('finds the imports it checks', () => {
    // A broken pattern would find nothing and pass everything.
    expect(all.length).toBeGreaterThan(200);
    expect(all.some((e) => e.from === 'core/verify' && e.to === 'core/smt')).toBe(true);
  });

  it('gives every module a layer', () => {
    const unknown = [...new Set(all.flatMap((e) => [e.from, e.to]))].filter((m) => layerOf(m) < 0);
    expect(unknown, 'add these modules to LAYERS').toEqual([]);
  });

  it('has no import from a lower layer to a higher one or between peers', () => {
    const bad = all
      .filter((e) => layerOf(e.from) >= 0 && layerOf(e.to) >= 0 && layerOf(e.to) >= layerOf(e.from))
      .map((e) => `${e.file}:${e.line} ${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const found = cycles(fileImports()).map((c) => c.join(' -> '));
    expect(found).toEqual(KNOWN_CYCLES.map((c) => c.join(' -> ')));
  });

  it('would catch a cycle, a type-only one or a self-import included', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    // A type-only import or a re-export is an import like any other to the scan.
    // (Quoted through `q`, so that the scans of this file do not take the sample for imports of its own.)
    const q = "'";
    const text = `import type { A } from ${q}./a.ts${q};\nexport { B } from ${q}../b.ts${q};\nimport {\n  type C,\n} from ${q}./c.ts${q};`;
    expect([...text.matchAll(IMPORT)].map((m) => m[1])).toEqual(['./a.ts', '../b.ts', './c.ts']);
  });

  it("is the order docs/design.md's Layers block gives, every module and eval folder named", () => {
    const { modules, evalFolders } = designLayers(readFileSync(join(root, 'docs/design.md'), 'utf8'));
    expect([...modules].sort(), 'the modules of LAYERS (less the bundle) and of the design').toEqual(
      LAYERS.flat()
        .filter((m) => m !== 'hv6')
        .sort(),
    );
    const order = modules.map(layerOf);
    expect(order, 'the design lists the modules lowest layer first').toEqual([...order].sort((a, b) => a - b));
    const folders = readdirSync(join(root, 'src/core/eval')).filter((n) => statSync(join(root, 'src/core/eval', n)).isDirectory());
    expect([...evalFolders].sort()).toEqual(folders.sort());
    // It reads what it must: a block with a module left out, or out of order, would differ.
    const sample = '## 1. Layers\n\n```\nsrc/core/   x\n  span.ts, hash.ts  a\n  smt/   b\n  eval/   c: grade/ (d),\n          run/ (e)\nsrc/app/   f\n```\n';
    expect(designLayers(sample)).toEqual({ modules: ['core/span', 'core/hash', 'core/smt', 'core/eval', 'app'], evalFolders: ['grade', 'run'] });
  });

  it('would catch an upward import', () => {
    expect(layerOf(moduleOf(join(root, 'src/core/smt/term.ts')))).toBeLessThan(layerOf(moduleOf(join(root, 'src/core/verify/index.ts'))));
    expect(layerOf('app')).toBe(layerOf('cli'));
  });
});
