/**
 * One name, one concept: no two modules of src/ export a type, interface,
 * class or enum of the same name, so a reader who meets `Outcome` or
 * `Budget` never has to ask which one. The syntax trees of the two languages
 * are the exception the design makes: the C subset's and the spec dialect's
 * `Expr`, `Stmt`, `Token` and the like name the same grammatical ideas in
 * two languages, each file read on its own (docs/design.md, "Glossary").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The syntax trees and token kinds of the C subset and of the spec dialect. */
const SYNTAX_TREES = new Set(['src/core/c/ast.ts', 'src/core/c/lexer.ts', 'src/core/dialect/ast.ts', 'src/core/dialect/tokens.ts']);

const DECLARATION = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|svelte)$/.test(f) ? [p] : [];
  });
}

/** Each exported type name of `files` with the files that declare it. */
function declarers(files: readonly { path: string; text: string }[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const { path, text } of files) {
    for (const m of text.matchAll(DECLARATION)) by.set(m[1], [...(by.get(m[1]) ?? []), path]);
  }
  return by;
}

/** The names declared by two or more files, syntax trees aside, as `name: file, file`. */
function clashes(files: readonly { path: string; text: string }[]): string[] {
  return [...declarers(files)]
    .map(([name, paths]) => [name, [...new Set(paths)].filter((p) => !SYNTAX_TREES.has(p))] as const)
    .filter(([, paths]) => paths.length > 1)
    .map(([name, paths]) => `${name}: ${paths.join(', ')}`)
    .sort();
}

describe('exported type names', () => {
  it('are each declared by one module of src/, the two syntax trees aside', () => {
    const files = sources(join(root, 'src')).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));
    expect(files.length).toBeGreaterThan(200);
    expect(clashes(files), 'rename one of each pair (a name says which concept it is)').toEqual([]);
  });

  it('finds a clash, and lets the syntax trees share names', () => {
    const files = [
      { path: 'src/core/a.ts', text: 'export interface Budget {}\nexport type Only = 1;\n' },
      { path: 'src/core/b.ts', text: 'export class Budget {}\n' },
      { path: 'src/core/c/ast.ts', text: 'export type Expr = 1;\nexport type Only = 2;\n' },
      { path: 'src/core/dialect/ast.ts', text: 'export type Expr = 2;\n' },
    ];
    expect(clashes(files)).toEqual(['Budget: src/core/a.ts, src/core/b.ts']);
  });
});
