/**
 * Reads and rewrites the limits of a WebAssembly module's imported memory
 * (docs/app.md, "Z3's memory"). z3-solver's wasm imports `env.memory` as a
 * shared memory of exactly 2 GiB (minimum = maximum = 32768 pages of 64 KiB),
 * and an import only links to a memory whose limits fit the declared ones, so
 * running the same solver in less memory needs a copy of the module whose
 * import says so. Only the import's limits change; every other byte of the
 * module (code, data, custom sections) is copied as it is.
 *
 * The binary format, as far as it is needed here: the magic `\0asm` and
 * version 1, then sections, each an id byte and a LEB128 byte length. The
 * import section (id 2) is a vector of (module name, field name, kind,
 * description); a memory import (kind 2) is described by its limits: a flag
 * byte (bit 0: a maximum follows; bit 1: shared; bit 2: 64-bit indices) and
 * the minimum and maximum page counts as unsigned LEB128.
 */

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const IMPORT_SECTION = 2;
const KIND_FUNC = 0;
const KIND_TABLE = 1;
const KIND_MEMORY = 2;
const KIND_GLOBAL = 3;
const KIND_TAG = 4;

/** The bytes of one 64 KiB WebAssembly page. */
export const WASM_PAGE = 65536;

export class WasmFormatError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`not a WebAssembly module we can read: ${message} (at byte ${offset})`);
    this.name = 'WasmFormatError';
  }
}

/** A module's imported memory and where its limits sit in the file. */
export interface MemoryImport {
  readonly module: string;
  readonly field: string;
  readonly minPages: number;
  readonly maxPages?: number;
  readonly shared: boolean;
  /** Offset of the import section's id byte, and the offset just past the section. */
  readonly sectionStart: number;
  readonly sectionEnd: number;
  /** Offset of the limits' flag byte, and the offset just past the limits. */
  readonly limitsStart: number;
  readonly limitsEnd: number;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    private readonly end: number,
  ) {}

  byte(): number {
    if (this.at >= this.end) throw new WasmFormatError('unexpected end', this.at);
    return this.bytes[this.at++];
  }

  /** An unsigned LEB128 number of at most `bits` bits (as a JS number: at most 2^53). */
  uleb(bits = 32): number {
    const start = this.at;
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (i * 7 >= bits + 7) throw new WasmFormatError('LEB128 number too long', start);
      const b = this.byte();
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (!(b & 0x80)) break;
    }
    if (value >= 2 ** bits) throw new WasmFormatError('LEB128 number out of range', start);
    return value;
  }

  name(): string {
    const n = this.uleb();
    if (this.at + n > this.end) throw new WasmFormatError('name runs past its section', this.at);
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return text;
  }
}

/** `n` as unsigned LEB128. */
export function uleb(n: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`cannot encode ${n} as unsigned LEB128`);
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function readLimits(r: Reader): { minPages: number; maxPages?: number; shared: boolean } {
  const flags = r.byte();
  if (flags > 7) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)}`, r.at - 1);
  const bits = flags & 4 ? 64 : 32;
  const minPages = r.uleb(bits);
  const maxPages = flags & 1 ? r.uleb(bits) : undefined;
  return { minPages, maxPages, shared: (flags & 2) !== 0 };
}

function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && MAGIC.every((b, i) => bytes[i] === b);
}

/** A module's section: its id, where it starts (its id byte), where its contents start and where it ends. */
interface Section {
  readonly id: number;
  readonly sectionStart: number;
  readonly contentStart: number;
  readonly sectionEnd: number;
}

/** The sections of a module, in order; throws when the file does not start as one or a section runs past its end. */
function* sections(bytes: Uint8Array): Generator<Section> {
  if (!hasMagic(bytes)) throw new WasmFormatError('no \\0asm magic', 0);
  const file = new Reader(bytes, 8, bytes.length);
  while (file.at < bytes.length) {
    const sectionStart = file.at;
    const id = file.byte();
    const size = file.uleb();
    const contentStart = file.at;
    const sectionEnd = contentStart + size;
    if (sectionEnd > bytes.length) throw new WasmFormatError(`section ${id} runs past the end of the file`, sectionStart);
    yield { id, sectionStart, contentStart, sectionEnd };
    file.at = sectionEnd;
  }
}

/** The module's (first) imported memory; throws when it has none or the file is not a module. */
export function readMemoryImport(bytes: Uint8Array): MemoryImport {
  if (hasMagic(bytes) && (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0)) throw new WasmFormatError('not version 1', 4);
  for (const { id, sectionStart, contentStart, sectionEnd } of sections(bytes)) {
    if (id === IMPORT_SECTION) {
      const r = new Reader(bytes, contentStart, sectionEnd);
      const count = r.uleb();
      for (let i = 0; i < count; i++) {
        const module = r.name();
        const field = r.name();
        const kind = r.byte();
        switch (kind) {
          case KIND_FUNC:
            r.uleb();
            break;
          case KIND_TABLE:
            r.byte(); // the table's element type
            readLimits(r);
            break;
          case KIND_MEMORY: {
            const limitsStart = r.at;
            const limits = readLimits(r);
            return { module, field, ...limits, sectionStart, sectionEnd, limitsStart, limitsEnd: r.at };
          }
          case KIND_GLOBAL:
            r.byte(); // value type
            r.byte(); // mutability
            break;
          case KIND_TAG:
            r.byte(); // attribute
            r.uleb(); // type index
            break;
          default:
            throw new WasmFormatError(`unknown import kind ${kind}`, r.at - 1);
        }
      }
      throw new WasmFormatError('the module imports no memory', sectionStart);
    }
  }
  throw new WasmFormatError('the module has no import section', bytes.length);
}

/**
 * A copy of `bytes` whose imported memory is exactly `pages` pages (minimum =
 * maximum = `pages`), shared if it was. The import section's length is
 * re-encoded (a smaller page count can take fewer LEB128 bytes); nothing
 * else changes.
 */
export function withMemoryPages(bytes: Uint8Array, pages: number): Uint8Array<ArrayBuffer> {
  const mem = readMemoryImport(bytes);
  const is64 = (bytes[mem.limitsStart] & 4) !== 0;
  if (!Number.isInteger(pages) || pages < 1 || (!is64 && pages > 65536)) throw new RangeError(`a memory of ${pages} pages is out of range`);
  const flags = 1 | (mem.shared ? 2 : 0) | (is64 ? 4 : 0);
  const limits = [flags, ...uleb(pages), ...uleb(pages)];
  // The import section's body: what precedes the limits, the new limits, what follows them.
  const body = new Reader(bytes, mem.sectionStart + 1, mem.sectionEnd);
  body.uleb(); // the old length
  const bodyStart = body.at;
  const newBodyLength = mem.sectionEnd - bodyStart - (mem.limitsEnd - mem.limitsStart) + limits.length;
  const head = [IMPORT_SECTION, ...uleb(newBodyLength)];
  const out = new Uint8Array(bytes.length - (mem.sectionEnd - mem.sectionStart) + head.length + newBodyLength);
  let at = 0;
  const put = (part: ArrayLike<number>) => {
    out.set(part, at);
    at += part.length;
  };
  put(bytes.subarray(0, mem.sectionStart));
  put(head);
  put(bytes.subarray(bodyStart, mem.limitsStart));
  put(limits);
  put(bytes.subarray(mem.limitsEnd, mem.sectionEnd));
  put(bytes.subarray(mem.sectionEnd));
  return out;
}

/**
 * A copy of `bytes` without the custom sections (id 0) named `name`; every
 * other section is copied as it is. The site's Z3 goes without its `name`
 * section (4.9 MB of the 35 MB, function names for debuggers and stack
 * traces, which the engine never reads to run it): about 0.6 MB less to
 * download with brotli on a first visit (docs/app.md, "Loading Z3").
 */
export function withoutCustomSection(bytes: Uint8Array, name: string): Uint8Array<ArrayBuffer> {
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const { id, sectionStart, contentStart, sectionEnd } of sections(bytes)) {
    if (!(id === 0 && new Reader(bytes, contentStart, sectionEnd).name() === name)) kept.push(bytes.subarray(sectionStart, sectionEnd));
  }
  const out = new Uint8Array(kept.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of kept) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
