/**
 * The kernel's C source as top-level items: macros, typedefs, structs, enums,
 * globals, prototypes and function definitions, each with the exact text it
 * occupies in its file (its leading comment included). Task code and variant
 * overrides are assembled from these texts, so a model sees the kernel's own
 * formatting and comments, and a mutated function differs from the kernel's
 * only where it was mutated.
 */
import {
  type CProgram, type Declaration, type FunctionDef, type Macro, declaredName, declaresFunction, lex, preprocess,
} from '../c/index.ts';

export type ItemKind = 'macro' | 'typedef' | 'enum' | 'struct' | 'global' | 'prototype' | 'function';

export interface SourceItem {
  readonly kind: ItemKind;
  /** The name code refers to it by: `NPROC`, `pid_t`, `struct proc`, `enum page_type`, `proc_table`, `map_page`. */
  readonly name: string;
  /** Further names it provides (an enum's members). */
  readonly members: readonly string[];
  readonly file: string;
  /** [start, end) in the file text: from the leading comment (if any) to the end of the item's last line. */
  readonly start: number;
  readonly end: number;
  /** Where the item proper starts (after its leading comment). */
  readonly bodyStart: number;
  readonly text: string;
  /** Function definitions only. */
  readonly def?: FunctionDef;
  readonly isStatic: boolean;
}

/** Header order as the kernel includes them, then the .c files. */
const HEADER_ORDER = ['types.h', 'param.h', 'hooks.h', 'state.h', 'kernel.h'];

function fileRank(file: string): number {
  const i = HEADER_ORDER.indexOf(file);
  return i >= 0 ? i : HEADER_ORDER.length;
}

/** Orders items by file (headers first) and position. */
export function compareItems(a: SourceItem, b: SourceItem): number {
  return fileRank(a.file) - fileRank(b.file) || a.file.localeCompare(b.file) || a.start - b.start;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  return i < 0 ? text.length : i;
}

/**
 * Where the comment block that sits directly above `start` begins (no blank
 * line between), or `start` when there is none. A comment that ends a line
 * holding code (a trailing comment of the item above) does not count.
 */
export function leadingCommentStart(text: string, start: number): number {
  let at = lineStart(text, start);
  for (;;) {
    if (at === 0) return at;
    const prevStart = lineStart(text, at - 1);
    const prev = text.slice(prevStart, at - 1);
    const trimmed = prev.trim();
    if (trimmed.startsWith('//')) {
      at = prevStart;
      continue;
    }
    if (trimmed.endsWith('*/')) {
      const open = text.lastIndexOf('/*', prevStart + prev.lastIndexOf('*/'));
      if (open < 0) return at;
      const openLine = lineStart(text, open);
      if (text.slice(openLine, open).trim() !== '') return at;
      at = openLine;
      continue;
    }
    return at;
  }
}

/** The end of the line holding `end`, if the rest of that line is blank or a comment; else `end`. */
function itemEnd(text: string, end: number): number {
  const le = lineEnd(text, end);
  const rest = text.slice(end, le).trim();
  return rest === '' || rest.startsWith('/*') || rest.startsWith('//') ? le : end;
}

function item(
  files: ReadonlyMap<string, string>,
  kind: ItemKind,
  name: string,
  file: string,
  from: number,
  to: number,
  extra: { members?: string[]; def?: FunctionDef; isStatic?: boolean } = {},
): SourceItem {
  const text = files.get(file)!;
  const bodyStart = lineStart(text, from);
  const start = leadingCommentStart(text, bodyStart);
  const end = itemEnd(text, to);
  return {
    kind, name, members: extra.members ?? [], file, start, end, bodyStart, text: text.slice(start, end), def: extra.def,
    isStatic: extra.isStatic ?? false,
  };
}

function macroItem(files: ReadonlyMap<string, string>, m: Macro): SourceItem {
  const text = files.get(m.span.file)!;
  let end = lineEnd(text, m.span.offset);
  while (end > 0 && text[end - 1] === '\\' && end < text.length) end = lineEnd(text, end + 1);
  return item(files, 'macro', m.name, m.span.file, m.span.offset, end);
}

function declarationItems(files: ReadonlyMap<string, string>, d: Declaration): SourceItem[] {
  const { file, offset, endOffset } = d.span;
  const t = d.specs.type;
  if (d.declarators.length === 0) {
    if (t.kind === 'struct' && t.members && t.tag) return [item(files, 'struct', `struct ${t.tag}`, file, offset, endOffset)];
    if (t.kind === 'enum' && t.enumerators && t.tag) {
      return [item(files, 'enum', `enum ${t.tag}`, file, offset, endOffset, { members: t.enumerators.map((e) => e.name) })];
    }
    return [];
  }
  const out: SourceItem[] = [];
  for (const x of d.declarators) {
    const name = declaredName(x.declarator);
    if (!name) continue;
    let kind: ItemKind;
    if (d.specs.storage === 'typedef') kind = 'typedef';
    else if (declaresFunction(x.declarator)) kind = 'prototype';
    else kind = 'global';
    out.push(item(files, kind, name, file, offset, endOffset, { isStatic: d.specs.storage === 'static' }));
  }
  return out;
}

/** All top-level items of a program, keyed by name. */
export interface SourceIndex {
  readonly files: ReadonlyMap<string, string>;
  readonly items: readonly SourceItem[];
  /** Function definitions by name (an override's definition wins). */
  readonly functions: ReadonlyMap<string, SourceItem>;
  /** What a name used in code refers to (functions excluded; see `functions`). */
  readonly byName: ReadonlyMap<string, SourceItem>;
  readonly macros: ReadonlyMap<string, Macro>;
}

/**
 * Indexes the top-level items of `program` (its units and headers, and an
 * override unit's function definitions, which replace the kernel's).
 */
export function indexSource(program: CProgram, overridePath = 'override.c'): SourceIndex {
  const files = program.files;
  const seen = new Set<string>();
  const items: SourceItem[] = [];
  const macros = new Map<string, Macro>();
  for (const unit of program.units) {
    for (const m of preprocess(files, unit.file).macros.values()) {
      const key = `${m.span.file}:${m.span.offset}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!macros.has(m.name) || m.span.file !== overridePath) macros.set(m.name, m);
      items.push(macroItem(files, m));
    }
    for (const top of unit.items) {
      const key = `${top.span.file}:${top.span.offset}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (top.kind === 'function-def') {
        const name = declaredName(top.declarator)!;
        items.push(item(files, 'function', name, top.span.file, top.span.offset, top.span.endOffset, {
          def: top, isStatic: top.specs.storage === 'static',
        }));
      } else if (top.kind === 'declaration') {
        items.push(...declarationItems(files, top));
      }
    }
  }
  items.sort(compareItems);
  const functions = new Map<string, SourceItem>();
  const byName = new Map<string, SourceItem>();
  const rank: Record<ItemKind, number> = { function: 0, macro: 1, global: 2, typedef: 3, enum: 4, struct: 5, prototype: 6 };
  for (const it of items) {
    if (it.kind === 'function') {
      const old = functions.get(it.name);
      if (!old || it.file === overridePath) functions.set(it.name, it);
      continue;
    }
    for (const n of [it.name, ...it.members]) {
      const old = byName.get(n);
      // A global's extern declaration in a header (with its comment) beats its definition in globals.c.
      if (!old || rank[it.kind] < rank[old.kind] || (old.kind === it.kind && it.kind === 'global' && fileRank(old.file) > fileRank(it.file))) {
        byName.set(n, it);
      }
    }
  }
  return { files, items, functions, byName, macros };
}

const KEYWORDS = new Set([
  'struct', 'union', 'enum', 'typedef', 'static', 'extern', 'inline', 'const', 'volatile', 'return', 'if', 'else',
  'for', 'while', 'do', 'break', 'continue', 'sizeof', 'void', 'char', 'short', 'int', 'long', 'unsigned', 'signed',
  '_Bool', '__attribute__', 'aligned', 'define', 'undef', 'ifndef', 'ifdef', 'endif', 'include', '_Static_assert',
]);

/**
 * The names a piece of C text refers to: identifiers, and `struct X` /
 * `enum X` for tags. Member names (after `.` or `->`) are not references.
 */
export function referencedNames(text: string): string[] {
  const toks = lex('<names>', text).tokens;
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== 'ident') continue;
    const prev = toks[i - 1];
    if (prev && prev.kind === 'punct' && (prev.text === '.' || prev.text === '->')) continue;
    if ((t.text === 'struct' || t.text === 'enum') && toks[i + 1]?.kind === 'ident') {
      out.push(`${t.text} ${toks[i + 1].text}`);
      i++;
      continue;
    }
    if (!KEYWORDS.has(t.text)) out.push(t.text);
  }
  return out;
}
