/**
 * Z3's invoke trampolines, made inside its wasm (docs/app.md, "Z3's invoke
 * trampolines").
 *
 * z3-solver's wasm was built with Emscripten's JavaScript exception handling:
 * every C++ call that may throw is made through an imported JavaScript
 * function `env.invoke_<signature>(index, args...)`, which saves the stack
 * pointer, calls table entry `index` with the arguments inside a JavaScript
 * `try`, and on a C++ exception restores the stack pointer and calls
 * `setThrew(1, 0)`, which the caller's landing pad then reads. Each such call
 * crosses from wasm to JavaScript and back twice, about a quarter of the
 * time of the thread running Z3 in a profile of grading (docs/measurements.md,
 * "Z3's invoke trampolines, profiled").
 *
 * `withWasmInvokes` adds, for each imported `invoke_*`, a function of the
 * same type defined in the wasm that does the same with a wasm `try` /
 * `catch_all`, and points every direct call of the import at it; the imports
 * stay (so the glue links unchanged) but are not called from the code.
 * A `catch_all` also catches JavaScript errors that are not C++ exceptions
 * (an abort, a trap turned error), which the glue's trampoline lets through:
 * the glue's C++ throw sites set an exported flag just before they throw
 * (src/z3/glue.ts), the trampoline clears it on entry, and a caught
 * exception without the flag is thrown on unchanged. The module is otherwise
 * as it was: new types, one new global (the flag, exported as
 * `CPP_THROW_FLAG`), the new functions appended after the existing ones (no
 * index moves), and in the code only the rewritten call targets.
 */
import {
  CODE_SECTION,
  EXPORT_SECTION,
  FUNCTION_SECTION,
  GLOBAL_SECTION,
  IMPORT_SECTION,
  KIND_FUNC,
  KIND_GLOBAL,
  KIND_TABLE,
  Reader,
  type Section,
  TYPE_SECTION,
  WasmFormatError,
  concatBytes,
  encodeName,
  encodeSection,
  importEntries,
  sections,
  uleb,
} from './wasm-binary.ts';
import { F32, F64, I32, I64, type Immediate, skipLocals, stepInstruction } from './wasm-instructions.ts';

/** The rewrite's format: raised whenever what `withWasmInvokes` writes changes (copies made by an older one are made again). */
export const TRAMPOLINES_FORMAT = 2;

/** The export naming the flag the glue sets before it throws a C++ exception. */
export const CPP_THROW_FLAG = 'osvlab_cpp_throw';

interface FuncType {
  readonly params: readonly number[];
  readonly results: readonly number[];
}

const sameType = (a: FuncType, b: FuncType) => a.params.join() === b.params.join() && a.results.join() === b.results.join();

function readTypes(r: Reader): FuncType[] {
  const types: FuncType[] = [];
  for (let n = r.uleb(); n > 0; n--) {
    const form = r.byte();
    if (form !== 0x60) throw new WasmFormatError(`type form 0x${form.toString(16)} is not a function type`, r.at - 1);
    const vec = () => Array.from({ length: r.uleb() }, () => r.byte());
    types.push({ params: vec(), results: vec() });
  }
  return types;
}

function encodeType(t: FuncType): number[] {
  return [0x60, ...uleb(t.params.length), ...t.params, ...uleb(t.results.length), ...t.results];
}

interface Imports {
  /** Each imported function's field name and type index, by function index. */
  readonly funcs: { readonly module: string; readonly field: string; readonly type: number }[];
  readonly globals: number;
}

function readImports(r: Reader): Imports {
  const funcs: Imports['funcs'] = [];
  let globals = 0;
  for (const e of importEntries(r)) {
    if (e.kind === KIND_FUNC) funcs.push({ module: e.module, field: e.field, type: e.type });
    else if (e.kind === KIND_GLOBAL) globals++;
  }
  return { funcs, globals };
}

function readExports(r: Reader): Map<string, { kind: number; index: number }> {
  const out = new Map<string, { kind: number; index: number }>();
  for (let n = r.uleb(); n > 0; n--) {
    const name = r.name();
    const kind = r.byte();
    out.set(name, { kind, index: r.uleb() });
  }
  return out;
}

/**
 * What the new trampolines use: Z3's stack pointer, as the global its
 * accessor functions read and write (when their bodies are just that) or
 * as those functions, its `setThrew`, and its function table.
 */
interface Runtime {
  readonly stackPointer: { readonly global: number } | { readonly get: number; readonly restore: number };
  readonly setThrew: number;
  readonly table: number;
}

/** The body (after its size) of defined function `index` of the code section. */
function bodyOf(bytes: Uint8Array, code: Section, index: number): Uint8Array {
  const r = new Reader(bytes, code.contentStart, code.sectionEnd);
  const count = r.uleb();
  if (index >= count) throw new WasmFormatError(`no body for function ${index}`, code.contentStart);
  for (let i = 0; i < index; i++) r.skip(r.uleb());
  const size = r.uleb();
  return bytes.subarray(r.at, r.at + size);
}

/** The global `body` is made of: `[no locals] global.get g end` (get) or `[no locals] local.get 0 global.set g end` (set). */
function soleGlobal(body: Uint8Array, kind: 'get' | 'set'): number | undefined {
  const prefix = kind === 'get' ? [0x00, 0x23] : [0x00, 0x20, 0x00, 0x24];
  if (!prefix.every((b, i) => body[i] === b)) return undefined;
  const r = new Reader(body, prefix.length, body.length);
  const g = r.uleb();
  return r.at === body.length - 1 && body[r.at] === 0x0b ? g : undefined;
}

function zeroOf(t: number): number[] {
  switch (t) {
    case I32:
      return [0x41, 0x00];
    case I64:
      return [0x42, 0x00];
    case F32:
      return [0x43, 0, 0, 0, 0];
    case F64:
      return [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
    default:
      throw new WasmFormatError(`an invoke returning type 0x${t.toString(16)}`, 0);
  }
}

/**
 * The body of the trampoline for an invoke of type `t` (index, args) ->
 * results: what the glue's `invoke_*` does, in wasm.
 */
function trampolineBody(t: FuncType, calleeType: number, flag: number, rt: Runtime): number[] {
  const sp = t.params.length; // the one local after the parameters
  const blockType = t.results.length === 0 ? 0x40 : t.results[0];
  const code = [
    ...[0x41, 0x00, 0x24, ...uleb(flag)], // flag = 0
    ...('global' in rt.stackPointer ? [0x23, ...uleb(rt.stackPointer.global)] : [0x10, ...uleb(rt.stackPointer.get)]),
    ...[0x21, ...uleb(sp)], // sp = emscripten_stack_get_current()
    ...[0x06, blockType], // try
    ...t.params.slice(1).flatMap((_, i) => [0x20, ...uleb(i + 1)]),
    ...[0x20, 0x00, 0x11, ...uleb(calleeType), ...uleb(rt.table)], // call_indirect table[index](args)
    0x19, // catch_all
    ...[0x23, ...uleb(flag), 0x45, 0x04, 0x40, 0x09, 0x01, 0x0b], // not a C++ exception: rethrow it
    ...[0x41, 0x00, 0x24, ...uleb(flag)], // flag = 0
    ...[0x20, ...uleb(sp)],
    ...('global' in rt.stackPointer ? [0x24, ...uleb(rt.stackPointer.global)] : [0x10, ...uleb(rt.stackPointer.restore)]), // _emscripten_stack_restore(sp)
    ...[0x41, 0x01, 0x41, 0x00, 0x10, ...uleb(rt.setThrew)], // setThrew(1, 0)
    ...(t.results.length === 0 ? [] : zeroOf(t.results[0])),
    0x0b, // end of try
    0x0b, // end of function
  ];
  const locals = [0x01, 0x01, I32]; // one group: one i32
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

/** The code section with every call of a key of `retarget` made a call of its value, and `extra` bodies appended. */
function rewriteCode(bytes: Uint8Array, s: Section, retarget: ReadonlyMap<number, number>, extra: readonly number[][]): { section: Uint8Array<ArrayBuffer>; calls: number } {
  let calls = 0;
  const r = new Reader(bytes, s.contentStart, s.sectionEnd);
  const count = r.uleb();
  const parts: (Uint8Array | number[])[] = [uleb(count + extra.length)];
  for (let i = 0; i < count; i++) {
    const size = r.uleb();
    const bodyStart = r.at;
    const end = bodyStart + size;
    if (end > s.sectionEnd) throw new WasmFormatError('a function body runs past the code section', bodyStart);
    const body = new Reader(bytes, bodyStart, end);
    skipLocals(body);
    // The body's pieces: unchanged runs of bytes, and the new call targets between them.
    const pieces: (Uint8Array | number[])[] = [];
    let copied = bodyStart;
    let callAt = -1;
    const seen = (kind: Immediate, at: number) => {
      if (kind === 'callee') callAt = at;
    };
    while (body.at < end) {
      callAt = -1;
      stepInstruction(body, seen);
      if (callAt < 0) continue;
      const callee = new Reader(bytes, callAt, end);
      const to = retarget.get(callee.uleb());
      if (to === undefined) continue;
      pieces.push(bytes.subarray(copied, callAt), uleb(to));
      copied = callee.at;
      calls++;
    }
    if (bytes[end - 1] !== 0x0b) throw new WasmFormatError('a function body that does not end with end', end - 1);
    if (pieces.length === 0) parts.push(bytes.subarray(r.at - uleb(size).length, end));
    else {
      pieces.push(bytes.subarray(copied, end));
      parts.push(uleb(pieces.reduce((n, p) => n + p.length, 0)), ...pieces);
    }
    r.at = end;
  }
  parts.push(...extra);
  const contents = concatBytes(parts);
  return { section: concatBytes([[CODE_SECTION, ...uleb(contents.length)], contents]), calls };
}

/** A vector section's contents with `added` entries appended (their bytes) and the count raised. */
function appendToVector(bytes: Uint8Array, s: Section, added: readonly number[][]): number[] {
  const r = new Reader(bytes, s.contentStart, s.sectionEnd);
  const count = r.uleb();
  return encodeSection(s.id, [...uleb(count + added.length), ...bytes.subarray(r.at, s.sectionEnd), ...added.flat()]);
}

export interface InvokesMoved {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** How many `invoke_*` imports got a trampoline in the wasm. */
  readonly trampolines: number;
  /** How many call sites now call one of them. */
  readonly calls: number;
  /** How the trampolines reach the stack pointer: its global directly, or through the module's accessor functions. */
  readonly stackPointer: 'global' | 'calls';
}

/**
 * A copy of `bytes` (an Emscripten module built with JavaScript exception
 * handling) whose calls of `env.invoke_*` go to trampolines in the wasm.
 * Throws `WasmFormatError` when the module is not one this can read (an
 * instruction it does not know, no such imports, the runtime functions
 * missing, already rewritten).
 */
export function withWasmInvokes(bytes: Uint8Array): InvokesMoved {
  const at = new Map<number, Section>();
  for (const s of sections(bytes)) if (s.id !== 0) at.set(s.id, s);
  const need = (id: number) => {
    const s = at.get(id);
    if (!s) throw new WasmFormatError(`the module has no section ${id}`, bytes.length);
    return s;
  };
  const reader = (id: number) => new Reader(bytes, need(id).contentStart, need(id).sectionEnd);
  const types = readTypes(reader(TYPE_SECTION));
  const imports = readImports(reader(IMPORT_SECTION));
  const exports = readExports(reader(EXPORT_SECTION));
  if (exports.has(CPP_THROW_FLAG)) throw new WasmFormatError(`the module already exports ${CPP_THROW_FLAG}`, need(EXPORT_SECTION).sectionStart);
  const functions = reader(FUNCTION_SECTION);
  const defined = functions.uleb();
  const typeOfFunc = [...imports.funcs.map((f) => f.type), ...Array.from({ length: defined }, () => functions.uleb())];
  const func = (name: string, params: number[], results: number[]): number => {
    const e = exports.get(name);
    const type = e?.kind === KIND_FUNC ? types[typeOfFunc[e.index]] : undefined;
    if (!e || !type || !sameType(type, { params, results })) {
      throw new WasmFormatError(`the module exports no function ${name} of the type the glue's trampolines call`, need(EXPORT_SECTION).sectionStart);
    }
    return e.index;
  };
  const table = exports.get('__indirect_function_table');
  if (!table || table.kind !== KIND_TABLE) throw new WasmFormatError('the module exports no function table', need(EXPORT_SECTION).sectionStart);
  const stackGet = func('emscripten_stack_get_current', [], [I32]);
  const stackRestore = func('_emscripten_stack_restore', [I32], []);
  // The accessors' own global where they are just that (z3-solver's are): one call less per trampoline.
  const body = (f: number) => (f < imports.funcs.length ? undefined : bodyOf(bytes, need(CODE_SECTION), f - imports.funcs.length));
  const getBody = body(stackGet);
  const restoreBody = body(stackRestore);
  const g = getBody && soleGlobal(getBody, 'get');
  const rt: Runtime = {
    stackPointer: g !== undefined && restoreBody && soleGlobal(restoreBody, 'set') === g ? { global: g } : { get: stackGet, restore: stackRestore },
    setThrew: func('setThrew', [I32, I32], []),
    table: table.index,
  };
  const globals = reader(GLOBAL_SECTION).uleb();
  const flag = imports.globals + globals;

  const newTypes: FuncType[] = [];
  const typeIndex = (t: FuncType): number => {
    const known = [...types, ...newTypes].findIndex((u) => sameType(u, t));
    if (known >= 0) return known;
    newTypes.push(t);
    return types.length + newTypes.length - 1;
  };
  const retarget = new Map<number, number>();
  const funcTypes: number[] = [];
  const bodies: number[][] = [];
  imports.funcs.forEach((imp, index) => {
    if (imp.module !== 'env' || !imp.field.startsWith('invoke_')) return;
    const t = types[imp.type];
    if (!t || t.params[0] !== I32 || t.results.length > 1) throw new WasmFormatError(`${imp.field} has an unexpected type`, need(IMPORT_SECTION).contentStart);
    retarget.set(index, imports.funcs.length + defined + funcTypes.length);
    funcTypes.push(imp.type);
    bodies.push(trampolineBody(t, typeIndex({ params: t.params.slice(1), results: t.results }), flag, rt));
  });
  if (retarget.size === 0) throw new WasmFormatError('the module imports no env.invoke_* function', need(IMPORT_SECTION).sectionStart);

  const code = rewriteCode(bytes, need(CODE_SECTION), retarget, bodies);
  const replaced = new Map<number, ArrayLike<number>>([
    [TYPE_SECTION, appendToVector(bytes, need(TYPE_SECTION), newTypes.map(encodeType))],
    [FUNCTION_SECTION, appendToVector(bytes, need(FUNCTION_SECTION), funcTypes.map((t) => uleb(t)))],
    [GLOBAL_SECTION, appendToVector(bytes, need(GLOBAL_SECTION), [[I32, 0x01, 0x41, 0x00, 0x0b]])],
    [EXPORT_SECTION, appendToVector(bytes, need(EXPORT_SECTION), [[...encodeName(CPP_THROW_FLAG), KIND_GLOBAL, ...uleb(flag)]])],
    [CODE_SECTION, code.section],
  ]);
  const parts: ArrayLike<number>[] = [bytes.subarray(0, 8)];
  for (const s of sections(bytes)) parts.push(s.id !== 0 && replaced.has(s.id) ? replaced.get(s.id)! : bytes.subarray(s.sectionStart, s.sectionEnd));
  return { bytes: concatBytes(parts), trampolines: retarget.size, calls: code.calls, stackPointer: 'global' in rt.stackPointer ? 'global' : 'calls' };
}
