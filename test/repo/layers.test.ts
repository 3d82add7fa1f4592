/**
 * The layering of src/ (docs/design.md, "Layers"): every import runs from a
 * module to itself or to a lower layer, never upwards and never sideways
 * between the two front ends. A new top-level module must be given a layer
 * here, so the rule cannot be skipped by adding a folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Lowest first; modules in one row may not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['hv6'], // the generated content bundle under tasks/hv6 (data)
  ['core/span', 'core/rng', 'core/platform', 'core/bounded-map', 'core/hash', 'core/quantile'],
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
  ['core/eval'],
  ['core/pool'],
  ['store'],
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

function edges(): Edge[] {
  const out: Edge[] = [];
  const spec = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*)['"](\.{1,2}\/[^'"?]+)/g;
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(spec)) {
      const target = normalize(join(dirname(file), m[1]));
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (from === to) continue;
      out.push({ from, to, file: relative(root, file), line: text.slice(0, m.index).split('\n').length });
    }
  }
  return out;
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

  it('would catch an upward import', () => {
    expect(layerOf(moduleOf(join(root, 'src/core/smt/term.ts')))).toBeLessThan(layerOf(moduleOf(join(root, 'src/core/verify/index.ts'))));
    expect(layerOf('app')).toBe(layerOf('cli'));
  });
});
