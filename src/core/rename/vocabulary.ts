/**
 * The names a renaming lens renames, derived from the kernel's and the spec
 * prelude's own symbols (docs/rename.md): the kernel C's functions,
 * structs, fields, globals, typedefs, macros and enumerations (from its
 * parsed translation units), the handlers and their parameters, the
 * abstract state's tables and fields, the `dt` module's constants, sorts
 * and helpers, the helpers module, the shared spec helpers, the base
 * classes, the state's methods and the module names the oracle specs
 * import. Nothing here is typed by hand except what is never renamed: the
 * languages' keywords, the built-ins the dialect gives meaning to, z3's
 * and libirpy util's names, C library names and errno names.
 */
import { type Declarator, type TopLevel, lex as lexC, parse, preprocess } from '../c/index.ts';
import { dialectCatalog } from '../dialect/catalog.ts';
import { lex as lexSpec } from '../dialect/lexer.ts';
import { KEYWORDS } from '../dialect/tokens.ts';
import { dtModule } from '../dialect/builtins/dt.ts';
import { helpersModule } from '../dialect/builtins/helpers.ts';
import { pythonBuiltins } from '../dialect/builtins/python.ts';
import { utilModule } from '../dialect/builtins/util.ts';
import { z3Module } from '../dialect/builtins/z3.ts';
import { ERRNO } from '../kernel/constants.ts';
import { KERNEL, type KernelContent } from '../kernel/content.ts';
import { HANDLERS } from '../kernel/handlers.ts';
import { SCALARS, STRUCTS } from '../kernel/schema.ts';

/** What a renamed name is, for the report of the vocabulary's size per kind. */
export type NameKind =
  | 'handler'
  | 'function'
  | 'helper'
  | 'struct'
  | 'table'
  | 'field'
  | 'type'
  | 'enum'
  | 'member'
  | 'constant'
  | 'class'
  | 'method'
  | 'module'
  | 'parameter';

/** The kinds in the order a name with several is filed under (a C global that is also a spec field is a table). */
export const NAME_KINDS: readonly NameKind[] = [
  'handler', 'function', 'helper', 'struct', 'table', 'field', 'type', 'enum', 'member', 'constant', 'class', 'method', 'module', 'parameter',
];

export interface Vocabulary {
  /** Every name that is renamed, with its kind, in a fixed order (kind, then name). */
  readonly names: ReadonlyMap<string, NameKind>;
  /** Names never renamed, and never used as a new name. */
  readonly reserved: ReadonlySet<string>;
  /** Derived names left out because they are reserved (`size` is a handler parameter and a z3 method). */
  readonly kept: readonly string[];
}

// ------------------------------------------------------------------ what is never renamed

/** C's keywords and the preprocessor's directive names. */
const C_KEYWORDS = [
  'auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extern', 'float', 'for',
  'goto', 'if', 'inline', 'int', 'long', 'register', 'restrict', 'return', 'short', 'signed', 'sizeof', 'static', 'struct',
  'switch', 'typedef', 'union', 'unsigned', 'void', 'volatile', 'while', '_Bool', '_Static_assert', '_Noreturn', '_Alignas',
  '__attribute__', 'aligned', 'packed', 'define', 'undef', 'include', 'ifdef', 'ifndef', 'elif', 'endif', 'defined', 'pragma', 'error',
];

/** The C library's names the kernel uses: fixed-width types, bool, and the memory and assertion functions. */
const C_LIBRARY = [
  'int8_t', 'uint8_t', 'int16_t', 'uint16_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t', 'size_t', 'ssize_t', 'uintptr_t',
  'intptr_t', 'off_t', 'pid_t', 'bool', 'true', 'false', 'NULL', 'memset', 'memcpy', 'assert', 'panic',
];

/**
 * Python's names the dialect gives a meaning of its own: the modules that
 * are not hv6's (`z3`, libirpy's `util`, `types`, `copy`, `__future__` and
 * its features), the `dt` alias every spec uses, the methods of z3 terms
 * and lists, and `self`.
 */
const PYTHON_RESERVED = [
  'z3', 'util', 'types', 'copy', 'dt', '__future__', 'absolute_import', 'division', 'print_function', 'unicode_literals', 'annotations',
  'FunctionType', 'LambdaType', 'BuiltinFunctionType', 'MethodType', 'size', 'sort', 'as_long', 'as_signed_long', 'eq', 'append',
  'extend', 'self', 'print', 'exec',
];

/**
 * Python 2 builtins that are also hv6 names and that no spec can call (the
 * dialect refuses them, SPEC003): hv6's `struct file` and its pages' `type`
 * are renamed like any hv6 name. A refused builtin written in a renamed
 * answer is then an unknown name instead of SPEC003: an error either way.
 */
export const REFUSED_BUILTINS: readonly string[] = ['file', 'type'];

function reservedNames(): Set<string> {
  const out = new Set<string>([...C_KEYWORDS, ...C_LIBRARY, ...PYTHON_RESERVED, ...KEYWORDS, ...Object.keys(ERRNO)]);
  for (const b of pythonBuiltins()) if (!REFUSED_BUILTINS.includes(b.name)) out.add(b.name);
  for (const k of z3Module().attrs.keys()) out.add(k);
  for (const k of utilModule().attrs.keys()) out.add(k);
  return out;
}

// ------------------------------------------------------------------ derived names

function declaredName(d: Declarator): string | undefined {
  return d.kind === 'name' ? d.name : declaredName(d.inner);
}

/** The kernel C's own names, by kind, from its parsed translation units and their macros. */
function kernelNames(kernel: KernelContent, add: (name: string, kind: NameKind) => void): void {
  const lexed = new Map<string, ReturnType<typeof lexC>>();
  const items = (top: TopLevel) => {
    if (top.kind === 'static-assert') return;
    const specs = top.specs;
    const type = specs.type;
    if (type.kind === 'struct' && type.tag) add(type.tag, 'struct');
    if (type.kind === 'struct' && type.members) {
      for (const m of type.members) for (const d of m.declarators) if (d.declarator) add(declaredName(d.declarator) ?? '', 'field');
    }
    if (type.kind === 'enum' && type.tag) add(type.tag, 'enum');
    if (type.kind === 'enum' && type.enumerators) for (const e of type.enumerators) add(e.name, 'member');
    if (top.kind === 'function-def') {
      add(declaredName(top.declarator) ?? '', 'function');
      return;
    }
    for (const d of top.declarators) {
      const name = declaredName(d.declarator) ?? '';
      if (specs.storage === 'typedef') add(name, 'type');
      else if (hasFunction(d.declarator)) add(name, 'function');
      else add(name, 'table');
    }
  };
  for (const unit of kernel.units) {
    const pp = preprocess(kernel.files, unit, lexed);
    for (const m of pp.macros.values()) add(m.name, 'constant');
    const r = parse(unit, pp.tokens);
    if (r.ok) for (const top of r.unit.items) items(top);
  }
}

function hasFunction(d: Declarator): boolean {
  return d.kind === 'function' || (d.kind !== 'name' && hasFunction(d.inner));
}

/** The spec prelude's names: the abstract state, `dt`, the helpers, the base classes, the state's methods. */
function preludeNames(add: (name: string, kind: NameKind) => void): void {
  for (const f of SCALARS) add(f.name, 'table');
  for (const s of STRUCTS) {
    add(s.name, 'table');
    add(s.className, 'class');
    for (const f of s.fields) add(f.name, 'field');
  }
  for (const e of dialectCatalog()) {
    if (e.kind === 'constant') add(e.label, 'constant');
    else if (e.kind === 'sort') add(e.label, 'type');
    else if (e.kind === 'enum') add(e.label, e.detail.includes(': enum of') ? 'enum' : 'member');
    else if (e.kind === 'helper') add(e.label, 'helper');
    else if (e.kind === 'method') add(e.label, 'method');
  }
  for (const [name, v] of dtModule().attrs) if (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'class') add(name, 'class');
  for (const name of helpersModule().attrs.keys()) add(name, 'helper');
  for (const name of ['Accessor', 'BaseStruct', 'Struct', 'Map', 'Refcnt', 'Refcnt2']) add(name, 'class');
}

/**
 * The oracle specs' own names: the shared helpers they define, and every
 * segment of the modules they import (`hv6py.kernel.spec.datatypes`).
 */
function specNames(kernel: KernelContent, add: (name: string, kind: NameKind) => void): void {
  for (const text of [...Object.values(kernel.specs), ...Object.values(kernel.shared)]) {
    const toks = lexSpec(text);
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (t.kind === 'keyword' && t.value === 'def' && toks[i + 1]?.kind === 'name') add(toks[i + 1].value, 'helper');
      if (t.kind === 'keyword' && (t.value === 'import' || t.value === 'from')) {
        // The dotted path after `import`/`from`, up to `import`, `as`, a comma or the end of the line.
        for (let j = i + 1; j < toks.length && (toks[j].kind === 'name' || (toks[j].kind === 'op' && toks[j].value === '.')); j++) {
          if (toks[j].kind === 'name') add(toks[j].value, 'module');
        }
      }
    }
  }
}

const cache = new WeakMap<KernelContent, Vocabulary>();

/** The vocabulary of `kernel` (the bundled one by default); computed once per kernel. */
export function vocabulary(kernel: KernelContent = KERNEL): Vocabulary {
  const hit = cache.get(kernel);
  if (hit) return hit;
  const reserved = reservedNames();
  const kinds = new Map<string, Set<NameKind>>();
  const add = (name: string, kind: NameKind) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    let s = kinds.get(name);
    if (!s) kinds.set(name, (s = new Set()));
    s.add(kind);
  };
  kernelNames(kernel, add);
  for (const h of HANDLERS) {
    add(h.name, 'handler');
    if (h.alias) add(h.alias, 'handler');
    for (const a of h.args) add(a.name, 'parameter');
  }
  preludeNames(add);
  specNames(kernel, add);
  const kept: string[] = [];
  const entries: [string, NameKind][] = [];
  for (const [name, s] of kinds) {
    if (reserved.has(name)) {
      kept.push(name);
      continue;
    }
    entries.push([name, NAME_KINDS.find((k) => s.has(k))!]);
  }
  entries.sort((a, b) => NAME_KINDS.indexOf(a[1]) - NAME_KINDS.indexOf(b[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const v: Vocabulary = { names: new Map(entries), reserved, kept: kept.sort() };
  cache.set(kernel, v);
  return v;
}

/** How many names of each kind the vocabulary holds. */
export function vocabularySizes(v: Vocabulary): Record<NameKind, number> {
  const out = Object.fromEntries(NAME_KINDS.map((k) => [k, 0])) as Record<NameKind, number>;
  for (const k of v.names.values()) out[k]++;
  return out;
}
