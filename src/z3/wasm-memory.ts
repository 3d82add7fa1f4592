/**
 * Reads and rewrites the limits of a WebAssembly module's imported memory
 * (docs/app.md, "Z3's memory"). z3-solver's wasm imports `env.memory` as a
 * shared memory of exactly 2 GiB (minimum = maximum = 32768 pages of 64 KiB),
 * and an import only links to a memory whose limits fit the declared ones: at
 * least the import's minimum, and a maximum no larger than its maximum. So the
 * site's one copy declares a range (256 MiB to 2 GiB), which links to a memory
 * of any size in it. Only the import's limits change; every other byte of the
 * module (code, data, custom sections) is copied as it is.
 *
 * The binary format, as far as it is needed here: the magic `\0asm` and
 * version 1, then sections, each an id byte and a LEB128 byte length. The
 * import section (id 2) is a vector of (module name, field name, kind,
 * description); a memory import (kind 2) is described by its limits: a flag
 * byte (bit 0: a maximum follows; bit 1: shared; bit 2: 64-bit indices) and
 * the minimum and maximum page counts as unsigned LEB128.
 */

import { IMPORT_SECTION, KIND_MEMORY, Reader, WasmFormatError, concatBytes, importEntries, sections, uleb } from './wasm-binary.ts';

/** The bytes of one 64 KiB WebAssembly page. */
export const WASM_PAGE = 65536;

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

/** The module's (first) imported memory; throws when it has none or the file is not a module. */
export function readMemoryImport(bytes: Uint8Array): MemoryImport {
  for (const { id, sectionStart, contentStart, sectionEnd } of sections(bytes)) {
    if (id !== IMPORT_SECTION) continue;
    for (const e of importEntries(new Reader(bytes, contentStart, sectionEnd))) {
      if (e.kind !== KIND_MEMORY) continue;
      const { min, max, shared, start, end } = e.limits;
      return { module: e.module, field: e.field, minPages: min, maxPages: max, shared, sectionStart, sectionEnd, limitsStart: start, limitsEnd: end };
    }
    throw new WasmFormatError('the module imports no memory', sectionStart);
  }
  throw new WasmFormatError('the module has no import section', bytes.length);
}

/**
 * A copy of `bytes` whose imported memory is at least `minPages` and at most
 * `maxPages` pages, shared if it was: it links to any memory whose initial
 * size is at least `minPages` and whose maximum is at most `maxPages` (a
 * shared memory always has a maximum). The import section's length is
 * re-encoded (a smaller page count can take fewer LEB128 bytes); nothing
 * else changes.
 */
export function withMemoryRange(bytes: Uint8Array, minPages: number, maxPages: number): Uint8Array<ArrayBuffer> {
  const mem = readMemoryImport(bytes);
  const is64 = (bytes[mem.limitsStart] & 4) !== 0;
  for (const pages of [minPages, maxPages]) {
    if (!Number.isInteger(pages) || pages < 1 || (!is64 && pages > 65536)) throw new RangeError(`a memory of ${pages} pages is out of range`);
  }
  if (minPages > maxPages) throw new RangeError(`a memory of at least ${minPages} pages cannot be at most ${maxPages}`);
  const flags = 1 | (mem.shared ? 2 : 0) | (is64 ? 4 : 0);
  const limits = [flags, ...uleb(minPages), ...uleb(maxPages)];
  // The import section's body: what precedes the limits, the new limits, what follows them.
  const body = new Reader(bytes, mem.sectionStart + 1, mem.sectionEnd);
  body.uleb(); // the old length
  const bodyStart = body.at;
  const newBodyLength = mem.sectionEnd - bodyStart - (mem.limitsEnd - mem.limitsStart) + limits.length;
  const head = [IMPORT_SECTION, ...uleb(newBodyLength)];
  return concatBytes([bytes.subarray(0, mem.sectionStart), head, bytes.subarray(bodyStart, mem.limitsStart), limits, bytes.subarray(mem.limitsEnd)]);
}

/** A copy of `bytes` whose imported memory is exactly `pages` pages (minimum = maximum = `pages`), shared if it was. */
export function withMemoryPages(bytes: Uint8Array, pages: number): Uint8Array<ArrayBuffer> {
  return withMemoryRange(bytes, pages, pages);
}

/** Whether a memory of `pages` pages (initial = maximum) links to the memory import `mem`. */
export function importAdmits(mem: Pick<MemoryImport, 'minPages' | 'maxPages'>, pages: number): boolean {
  return pages >= mem.minPages && (mem.maxPages === undefined || pages <= mem.maxPages);
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
  return concatBytes(kept);
}
