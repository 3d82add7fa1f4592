/**
 * What our build steps read of the WebAssembly binary format (docs/app.md,
 * "Z3's memory" and "Z3's invoke trampolines"): the magic `\0asm` and
 * version 1, then sections, each an id byte and a LEB128 byte length; names
 * are a LEB128 length and UTF-8 bytes. A reader over a byte range, the
 * LEB128 encoder, and the walk over a module's sections.
 */

const MAGIC = [0x00, 0x61, 0x73, 0x6d];

export const TYPE_SECTION = 1;
export const IMPORT_SECTION = 2;
export const FUNCTION_SECTION = 3;
export const GLOBAL_SECTION = 6;
export const EXPORT_SECTION = 7;
export const CODE_SECTION = 10;

export const KIND_FUNC = 0;
export const KIND_TABLE = 1;
export const KIND_MEMORY = 2;
export const KIND_GLOBAL = 3;
const KIND_TAG = 4;

export class WasmFormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`not a WebAssembly module we can read: ${message} (at byte ${offset})`);
    this.name = 'WasmFormatError';
  }
}

export class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number,
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

  /** Steps over a signed (or unsigned) LEB128 number of at most `bits` bits without reading its value. */
  skipLeb(bits: number): void {
    const start = this.at;
    for (let i = 0; ; i++) {
      if (i * 7 >= bits + 7) throw new WasmFormatError('LEB128 number too long', start);
      if (!(this.byte() & 0x80)) return;
    }
  }

  skip(n: number): void {
    if (this.at + n > this.end) throw new WasmFormatError('unexpected end', this.at);
    this.at += n;
  }

  name(): string {
    const n = this.uleb();
    if (this.at + n > this.end) throw new WasmFormatError('name runs past its section', this.at);
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return text;
  }
}

/** The limits of an imported table or memory, and where they sit in the file (their flag byte, and just past them). */
export interface MemoryLimits {
  readonly min: number;
  readonly max?: number;
  readonly shared: boolean;
  readonly start: number;
  readonly end: number;
}

/**
 * MemoryLimits: a flag byte (bit 0: a maximum follows; bit 1: shared; bit 2:
 * 64-bit indices), then the minimum and the maximum as unsigned LEB128.
 */
function readLimits(r: Reader): MemoryLimits {
  const start = r.at;
  const flags = r.byte();
  if (flags > 7) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)}`, start);
  const bits = flags & 4 ? 64 : 32;
  const min = r.uleb(bits);
  const max = flags & 1 ? r.uleb(bits) : undefined;
  return { min, max, shared: (flags & 2) !== 0, start, end: r.at };
}

interface Named {
  readonly module: string;
  readonly field: string;
}

/** One entry of the import section: a function with its type index, a table or memory with its limits, a global or a tag. */
export type ImportEntry =
  | (Named & { readonly kind: typeof KIND_FUNC; readonly type: number })
  | (Named & { readonly kind: typeof KIND_TABLE | typeof KIND_MEMORY; readonly limits: MemoryLimits })
  | (Named & { readonly kind: typeof KIND_GLOBAL | typeof KIND_TAG });

/** The entries of an import section, in order; `r` reads the section's contents. */
export function* importEntries(r: Reader): Generator<ImportEntry> {
  for (let n = r.uleb(); n > 0; n--) {
    const module = r.name();
    const field = r.name();
    const kind = r.byte();
    switch (kind) {
      case KIND_FUNC:
        yield { module, field, kind, type: r.uleb() };
        break;
      case KIND_TABLE:
        r.byte(); // the table's element type
        yield { module, field, kind, limits: readLimits(r) };
        break;
      case KIND_MEMORY:
        yield { module, field, kind, limits: readLimits(r) };
        break;
      case KIND_GLOBAL:
        r.byte(); // value type
        r.byte(); // mutability
        yield { module, field, kind };
        break;
      case KIND_TAG:
        r.byte(); // attribute
        r.uleb(); // type index
        yield { module, field, kind };
        break;
      default:
        throw new WasmFormatError(`unknown import kind ${kind}`, r.at - 1);
    }
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

/** A signed integer (at most 53 bits) as signed LEB128, in its shortest form. */
export function sleb(n: number): number[] {
  if (!Number.isInteger(n)) throw new RangeError(`cannot encode ${n} as signed LEB128`);
  const out: number[] = [];
  for (;;) {
    const byte = ((n % 128) + 128) % 128;
    n = Math.floor(n / 128);
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** `s` as a name: its UTF-8 length, then its bytes. */
export function encodeName(s: string): number[] {
  const bytes = new TextEncoder().encode(s);
  return [...uleb(bytes.length), ...bytes];
}

function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && MAGIC.every((b, i) => bytes[i] === b);
}

/** A module's section: its id, where it starts (its id byte), where its contents start and where it ends. */
export interface Section {
  readonly id: number;
  readonly sectionStart: number;
  readonly contentStart: number;
  readonly sectionEnd: number;
}

/** The sections of a module, in order; throws when the file does not start as one or a section runs past its end. */
export function* sections(bytes: Uint8Array): Generator<Section> {
  if (!hasMagic(bytes)) throw new WasmFormatError('no \\0asm magic', 0);
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) throw new WasmFormatError('not version 1', 4);
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

/** A section as bytes: its id, its length, its contents. */
export function encodeSection(id: number, contents: ArrayLike<number>): number[] {
  return [id, ...uleb(contents.length), ...Array.from(contents)];
}

/** The parts laid end to end in one new array. */
export function concatBytes(parts: readonly ArrayLike<number>[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
