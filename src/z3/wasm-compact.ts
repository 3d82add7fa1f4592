/**
 * Z3's code without the linker's padding (docs/app.md, "Z3's memory"). The
 * linker writes every index and address it may relocate as a LEB128 number
 * of five bytes, whatever its value: in z3-solver's wasm, 441,000
 * `global.get`/`global.set` of the stack pointer, 425,000 direct calls,
 * 82,000 `i32.const` addresses and 8,000 `call_indirect`s carry 3.1 MB of
 * bytes that say nothing (a tenth of the file). `withCompactCode` writes each
 * of those immediates in its shortest form, and each function body's and the
 * code section's lengths to match; every value, and every other byte of the
 * module, is as it was. Nothing in the module points into the code section by
 * byte offset (no DWARF; the `name` section names functions by index), so
 * the module means the same; only an error's `wasm-function[N]:0x...` offset
 * reads differently.
 */
import { CODE_SECTION, Reader, WasmFormatError, concatBytes, sections, sleb, uleb } from './wasm-binary.ts';
import { type Immediate, skipLocals, stepInstruction } from './wasm-instructions.ts';

/** The signed LEB128 number of at most 32 bits at `r`'s offset. */
function readSleb32(r: Reader): number {
  const start = r.at;
  let value = 0;
  let scale = 1;
  for (let i = 0; ; i++) {
    if (i >= 5) throw new WasmFormatError('LEB128 number too long', start);
    const b = r.byte();
    value += (b & 0x7f) * scale;
    scale *= 128;
    if (!(b & 0x80)) return b & 0x40 ? value - scale : value;
  }
}

/** The shortest encoding of the immediate of `kind` at `r`'s offset, and `r` past the original. */
function shortest(kind: Immediate, r: Reader): number[] {
  return kind === 'i32' ? sleb(readSleb32(r)) : uleb(r.uleb());
}

export interface CompactCode {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Bytes saved. */
  readonly saved: number;
}

/**
 * A copy of `bytes` whose code section's call, global, `call_indirect` and
 * `i32.const` immediates are in their shortest LEB128 form. Throws
 * `WasmFormatError` on an instruction it does not know.
 */
export function withCompactCode(bytes: Uint8Array): CompactCode {
  const parts: (Uint8Array | number[])[] = [bytes.subarray(0, 8)];
  let saved = 0;
  for (const s of sections(bytes)) {
    if (s.id !== CODE_SECTION) {
      parts.push(bytes.subarray(s.sectionStart, s.sectionEnd));
      continue;
    }
    const r = new Reader(bytes, s.contentStart, s.sectionEnd);
    const imm = new Reader(bytes, s.contentStart, s.sectionEnd);
    const count = r.uleb();
    const code: (Uint8Array | number[])[] = [uleb(count)];
    for (let i = 0; i < count; i++) {
      const sizeAt = r.at;
      const size = r.uleb();
      const end = r.at + size;
      if (end > s.sectionEnd) throw new WasmFormatError('a function body runs past the code section', r.at);
      const body = new Reader(bytes, r.at, end);
      skipLocals(body);
      // The body's pieces: unchanged runs of bytes, and the shortened immediates between them.
      const pieces: (Uint8Array | number[])[] = [];
      let copied = r.at;
      const seen = (kind: Immediate, at: number) => {
        imm.at = at;
        const short = shortest(kind, imm);
        if (short.length === imm.at - at) return;
        pieces.push(bytes.subarray(copied, at), short);
        copied = imm.at;
      };
      while (body.at < end) stepInstruction(body, seen);
      if (pieces.length === 0) code.push(bytes.subarray(sizeAt, end));
      else {
        pieces.push(bytes.subarray(copied, end));
        const length = pieces.reduce((n, p) => n + p.length, 0);
        code.push(uleb(length), ...pieces);
      }
      r.at = end;
    }
    const contents = concatBytes(code);
    parts.push([CODE_SECTION, ...uleb(contents.length)], contents);
    saved = s.sectionEnd - s.sectionStart - (contents.length + 1 + uleb(contents.length).length);
  }
  return { bytes: concatBytes(parts), saved };
}
