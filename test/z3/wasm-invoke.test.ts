/**
 * The exception trampolines moved into the wasm (src/z3/wasm-invoke.ts):
 * on a small module built byte by byte, a call through a rewritten
 * `invoke_*` returns what the callee returns without calling the imported
 * trampoline, a C++ exception (flag set) becomes `setThrew(1, 0)` with the
 * stack pointer restored, and any other exception goes through untouched;
 * on z3-solver's own wasm, every invoke import gets its trampoline and the
 * result compiles; and the Z3 the CLI loads is the rewritten one and
 * survives the C++ exceptions it throws inside (a parse error, a timeout).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compiledZ3, nodeEngine, nodeZ3, z3Files } from '../../src/z3/node.ts';
import * as o from '../../src/core/smt/ops.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { QuerySolver } from '../../src/core/smt/native.ts';
import { WasmFormatError, encodeName, encodeSection, uleb } from '../../src/z3/wasm-binary.ts';
import { CPP_THROW_FLAG, withWasmInvokes } from '../../src/z3/wasm-invoke.ts';

const I32 = 0x7f;
const func = (params: number[], results: number[]) => [0x60, params.length, ...params, results.length, ...results];
const body = (code: number[], locals: number[] = []) => {
  const l = [locals.length, ...locals.flatMap((t) => [1, t])];
  return [...uleb(l.length + code.length + 1), ...l, ...code, 0x0b];
};
const exp = (name: string, kind: number, index: number) => [...encodeName(name), kind, index];

/**
 * A module as Emscripten lays one out, reduced to what the rewrite touches:
 * imports `env.invoke_ii` (func 0) and `env.js_throw` (func 1); defines the
 * stack pointer functions (2, 3), `setThrew` (4), the callee (5: moves the
 * stack pointer, calls js_throw with its argument, returns it plus one) and
 * `run` (6: calls table entry 0, the callee, through invoke_ii).
 */
function emscriptenLike(extraCode: number[] = [], { accessorsDoMore = false } = {}): Uint8Array<ArrayBuffer> {
  const types = [func([], [I32]), func([I32], []), func([I32, I32], []), func([I32, I32], [I32]), func([I32], [I32])];
  const imports = [2, ...encodeName('env'), ...encodeName('invoke_ii'), 0, 3, ...encodeName('env'), ...encodeName('js_throw'), 0, 1];
  const functions = [5, 0, 1, 2, 4, 4];
  const table = [1, 0x70, 0x00, 1];
  // Global 0: the stack pointer (1000); global 1: the value setThrew was last given (0).
  const globals = [2, I32, 1, 0x41, ...[0xe8, 0x07], 0x0b, I32, 1, 0x41, 0, 0x0b];
  const exports = [
    7,
    ...exp('emscripten_stack_get_current', 0, 2),
    ...exp('_emscripten_stack_restore', 0, 3),
    ...exp('setThrew', 0, 4),
    ...exp('__indirect_function_table', 1, 0),
    ...exp('run', 0, 6),
    ...exp('sp', 3, 0),
    ...exp('threw', 3, 1),
  ];
  const elements = [1, 0x00, 0x41, 0, 0x0b, 1, 5];
  const code = [
    5,
    // The stack pointer's accessors: just the global (as Emscripten's are), or with a nop before.
    ...body([...(accessorsDoMore ? [0x01] : []), 0x23, 0]),
    ...body([...(accessorsDoMore ? [0x01] : []), 0x20, 0, 0x24, 0]),
    ...body([0x20, 0, 0x24, 1]),
    ...body([0x41, 5, 0x10, 3, 0x20, 0, 0x10, 1, ...extraCode, 0x20, 0, 0x41, 1, 0x6a]),
    ...body([0x41, 0, 0x20, 0, 0x10, 0]),
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...encodeSection(1, [types.length, ...types.flat()]),
    ...encodeSection(2, imports),
    ...encodeSection(3, functions),
    ...encodeSection(4, table),
    ...encodeSection(6, globals),
    ...encodeSection(7, exports),
    ...encodeSection(9, elements),
    ...encodeSection(10, code),
  ]);
}

class CppException extends Error {}

async function instantiate(bytes: Uint8Array<ArrayBuffer>) {
  let jsInvokes = 0;
  let flag: WebAssembly.Global | undefined;
  const thrown = { cpp: new CppException('a C++ exception'), other: new Error('an abort') };
  const env = {
    // The glue's trampoline: must no longer be called.
    invoke_ii: (index: number, a: number) => {
      jsInvokes++;
      return (table.get(index) as (a: number) => number)(a);
    },
    js_throw: (x: number) => {
      if (x === 1) {
        if (flag) flag.value = 1; // what the patched glue does before a C++ throw
        throw thrown.cpp;
      }
      if (x === 2) throw thrown.other;
    },
  };
  const { instance } = await WebAssembly.instantiate(bytes, { env });
  const x = instance.exports as Record<string, unknown>;
  const table = x.__indirect_function_table as WebAssembly.Table;
  flag = x[CPP_THROW_FLAG] as WebAssembly.Global | undefined;
  return { run: x.run as (a: number) => number, sp: x.sp as WebAssembly.Global, threw: x.threw as WebAssembly.Global, flag, thrown, jsInvokes: () => jsInvokes };
}

describe('the exception trampolines in the wasm', () => {
  it('returns what the callee returns, without the imported trampoline', async () => {
    const { bytes, trampolines, calls, stackPointer } = withWasmInvokes(emscriptenLike());
    expect({ trampolines, calls, stackPointer }).toEqual({ trampolines: 1, calls: 1, stackPointer: 'global' });
    const m = await instantiate(bytes);
    expect(m.run(41)).toBe(42);
    expect(m.jsInvokes()).toBe(0);
    expect(m.threw.value).toBe(0);
    // No exception: the stack pointer stays where the callee left it, as with the glue's trampoline.
    expect(m.sp.value).toBe(5);
  });

  it('turns a flagged C++ exception into setThrew(1, 0), the stack pointer restored and the flag cleared', async () => {
    const m = await instantiate(withWasmInvokes(emscriptenLike()).bytes);
    expect(m.run(1)).toBe(0);
    expect(m.threw.value).toBe(1);
    expect(m.sp.value).toBe(1000);
    expect(m.flag?.value).toBe(0);
    expect(m.jsInvokes()).toBe(0);
  });

  it('reaches the stack pointer through its accessors when they are more than the global', async () => {
    const moved = withWasmInvokes(emscriptenLike([], { accessorsDoMore: true }));
    expect(moved.stackPointer).toBe('calls');
    expect((await instantiate(moved.bytes)).run(41)).toBe(42);
    const m = await instantiate(moved.bytes);
    expect(m.run(1)).toBe(0);
    expect([m.threw.value, m.sp.value]).toEqual([1, 1000]);
    expect(() => m.run(2)).toThrow('an abort');
  });

  it('lets any other exception through as it was thrown', async () => {
    const m = await instantiate(withWasmInvokes(emscriptenLike()).bytes);
    let caught: unknown;
    try {
      m.run(2);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(m.thrown.other);
    expect(m.threw.value).toBe(0);
    // A stale flag from an exception that never reached a trampoline is cleared on the next entry.
    m.flag!.value = 1;
    expect(() => m.run(2)).toThrow('an abort');
    expect(m.threw.value).toBe(0);
  });

  it('behaves as the glue does on the module as it was (the imported trampoline)', async () => {
    const m = await instantiate(emscriptenLike());
    expect(m.run(41)).toBe(42);
    expect(m.jsInvokes()).toBe(1);
  });

  it('refuses a module it cannot read, or one already rewritten', () => {
    // 0xff is no instruction.
    expect(() => withWasmInvokes(emscriptenLike([0xff]))).toThrow(WasmFormatError);
    expect(() => withWasmInvokes(withWasmInvokes(emscriptenLike()).bytes)).toThrow(/already exports/);
    expect(() => withWasmInvokes(new Uint8Array([1, 2, 3]))).toThrow(WasmFormatError);
  });

  it("rewrites z3-solver's wasm: every invoke import gets its trampoline, and it compiles", async () => {
    const shipped = new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('z3-solver/build/z3-built.wasm')));
    const invokes = WebAssembly.Module.imports(new WebAssembly.Module(emscriptenLike())).length; // warm the API
    expect(invokes).toBe(2);
    const { bytes, trampolines, calls, stackPointer } = withWasmInvokes(shipped);
    expect(stackPointer).toBe('global');
    const imported = WebAssembly.Module.imports(await WebAssembly.compile(shipped)).filter((i) => i.module === 'env' && i.name.startsWith('invoke_'));
    expect(trampolines).toBe(imported.length);
    expect(calls).toBeGreaterThan(100_000);
    const m = await WebAssembly.compile(bytes);
    expect(WebAssembly.Module.exports(m)).toContainEqual({ name: CPP_THROW_FLAG, kind: 'global' });
    // The imports stay, so the glue links to it as before.
    expect(WebAssembly.Module.imports(m)).toEqual(WebAssembly.Module.imports(await WebAssembly.compile(shipped)));
  });

  it("is the Z3 the CLI runs, and Z3's own C++ exceptions (a parse error, a timeout) are caught inside it", async () => {
    expect(z3Files().patched).toBe(true);
    // The module the process's Z3 is instantiated from (and its worker threads are sent).
    expect(WebAssembly.Module.exports(await compiledZ3())).toContainEqual({ name: CPP_THROW_FLAG, kind: 'global' });
    const z3 = await nodeZ3();
    // Z3's SMT-LIB parser throws on an unknown symbol; the API catches it and reports an error.
    const s = new QuerySolver(z3.Z3, ['simplify', 'smt'], 0);
    try {
      expect(() => s.assert('(assert (= nope 1))')).toThrow(/unknown constant nope/);
    } finally {
      s.delete();
    }
    // A query that runs into its timeout (Z3 cancels by throwing inside): unknown, and the next one is fine.
    const engine = await nodeEngine();
    // Factoring a 128-bit product of two 64-bit primes.
    const [p, q] = [variable('inv.p', 64), variable('inv.q', 64)];
    const product = (2n ** 61n - 1n) * (2n ** 64n - 59n);
    const hard = [o.eq(o.mul(o.zext(64, p), o.zext(64, q)), bvConst(product, 128)), o.ugt(p, bvConst(1n, 64)), o.ugt(q, bvConst(1n, 64))];
    const r = await engine.check(hard, { timeoutMs: 50 });
    expect(r.status).toBe('unknown');
    const y = variable('inv.y', 8);
    const ok = await engine.check([o.eq(o.add(y, y), bvConst(6n, 8))]);
    expect(ok.status).toBe('sat');
    if (ok.status === 'sat') ok.model.dispose();
  });
});
