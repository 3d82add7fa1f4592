/**
 * The wasm import rewrite (src/z3/wasm-memory.ts) on z3-solver's own
 * wasm and on small modules built byte by byte: the memory import is found,
 * its limits are rewritten to the asked size or range, everything else is
 * kept, and what comes out compiles and links to a memory of those sizes only.
 * The one wasm of the site and the CLI (src/z3/memory.ts) links to a
 * memory of every size the worker may reserve.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Reader, WasmFormatError, uleb } from '../../src/z3/wasm-binary.ts';
import { importAdmits, readMemoryImport, withMemoryPages, withMemoryRange, withoutCustomSection } from '../../src/z3/wasm-memory.ts';
import { RETIRED_WASM_FILES, Z3_MEMORY_MIB, Z3_WASM_FILE, parseZ3Memory, pagesOf, reserveLargest, sizesToTry, withEveryZ3Memory } from '../../src/z3/memory.ts';

const shipped = () => new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('z3-solver/build/z3-built.wasm')));

/** A module with a function import, a global import and then a memory import with the given limits bytes. */
function tiny(limits: number[]): Uint8Array<ArrayBuffer> {
  const name = (s: string) => [s.length, ...new TextEncoder().encode(s)];
  const type = [0x01, 0x04, 0x01, 0x60, 0x00, 0x00]; // one type: [] -> []
  const imports = [0x03, ...name('env'), ...name('f'), 0x00, 0x00, ...name('env'), ...name('g'), 0x03, 0x7f, 0x00, ...name('env'), ...name('memory'), 0x02, ...limits];
  const custom = [0x00, 0x05, 0x04, ...new TextEncoder().encode('note')];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0, 0, 0, ...type, 0x02, ...uleb(imports.length), ...imports, ...custom]);
}

describe('the memory import rewrite', () => {
  it("reads z3-solver's import: env.memory, shared, exactly 2 GiB", () => {
    const m = readMemoryImport(shipped());
    expect({ module: m.module, field: m.field, min: m.minPages, max: m.maxPages, shared: m.shared }).toEqual({ module: 'env', field: 'memory', min: 32768, max: 32768, shared: true });
  });

  it("makes 1 GiB, 512 MiB and 256 MiB copies of z3-solver's wasm that differ only in the limits and compile", async () => {
    const original = shipped();
    const m = readMemoryImport(original);
    for (const mib of [1024, 512, 256]) {
      const copy = withMemoryPages(original, pagesOf(mib));
      const c = readMemoryImport(copy);
      expect([c.minPages, c.maxPages, c.shared]).toEqual([pagesOf(mib), pagesOf(mib), true]);
      // Everything after the import section is byte for byte the original's.
      const tail = original.subarray(m.sectionEnd);
      expect(Buffer.compare(copy.subarray(copy.length - tail.length), tail)).toBe(0);
      expect(Buffer.compare(copy.subarray(0, m.sectionStart), original.subarray(0, m.sectionStart))).toBe(0);
    }
    // The smallest one compiles (V8 validates the whole module) and asks for the rewritten memory.
    const small = await WebAssembly.compile(withMemoryPages(original, pagesOf(256)));
    expect(WebAssembly.Module.imports(small).filter((i) => i.kind === 'memory')).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
  });

  it('links only to a memory of the new size', async () => {
    const big = tiny([0x03, ...uleb(8), ...uleb(8)]);
    const small = withMemoryPages(big, 2);
    expect(small.length).toBe(big.length); // 8 and 2 both take one LEB128 byte
    const f = () => undefined;
    const g = new WebAssembly.Global({ value: 'i32', mutable: false }, 0);
    const memory = (pages: number) => new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    await expect(WebAssembly.instantiate(small, { env: { f, g, memory: memory(2) } })).resolves.toBeDefined();
    await expect(WebAssembly.instantiate(big, { env: { f, g, memory: memory(2) } })).rejects.toThrow();
    await expect(WebAssembly.instantiate(small, { env: { f, g, memory: memory(8) } })).rejects.toThrow();
  });

  it('re-encodes the section length when the limits change length, and keeps the custom section', () => {
    const big = tiny([0x03, ...uleb(32768), ...uleb(32768)]);
    const small = withMemoryPages(big, 100);
    expect(small.length).toBe(big.length - 4); // two 3-byte LEB128s become 1-byte ones
    expect(readMemoryImport(small)).toMatchObject({ minPages: 100, maxPages: 100, shared: true, field: 'memory' });
    expect(new TextDecoder().decode(small.subarray(-4))).toBe('note');
    expect(WebAssembly.validate(small)).toBe(true);
    // A memory without a maximum gets one; an unshared one stays unshared.
    expect(readMemoryImport(withMemoryPages(tiny([0x00, 0x04]), 3))).toMatchObject({ minPages: 3, maxPages: 3, shared: false });
  });

  it('declares a range: links to a memory of any size in it, and of no other', async () => {
    const exact = tiny([0x03, ...uleb(8), ...uleb(8)]);
    const ranged = withMemoryRange(exact, 2, 8);
    expect(readMemoryImport(ranged)).toMatchObject({ minPages: 2, maxPages: 8, shared: true });
    expect(WebAssembly.validate(ranged)).toBe(true);
    const f = () => undefined;
    const g = new WebAssembly.Global({ value: 'i32', mutable: false }, 0);
    const link = (bytes: Uint8Array<ArrayBuffer>, pages: number) =>
      WebAssembly.instantiate(bytes, { env: { f, g, memory: new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) } });
    for (const pages of [2, 4, 8]) await expect(link(ranged, pages), `${pages} pages`).resolves.toBeDefined();
    await expect(link(ranged, 1)).rejects.toThrow();
    await expect(link(ranged, 9)).rejects.toThrow();
    await expect(link(exact, 4)).rejects.toThrow();
    expect([1, 2, 8, 9].map((p) => importAdmits(readMemoryImport(ranged), p))).toEqual([false, true, true, false]);
    expect(() => withMemoryRange(exact, 9, 8)).toThrow(RangeError);
  });

  it('says what is wrong with a file it cannot read', () => {
    expect(() => readMemoryImport(new Uint8Array([1, 2, 3]))).toThrow(WasmFormatError);
    expect(() => readMemoryImport(new Uint8Array([0, 0x61, 0x73, 0x6d, 2, 0, 0, 0]))).toThrow('not version 1');
    const noMemory = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0, 0, 0, 0x02, 0x01, 0x00]);
    expect(() => readMemoryImport(noMemory)).toThrow('imports no memory');
    const truncated = tiny([0x03, ...uleb(8), ...uleb(8)]).subarray(0, 20);
    expect(() => readMemoryImport(truncated)).toThrow(WasmFormatError);
    expect(() => withMemoryPages(tiny([0x03, 1, 1]), 0)).toThrow(RangeError);
  });
});

describe('dropping a custom section', () => {
  it('removes exactly the named custom section and keeps a valid module', () => {
    const m = tiny([0x03, 0x01, 0x01]);
    const stripped = withoutCustomSection(m, 'note');
    // The custom section of tiny() is its last 7 bytes: id, length, name length, 'note'.
    expect(Buffer.compare(stripped, m.subarray(0, m.length - 7))).toBe(0);
    expect(WebAssembly.validate(stripped)).toBe(true);
    expect(Buffer.compare(withoutCustomSection(m, 'name'), m)).toBe(0);
    expect(() => withoutCustomSection(m.subarray(0, m.length - 2), 'note')).toThrow(WasmFormatError);
  });

  it("takes z3-solver's function names out (the site's copy) and nothing else", () => {
    const original = shipped();
    const stripped = withoutCustomSection(original, 'name');
    expect(original.length - stripped.length).toBeGreaterThan(1e6);
    expect(readMemoryImport(stripped).minPages).toBe(32768);
    expect(Buffer.compare(withoutCustomSection(stripped, 'name'), stripped)).toBe(0);
  });
});

describe("Z3's memory sizes", () => {
  it("makes one wasm of z3-solver's whose import admits 256 MiB to 2 GiB, and that links to a memory of each size", async () => {
    const original = withoutCustomSection(shipped(), 'name');
    const one = withEveryZ3Memory(original);
    const m = readMemoryImport(original);
    const c = readMemoryImport(one);
    expect({ module: c.module, field: c.field, min: c.minPages, max: c.maxPages, shared: c.shared }).toEqual({ module: 'env', field: 'memory', min: pagesOf(256), max: pagesOf(2048), shared: true });
    // Only the limits changed (and the section's length with them: 4096 takes two LEB128 bytes, 32768 three).
    expect(one.length).toBe(original.length - 1);
    expect(Buffer.compare(one.subarray(0, m.sectionStart), original.subarray(0, m.sectionStart))).toBe(0);
    const bodyStart = (bytes: Uint8Array, sectionStart: number) => {
      const r = new Reader(bytes, sectionStart + 1, bytes.length);
      r.uleb();
      return r.at;
    };
    expect(Buffer.compare(one.subarray(bodyStart(one, c.sectionStart), c.limitsStart), original.subarray(bodyStart(original, m.sectionStart), m.limitsStart))).toBe(0);
    expect(Buffer.compare(one.subarray(c.limitsEnd), original.subarray(m.limitsEnd))).toBe(0);
    expect(WebAssembly.validate(one)).toBe(true);
    // The compiled module links to the memory the worker reserves for each size (initial = maximum, shared); its
    // other imports are the glue's functions, stood in for here (instantiating runs none of them).
    const module = await WebAssembly.compile(one);
    const stubs = (memory: WebAssembly.Memory) => {
      const imports: Record<string, Record<string, unknown>> = { env: { memory } };
      for (const i of WebAssembly.Module.imports(module)) if (i.kind === 'function') (imports[i.module] ??= {})[i.name] = () => 0;
      return imports as WebAssembly.Imports;
    };
    const sized = (pages: number) => new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    for (const mib of Z3_MEMORY_MIB) {
      const instance = await WebAssembly.instantiate(module, stubs(sized(pagesOf(mib))));
      expect(instance.exports.malloc ?? instance.exports._malloc, `${mib} MiB`).toBeDefined();
    }
    // Below the smallest size it does not link, and the wasm as z3-solver ships it links to 2 GiB only.
    await expect(WebAssembly.instantiate(module, stubs(sized(pagesOf(128))))).rejects.toThrow(WebAssembly.LinkError);
    await expect(WebAssembly.instantiate(await WebAssembly.compile(original), stubs(sized(pagesOf(256))))).rejects.toThrow(WebAssembly.LinkError);
  });

  it('has one file for every size, under the name z3-solver ships it with', () => {
    expect(Z3_WASM_FILE).toBe('z3-built.wasm');
    expect(RETIRED_WASM_FILES).toEqual(['z3-built-1024m.wasm', 'z3-built-512m.wasm', 'z3-built-256m.wasm']);
    expect([parseZ3Memory('512'), parseZ3Memory(' 256m '), parseZ3Memory('1024 MiB'), parseZ3Memory('300'), parseZ3Memory(null)]).toEqual([512, 256, 1024, undefined, undefined]);
    expect(sizesToTry(512)).toEqual([512, 256]);
  });

  it('reserves the largest size that is granted, and nothing when none is', () => {
    const granted = (maxPages: number) => (pages: number) => {
      if (pages > maxPages) throw new RangeError('WebAssembly.Memory(): could not allocate memory');
      return pages;
    };
    expect(reserveLargest(sizesToTry(), granted(pagesOf(600)))).toEqual({ mib: 512, memory: pagesOf(512) });
    expect(reserveLargest(sizesToTry(), granted(pagesOf(4096)))).toEqual({ mib: 2048, memory: pagesOf(2048) });
    expect(reserveLargest(sizesToTry(), granted(pagesOf(100)))).toBeUndefined();
  });
});
