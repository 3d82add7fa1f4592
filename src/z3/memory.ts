/**
 * How much memory Z3 runs in (docs/app.md, "Z3's memory"). z3-solver's wasm
 * imports a fixed 2 GiB shared memory, which phones (iOS above all) refuse.
 * The build makes one copy of the wasm whose memory import admits every size
 * here, from the smallest to the largest (scripts/copy-z3.ts,
 * src/z3/wasm-memory.ts); a worker reserves the largest size the device
 * grants and hands it to that one wasm, so every size loads, and caches, the
 * same file.
 */
import { WASM_PAGE, withMemoryRange } from './wasm-memory.ts';

/** The sizes the worker tries, in MiB, largest first; the one wasm links to a memory of each. 2048 is what z3-solver ships for. */
export const Z3_MEMORY_MIB = [2048, 1024, 512, 256] as const;

export type Z3MemoryMiB = (typeof Z3_MEMORY_MIB)[number];

export const FULL_MEMORY_MIB: Z3MemoryMiB = 2048;

/** The smallest size, in MiB. */
export const LEAST_MEMORY_MIB: Z3MemoryMiB = Z3_MEMORY_MIB[Z3_MEMORY_MIB.length - 1];

/** Z3's one wasm file, next to the glue, for every memory size (the name z3-solver ships it under). */
export const Z3_WASM_FILE = 'z3-built.wasm';

/**
 * The files of the smaller sizes that builds before the single wasm wrote
 * (`z3-built-<MiB>m.wasm`): scripts/copy-z3.ts deletes them from public/, so
 * a build of an old checkout's public/ does not ship them.
 */
export const RETIRED_WASM_FILES: readonly string[] = Z3_MEMORY_MIB.filter((m) => m !== FULL_MEMORY_MIB).map((m) => `z3-built-${m}m.wasm`);

export function pagesOf(mib: number): number {
  return (mib * 1024 * 1024) / WASM_PAGE;
}

/** z3-solver's wasm with its memory import admitting every size, from the smallest to 2 GiB (the one wasm of the site and the CLI). */
export function withEveryZ3Memory(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return withMemoryRange(bytes, pagesOf(LEAST_MEMORY_MIB), pagesOf(FULL_MEMORY_MIB));
}

/** A size named by a setting ("512", "512m", "512 MiB"), or undefined when it names none of ours. */
export function parseZ3Memory(text: string | null | undefined): Z3MemoryMiB | undefined {
  const m = /^\s*(\d+)\s*(m|mib|mb)?\s*$/i.exec(text ?? '');
  const n = m ? Number(m[1]) : NaN;
  return (Z3_MEMORY_MIB as readonly number[]).includes(n) ? (n as Z3MemoryMiB) : undefined;
}

/** The sizes to try, largest first: all of them, or from `cap` down when a setting caps it. */
export function sizesToTry(cap?: Z3MemoryMiB): Z3MemoryMiB[] {
  return Z3_MEMORY_MIB.filter((m) => cap === undefined || m <= cap);
}

/**
 * Reserves the largest shared memory `reserve` grants among `sizes`; the
 * reservation is kept and handed to Z3, so the memory is reserved once.
 * Returns undefined when every size is refused.
 */
export function reserveLargest<M>(sizes: readonly Z3MemoryMiB[], reserve: (pages: number) => M): { readonly mib: Z3MemoryMiB; readonly memory: M } | undefined {
  for (const mib of sizes) {
    try {
      return { mib, memory: reserve(pagesOf(mib)) };
    } catch {
      // Refused (RangeError: out of memory): try the next size down.
    }
  }
  return undefined;
}
