/**
 * What the shape may reorder in a task's shown code (docs/shape.md §2),
 * read from the syntax tree of our own C parser, never by text search:
 *
 * - **fields**: the members of a struct definition, in runs of members on
 *   lines of their own (a blank or comment line ends a run, so a comment
 *   heading a group of fields stays with its group); a struct whose size
 *   (`sizeof`) or a member's address the code takes is left alone, since
 *   its layout would show;
 * - **functions**: the helper functions (every function but the handler,
 *   which stays last), each with its leading comment, in any order that
 *   keeps a callee before its callers, as C's declare-before-use needs;
 * - **assignments**: runs of consecutive simple assignments in a block
 *   (effects.ts), in any order that keeps two statements in their order
 *   when one writes what the other reads or writes.
 *
 * A unit is a range of whole lines that holds nothing else (a trailing
 * comment on its last line goes with it); a construct that shares a line
 * with another is never moved. Permuting units therefore permutes lines:
 * the shaped code has exactly the original lines, and every line can be
 * followed to its new place.
 */
import type { Block, CSpan, Declaration, FunctionDef, MemberDecl, StructSpec, TranslationUnit } from '../c/index.ts';
import { declaredName, parse, preprocess } from '../c/index.ts';
import { walk } from '../tasks/c-walk.ts';
import { type Effects, type ShapeScope, conflict, simpleEffects } from './effects.ts';

export type UnitKind = 'field' | 'function' | 'assignment';

export const UNIT_KINDS: readonly UnitKind[] = ['field', 'function', 'assignment'];

/** A range of whole lines, 0-based, `end` exclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Units that may be reordered among themselves: `units` in their original
 * order, adjacent or separated by blank lines only; `before[j]` lists the
 * units that must stay before unit `j`.
 */
export interface Region {
  readonly kind: UnitKind;
  /** What the region is, for reports: `struct proc`, `helpers`, `sys_dup`. */
  readonly where: string;
  readonly units: readonly LineRange[];
  readonly before: readonly (readonly number[])[];
}

class ShapeParseError extends Error {}

/** The shown code's syntax tree (preprocessed as the kernel is: macros expanded, spans in the shown text). */
export function parseShown(code: string, path = 'shown.c'): TranslationUnit {
  const pp = preprocess(new Map([[path, code]]), path);
  if (pp.errors.length) throw new ShapeParseError(`${pp.errors[0].message} (${path}:${pp.errors[0].span.line})`);
  const r = parse(path, pp.tokens);
  if (!r.ok) throw new ShapeParseError(`${r.errors[0].message} (${path}:${r.errors[0].span.line})`);
  return r.unit;
}

/** The regions of `code` (a task's shown code), inner ones (fields, assignments) first. */
export function shapeRegions(code: string): Region[] {
  const unit = parseShown(code);
  const lines = code.split('\n');
  const layout = new Layout(lines);
  const facts = shownFacts(unit);
  const out: Region[] = [];
  for (const item of unit.items) {
    if (item.kind !== 'declaration') continue;
    const s = item.specs.type;
    if (s.kind === 'struct' && s.members && !facts.fixedLayout.has(structName(item, s))) out.push(...fieldRegions(layout, s, structName(item, s)));
  }
  for (const item of unit.items) if (item.kind === 'function-def') out.push(...assignmentRegions(layout, item, facts));
  const fn = functionRegion(layout, unit);
  if (fn) out.push(fn);
  return out;
}

/** The struct's name as the code writes it: its tag, or its typedef name. */
function structName(d: Declaration, s: StructSpec): string {
  if (s.tag) return `struct ${s.tag}`;
  const td = d.declarators[0] && declaredName(d.declarators[0].declarator);
  return td ?? '(anonymous struct)';
}

interface ShownFacts extends Omit<ShapeScope, 'locals'> {
  /** Structs whose layout the code can observe (`sizeof`, a member's address). */
  readonly fixedLayout: ReadonlySet<string>;
}

function shownFacts(unit: TranslationUnit): ShownFacts {
  const structTypes = new Set<string>();
  const typedefStruct = new Map<string, string>();
  const fieldOwner = new Map<string, Set<string>>();
  const structFields = new Set<string>();
  const structGlobals = new Set<string>();
  const isStructSpec = (d: Declaration['specs']) => d.type.kind === 'struct' || (d.type.kind === 'typedef-name' && typedefStruct.has(d.type.name));
  const nameOf = (d: Declaration['specs']): string | undefined =>
    d.type.kind === 'struct' ? (d.type.tag ? `struct ${d.type.tag}` : undefined) : d.type.kind === 'typedef-name' ? typedefStruct.get(d.type.name) : undefined;
  for (const item of unit.items) {
    if (item.kind !== 'declaration') continue;
    const s = item.specs.type;
    if (item.specs.storage === 'typedef' && s.kind === 'struct') {
      for (const d of item.declarators) {
        const n = declaredName(d.declarator);
        if (n && d.declarator.kind === 'name') typedefStruct.set(n, s.tag ? `struct ${s.tag}` : n);
      }
    }
    if (s.kind === 'struct' && s.members) {
      const owner = structName(item, s);
      structTypes.add(owner);
      for (const m of s.members) {
        for (const md of m.declarators) {
          const n = md.declarator && declaredName(md.declarator);
          if (!n) continue;
          if (!fieldOwner.has(n)) fieldOwner.set(n, new Set());
          fieldOwner.get(n)!.add(owner);
          // A field of struct type (not a pointer to one) holds a whole struct.
          if (isStructSpec(m.specs) && !hasPointer(md.declarator!)) structFields.add(n);
        }
      }
    }
    if (item.specs.storage !== 'typedef' && isStructSpec(item.specs)) {
      for (const d of item.declarators) {
        const n = declaredName(d.declarator);
        if (n && !hasPointer(d.declarator)) structGlobals.add(n);
      }
    }
  }
  const fixedLayout = new Set<string>();
  const anyStruct = () => structTypes.forEach((t) => fixedLayout.add(t));
  for (const item of unit.items) {
    if (item.kind !== 'function-def') continue;
    walk(item.body, (n) => {
      if (n.kind === 'sizeof-type') {
        const t = nameOf(n.type.specs);
        if (t) fixedLayout.add(t);
        else if (n.type.specs.type.kind !== 'builtin') anyStruct();
      } else if (n.kind === 'sizeof-expr') anyStruct();
      else if (n.kind === 'addr') {
        walk({ kind: 'block', span: n.span, items: [{ kind: 'expr', span: n.span, expr: n.operand }] }, (m) => {
          if (m.kind === 'member') for (const o of fieldOwner.get(m.name) ?? []) fixedLayout.add(o);
        });
      }
    });
  }
  return { structFields, structGlobals, fixedLayout };
}

function hasPointer(d: import('../c/index.ts').Declarator): boolean {
  return d.kind === 'pointer' || (d.kind !== 'name' && hasPointer(d.inner));
}

/** Lines of the shown code, and whether a span stands on lines of its own. */
class Layout {
  constructor(readonly lines: readonly string[]) {}

  /**
   * The 0-based lines of `span` when nothing but blanks precedes it on its
   * first line and nothing but `;`, blanks and a comment closed on that
   * line follows it on its last; otherwise undefined.
   */
  ownLines(span: CSpan): LineRange | undefined {
    const first = this.lines[span.line - 1];
    const last = this.lines[span.endLine - 1];
    if (first === undefined || last === undefined) return undefined;
    if (first.slice(0, span.column - 1).trim() !== '') return undefined;
    const rest = last.slice(span.endColumn - 1).replace(/^\s*;?\s*/, '');
    if (rest !== '' && !/^\/\/.*$/.test(rest) && !/^\/\*(?:(?!\*\/).)*\*\/\s*$/.test(rest)) return undefined;
    return { start: span.line - 1, end: span.endLine };
  }

  blank(line: number): boolean {
    return (this.lines[line] ?? '').trim() === '';
  }
}

/** Splits `items` (each with its own lines or not) into runs of adjacent units of two or more. */
function runs<T>(items: readonly T[], range: (t: T) => LineRange | undefined): { item: T; lines: LineRange }[][] {
  const out: { item: T; lines: LineRange }[][] = [];
  let cur: { item: T; lines: LineRange }[] = [];
  const close = () => {
    if (cur.length > 1) out.push(cur);
    cur = [];
  };
  for (const item of items) {
    const lines = range(item);
    if (!lines) {
      close();
      continue;
    }
    if (cur.length && cur[cur.length - 1].lines.end !== lines.start) close();
    cur.push({ item, lines });
  }
  close();
  return out;
}

function fieldRegions(layout: Layout, s: StructSpec, where: string): Region[] {
  return runs<MemberDecl>(s.members!, (m) => layout.ownLines(m.span)).map((run) => ({
    kind: 'field',
    where,
    units: run.map((r) => r.lines),
    before: run.map(() => []),
  }));
}

/** Parameters and locals of `f` (the subset has no nested functions; a name is local anywhere in its function). */
function localsOf(f: FunctionDef): Set<string> {
  const out = new Set<string>();
  let d = f.declarator;
  while (d.kind !== 'name') {
    if (d.kind === 'function' && d.inner.kind === 'name') for (const p of d.params) out.add(declaredName(p.declarator) ?? '');
    d = d.inner;
  }
  walk(f.body, (n) => {
    if (n.kind === 'declaration') for (const x of n.declarators) out.add(declaredName(x.declarator) ?? '');
    if (n.kind === 'for' && n.init?.kind === 'declaration') for (const x of n.init.declarators) out.add(declaredName(x.declarator) ?? '');
  });
  out.delete('');
  return out;
}

function assignmentRegions(layout: Layout, f: FunctionDef, facts: ShownFacts): Region[] {
  const scope: ShapeScope = { ...facts, locals: localsOf(f) };
  const where = declaredName(f.declarator) ?? '(function)';
  const out: Region[] = [];
  const blocks: Block[] = [];
  walk(f.body, (n) => {
    if (n.kind === 'block') blocks.push(n);
  });
  for (const b of blocks) {
    const effects = new Map<unknown, Effects>();
    const found = runs(b.items, (s) => {
      const e = simpleEffects(s, scope);
      if (!e) return undefined;
      effects.set(s, e);
      return layout.ownLines(s.span);
    });
    for (const run of found) {
      const fx = run.map((r) => effects.get(r.item)!);
      out.push({
        kind: 'assignment',
        where,
        units: run.map((r) => r.lines),
        before: fx.map((e, j) => fx.slice(0, j).flatMap((d, i) => (conflict(d, e) ? [i] : []))),
      });
    }
  }
  return out;
}

/**
 * The helper functions: every function definition but the last (the
 * handler), when they follow one another separated by blank lines only;
 * each unit is the function with the comment lines right above it.
 */
function functionRegion(layout: Layout, unit: TranslationUnit): Region | undefined {
  const items = unit.items;
  const defs = items.filter((i): i is FunctionDef => i.kind === 'function-def');
  if (defs.length < 3) return undefined;
  const helpers = defs.slice(0, -1);
  const first = items.indexOf(helpers[0]);
  if (items.slice(first, first + helpers.length).some((it, i) => it !== helpers[i])) return undefined;
  const units: LineRange[] = [];
  let floor = (() => {
    const prev = items[first - 1];
    return prev ? prev.span.endLine : 0;
  })();
  for (const f of helpers) {
    const own = layout.ownLines(f.span);
    if (!own) return undefined;
    // The comment right above it (no blank line between) belongs to it; the
    // parser has shown nothing but comments and blanks lies above `f` and below the item before.
    let start = own.start;
    while (start > floor && !layout.blank(start - 1)) start--;
    // What lies between two units must be blank lines.
    for (let l = floor; l < start && units.length; l++) if (!layout.blank(l)) return undefined;
    units.push({ start, end: own.end });
    floor = own.end;
  }
  const names = helpers.map((f) => declaredName(f.declarator) ?? '');
  const callees = helpers.map((f) => {
    const out = new Set<string>();
    walk(f.body, (n) => {
      if (n.kind === 'call') out.add(n.callee.name);
    });
    return out;
  });
  return {
    kind: 'function',
    where: 'helpers',
    units,
    before: helpers.map((_, j) => names.flatMap((n, i) => (i !== j && callees[j].has(n) ? [i] : []))),
  };
}
