/**
 * The linker's padding out of Z3's code (src/z3/wasm-compact.ts), on a
 * module built byte by byte with every immediate it shortens padded to five
 * bytes, as wasm-ld writes them: each comes out in its shortest LEB128 form,
 * the bodies' and the section's lengths follow, and the module computes the
 * same. z3-solver's own wasm is compacted by the build (test/z3/glue.test.ts
 * checks the site's file; the CLI runs Z3 from its compacted copy).
 */
import { describe, expect, it } from 'vitest';
import { WasmFormatError, sleb, uleb } from '../../src/z3/wasm-binary.ts';
import { withCompactCode } from '../../src/z3/wasm-compact.ts';

/** `n` as a LEB128 number of five bytes, signed or not, as the linker pads what it may relocate. */
const padded = (n: number) => [0, 7, 14, 21].map((k) => ((n >> k) & 0x7f) | 0x80).concat((n >> 28) & 0x7f);
const section = (id: number, contents: number[]) => [id, ...uleb(contents.length), ...contents];
const body = (code: number[]) => [...uleb(code.length + 1), 0x00, ...code];

/**
 * f() = g(global 0 + -2) called directly, then its result given to g again through the table, with g(x) = x * 1000;
 * `pad` writes every index and constant padded (else as short as it goes).
 */
function module(pad: boolean): Uint8Array<ArrayBuffer> {
  const u = (n: number) => (pad ? padded(n) : uleb(n));
  const s = (n: number) => (pad ? padded(n) : sleb(n));
  const f = [0x23, ...u(0), 0x41, ...s(-2), 0x6a, 0x10, ...u(1), 0x41, ...s(0), 0x11, ...u(1), ...u(0), 0x0b];
  const g = [0x20, 0x00, 0x41, ...s(1000), 0x6c, 0x0b];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x02, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x01, 0x7f]), // () -> i32, (i32) -> i32
    ...section(3, [0x02, 0x00, 0x01]),
    ...section(4, [0x01, 0x70, 0x00, 0x01]), // one funcref table
    ...section(6, [0x01, 0x7f, 0x01, 0x41, 0x07, 0x0b]), // global 0: mutable i32 = 7
    ...section(7, [0x01, 0x01, 0x66, 0x00, 0x00]), // export "f"
    ...section(9, [0x01, 0x00, 0x41, 0x00, 0x0b, 0x01, 0x01]), // table[0] = g
    ...section(10, [0x02, ...body(f), ...body(g)]),
  ]);
}

describe("the linker's padding", () => {
  it('writes each call, global, call_indirect and i32.const immediate in its shortest form, and the module computes the same', async () => {
    const loose = module(true);
    const { bytes, saved } = withCompactCode(loose);
    // f: four indices (global, callee, type, table) 4 bytes too long, -2 and 0 as one byte each (4 + 4); g: 1000 in two bytes (3).
    expect(saved).toBe(4 * 4 + 4 + 4 + 3);
    expect(bytes.length).toBe(loose.length - saved);
    expect(Buffer.compare(bytes, module(false))).toBe(0);
    const run = async (b: Uint8Array<ArrayBuffer>) => ((await WebAssembly.instantiate(b)).instance.exports.f as () => number)();
    expect(await run(loose)).toBe(5_000_000);
    expect(await run(bytes)).toBe(5_000_000);
    // What is already short is left as it is.
    expect(withCompactCode(bytes)).toEqual({ bytes, saved: 0 });
  });

  it('encodes signed numbers as short as they go', () => {
    expect([0, 63, 64, -1, -64, -65, 1000, 2 ** 31 - 1, -(2 ** 31)].map(sleb)).toEqual([
      [0x00],
      [0x3f],
      [0xc0, 0x00],
      [0x7f],
      [0x40],
      [0xbf, 0x7f],
      [0xe8, 0x07],
      [0xff, 0xff, 0xff, 0xff, 0x07],
      [0x80, 0x80, 0x80, 0x80, 0x78],
    ]);
  });

  it('refuses code it cannot read rather than misread it', () => {
    const unknown = module(false);
    const at = unknown.indexOf(0x6c); // g's i32.mul becomes an opcode no proposal defines
    unknown[at] = 0xc5;
    expect(() => withCompactCode(unknown)).toThrow(WasmFormatError);
  });
});
