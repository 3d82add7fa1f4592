/**
 * A checked program as flat data (`ProgramForm`), and back. The kernel's
 * program is the same on every visit, so it is made once at build time
 * (scripts/gen-kernel-program.ts) and a worker rebuilds it from this form
 * instead of preprocessing, parsing and checking ten units: on a slow phone
 * the cold parse was the largest phase of a share link's first verdict
 * (docs/measurements.md, "The kernel's program made at build time").
 *
 * The form is the program's object graph, not a summary of it: every object
 * the parse makes, with its fields in their order, its identity (a node is
 * a key of the `Sema` tables, a struct type is shared by every use) and its
 * class (`Sema`, `Map`, arrays, plain objects, the type constants of
 * types.ts), so the program read back is the program parsed, and a test
 * compares the two node for node (test/c/program-form.test.ts).
 *
 * It is one stream of integers beside a table of strings and one of key
 * lists. Three things keep it small:
 * - a span whose line and column follow from its offsets in its file is
 *   its file and two offsets (the lines are counted again from the files);
 * - a top-level item of a unit that is the same tree, node for node, as one
 *   of an earlier unit (each unit parses kernel.h again: 70% of the
 *   kernel's tokens) is a reference to that item, copied on reading.
 */
import type { CSpan } from './ast.ts';
import { Sema } from './check/sema.ts';
import type { CProgram } from './program.ts';
import type { SourceFiles } from './preprocess.ts';
import { BOOL_T, CHAR, INT, LLONG, LONG, SCHAR, SHORT, UCHAR, UINT, ULLONG, ULONG, USHORT, VOID } from './types.ts';

export interface ProgramForm {
  readonly format: 1;
  readonly strings: readonly string[];
  /** The key lists of the plain objects (and of `Sema`), as indices into `strings`. */
  readonly shapes: readonly (readonly number[])[];
  /** For each shape, the string its first key `kind` always holds (an index into `strings`), or -1: then it is in the code. */
  readonly kinds: readonly number[];
  /** The program (the codes below). */
  readonly code: readonly number[];
}

// A value's code; a plain object's is OBJECT + its shape.
const UNDEFINED = 0;
const NULL = 1;
const TRUE = 2;
const FALSE = 3;
/** A number: the next element. */
const NUMBER = 4;
/** A string: its index in `strings`. */
const STRING = 5;
/** A bigint: the index of its decimal text in `strings`. */
const BIGINT = 6;
/**
 * An object met before: its index, in the order objects were first met,
 * less the index the previous SEEN gave (a Map's keys count apart: the
 * checker's tables map nodes, in order, to a few types).
 */
const SEEN = 7;
/** An array: its length, then its elements. */
const ARRAY = 8;
/** A Map: its size, then each key and value. */
const MAP = 9;
/** The program's `Sema`: its shape, then its fields. */
const SEMA = 10;
/**
 * A span of the usual key order whose lines and columns follow from its
 * offsets, in the file of the span before it: its offset less that span's
 * offset, and its length.
 */
const SPAN = 11;
/** The same in another file: the file's name (a string) first. */
const SPAN_IN = 15;
/** A copy of a top-level item met before: that item's index. */
const COPY = 12;
/** One of types.ts's type constants: its index in CONSTANTS. */
const CONSTANT = 13;
/** The program's files: the text the form is read with. */
const FILES = 14;
const OBJECT = 16;

/** Objects the checker shares by reference with every program. */
const CONSTANTS: readonly object[] = [VOID, BOOL_T, CHAR, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG, LLONG, ULLONG];

/** The key order of a span (lexer.ts `LineMap.span`, span.ts `through`). */
const SPAN_KEYS = ['file', 'line', 'column', 'endLine', 'endColumn', 'offset', 'endOffset'] as const;

/** Where each line of a text begins, to turn offsets into lines and columns as the lexer does. */
class Lines {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The 1-based line of `offset`. */
  line(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  column(line: number, offset: number): number {
    return offset - this.starts[line - 1] + 1;
  }
}

function linesOf(cache: Map<string, Lines>, files: SourceFiles, file: string): Lines | undefined {
  let l = cache.get(file);
  if (!l) {
    const text = files.get(file);
    if (text === undefined) return undefined;
    cache.set(file, (l = new Lines(text)));
  }
  return l;
}

function isPlain(v: object): v is Record<string, unknown> {
  return Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * A span is a value: the parse shares one between a token and the nodes it
 * begins, and between units when their headers' tokens were lexed together
 * (which depends on what the process parsed before: c/program.ts keeps
 * units), and no code asks whether two spans are one object. So the form
 * writes each use of one, and reading makes a span per use.
 */
function isSpan(keys: readonly string[]): boolean {
  return keys.length === SPAN_KEYS.length && SPAN_KEYS.every((k, i) => keys[i] === k);
}

/**
 * The form of `program`, parsed from `files` with no override. Throws on
 * what the form cannot hold (a class it does not know, a number JSON loses).
 */
export function programForm(program: CProgram, files: SourceFiles): ProgramForm {
  if (program.files.size !== files.size || [...files].some(([p, t]) => program.files.get(p) !== t)) {
    throw new Error('programForm: the program was parsed from other files (an override?)');
  }
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const shapes: number[][] = [];
  const kinds: number[] = [];
  const shapeIds = new Map<string, number>();
  const code: number[] = [];
  const seen = new Map<object, number>();
  const lines = new Map<string, Lines>();
  const str = (s: string) => {
    let i = stringIds.get(s);
    if (i === undefined) stringIds.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const shape = (keys: string[], kind?: string) => {
    const k = `${kind ?? ''}\0${keys.join('\0')}`;
    let i = shapeIds.get(k);
    if (i === undefined) {
      shapeIds.set(k, (i = shapes.push(keys.map(str)) - 1));
      kinds.push(kind === undefined ? -1 : str(kind));
    }
    return i;
  };
  const lastSeen = [0, 0];
  let lastSpan: { file: string; offset: number } = { file: '', offset: 0 };

  const itemLists = new Set<unknown>(program.units.map((u) => u.items));

  /**
   * An item's text, equal for two items exactly when one is a copy of the
   * other; undefined for an item a copy cannot make: one that is not a tree
   * of plain objects and arrays (spans aside), or that reaches an object met
   * before (what refers to it must find that one).
   */
  const itemText = (item: object): string | undefined => {
    const own = new Set<object>();
    const parts: string[] = [];
    const walk = (v: unknown): boolean => {
      if (typeof v === 'string') return parts.push(JSON.stringify(v)) > 0;
      if (typeof v === 'bigint') return parts.push(`${v}n`) > 0;
      if (v === null || typeof v !== 'object') return parts.push(String(v)) > 0;
      const keys = Array.isArray(v) ? undefined : Object.keys(v);
      if (keys && isPlain(v) && isSpan(keys)) return parts.push(JSON.stringify(v)) > 0;
      if (own.has(v) || seen.has(v) || CONSTANTS.includes(v)) return false;
      own.add(v);
      if (!keys) {
        parts.push(`[${(v as unknown[]).length}`);
        for (const x of v as unknown[]) if (!walk(x)) return false;
      } else {
        // The reader tells a span by this key.
        if (!isPlain(v) || keys.includes('endOffset')) return false;
        parts.push(`{${keys.join(',')}`);
        for (const k of keys) if (!walk(v[k])) return false;
      }
      return parts.push(']') > 0;
    };
    return walk(item) ? parts.join(' ') : undefined;
  };
  const items = new Map<string, number>();

  /** Numbers a copied item's objects (its spans aside) in the order the copy makes them. */
  const copied = (v: unknown) => {
    if (v === null || typeof v !== 'object' || isSpan(Object.keys(v))) return;
    seen.set(v, seen.size);
    for (const x of Array.isArray(v) ? v : Object.values(v)) copied(x);
  };

  const span = (v: CSpan): void => {
    const { file, offset, endOffset } = v;
    const l = linesOf(lines, files, file);
    const line = l?.line(offset);
    const endLine = l?.line(endOffset);
    if (
      !l || !Number.isInteger(offset) || !Number.isInteger(endOffset) || v.line !== line || v.endLine !== endLine ||
      v.column !== l.column(line, offset) || v.endColumn !== l.column(endLine, endOffset)
    ) {
      throw new Error(`programForm: a span whose lines are not its offsets' (${JSON.stringify(v)})`);
    }
    if (file === lastSpan.file) code.push(SPAN, offset - lastSpan.offset, endOffset - offset);
    else code.push(SPAN_IN, str(file), offset - lastSpan.offset, endOffset - offset);
    lastSpan = { file, offset };
  };

  const value = (v: unknown, key = 0): void => {
    switch (typeof v) {
      case 'undefined':
        return void code.push(UNDEFINED);
      case 'boolean':
        return void code.push(v ? TRUE : FALSE);
      case 'number':
        if (!Number.isFinite(v) || Object.is(v, -0)) throw new Error(`programForm: the number ${v}`);
        return void code.push(NUMBER, v);
      case 'string':
        return void code.push(STRING, str(v));
      case 'bigint':
        return void code.push(BIGINT, str(String(v)));
      case 'object':
        break;
      default:
        throw new Error(`programForm: a value of type ${typeof v}`);
    }
    if (v === null) return void code.push(NULL);
    const c = CONSTANTS.indexOf(v);
    if (c >= 0) return void code.push(CONSTANT, c);
    if (!Array.isArray(v) && isSpan(Object.keys(v))) return span(v as unknown as CSpan);
    const met = seen.get(v);
    if (met !== undefined) {
      code.push(SEEN, met - lastSeen[key]);
      lastSeen[key] = met;
      return;
    }
    seen.set(v, seen.size);
    if (v === program.files) return void code.push(FILES);
    if (Array.isArray(v)) {
      code.push(ARRAY, v.length);
      const list = itemLists.has(v);
      for (const x of v) {
        if (!list) {
          value(x);
          continue;
        }
        const text = itemText(x as object);
        const first = text === undefined ? undefined : items.get(text);
        if (first !== undefined) {
          code.push(COPY, first);
          copied(x);
        } else {
          if (text !== undefined) items.set(text, seen.size);
          value(x);
        }
      }
      return;
    }
    if (v instanceof Map) {
      code.push(MAP, v.size);
      for (const [k, x] of v) {
        value(k, 1);
        value(x);
      }
      return;
    }
    if (v instanceof Sema) {
      const keys = Object.keys(v);
      code.push(SEMA, shape(keys));
      for (const k of keys) value((v as unknown as Record<string, unknown>)[k]);
      return;
    }
    if (!isPlain(v)) throw new Error(`programForm: an object of class ${v.constructor?.name}`);
    const keys = Object.keys(v);
    if (keys[0] === 'kind' && typeof v.kind === 'string') {
      code.push(OBJECT + shape(keys, v.kind));
      for (let i = 1; i < keys.length; i++) value(v[keys[i]]);
      return;
    }
    code.push(OBJECT + shape(keys));
    for (const k of keys) value(v[k]);
  };

  value(program);
  return { format: 1, strings, shapes, kinds, code };
}

/** The program `form` holds, read with the `files` it was made from (programForm's). */
export function programFromForm(form: ProgramForm, files: SourceFiles): CProgram {
  if (form.format !== 1) throw new Error(`programFromForm: format ${String(form.format)}`);
  const { strings, code } = form;
  const shapes = form.shapes.map((s) => s.map((i) => strings[i]));
  const kinds = form.kinds.map((i) => (i < 0 ? undefined : strings[i]));
  const lastSeen = [0, 0];
  let lastFile = '';
  let lastOffset = 0;
  const objects: object[] = [];
  const lines = new Map<string, Lines>();
  let at = 0;

  /** A copy of an item (a tree: programForm copies no other). */
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const a: unknown[] = [];
      objects.push(a);
      for (let i = 0; i < v.length; i++) a.push(copy(v[i]));
      return a;
    }
    const from = v as Record<string, unknown>;
    if (from.endOffset !== undefined) return { ...from };
    const o: Record<string, unknown> = {};
    objects.push(o);
    for (const k in from) o[k] = copy(from[k]);
    return o;
  };

  const span = (): CSpan => {
    const offset = (lastOffset += code[at++]);
    const endOffset = offset + code[at++];
    const l = linesOf(lines, files, lastFile);
    if (!l) throw new Error(`programFromForm: no file ${lastFile}`);
    const line = l.line(offset);
    const endLine = l.line(endOffset);
    return { file: lastFile, line, column: l.column(line, offset), endLine, endColumn: l.column(endLine, endOffset), offset, endOffset };
  };

  const value = (key = 0): unknown => {
    const c = code[at++];
    switch (c) {
      case UNDEFINED:
        return undefined;
      case NULL:
        return null;
      case TRUE:
        return true;
      case FALSE:
        return false;
      case NUMBER:
        return code[at++];
      case STRING:
        return strings[code[at++]];
      case BIGINT:
        return BigInt(strings[code[at++]]);
      case SEEN:
        return objects[(lastSeen[key] += code[at++])];
      case CONSTANT:
        return CONSTANTS[code[at++]];
      case FILES: {
        const m = new Map(files);
        objects.push(m);
        return m;
      }
      case ARRAY: {
        const n = code[at++];
        const a: unknown[] = [];
        objects.push(a);
        for (let i = 0; i < n; i++) a.push(value());
        return a;
      }
      case MAP: {
        const n = code[at++];
        const m = new Map<unknown, unknown>();
        objects.push(m);
        for (let i = 0; i < n; i++) {
          const k = value(1);
          m.set(k, value());
        }
        return m;
      }
      case SEMA: {
        const s = Object.create(Sema.prototype) as Record<string, unknown>;
        objects.push(s);
        for (const k of shapes[code[at++]]) s[k] = value();
        return s;
      }
      case SPAN_IN:
        lastFile = strings[code[at++]];
        return span();
      case SPAN:
        return span();
      case COPY:
        return copy(objects[code[at++]]);
      default: {
        const keys = shapes[c - OBJECT];
        if (keys === undefined) throw new Error(`programFromForm: code ${c} at ${at - 1}`);
        const o: Record<string, unknown> = {};
        objects.push(o);
        const kind = kinds[c - OBJECT];
        let i = 0;
        if (kind !== undefined) {
          o.kind = kind;
          i = 1;
        }
        for (; i < keys.length; i++) o[keys[i]] = value();
        return o;
      }
    }
  };

  const program = value() as CProgram;
  if (at !== code.length) throw new Error(`programFromForm: ${code.length - at} codes left over`);
  return program;
}
