/**
 * How much memory Z3 runs in (docs/app.md, "Z3's memory"). z3-solver's wasm
 * reserves a fixed 2 GiB shared memory, which phones (iOS above all) refuse.
 * The build makes copies of the same wasm whose memory import is smaller
 * (scripts/copy-z3.ts, src/worker/wasm-memory.ts); a worker reserves the
 * largest size the device grants and loads the copy made for it. Each size
 * has one URL of its own, so only the size in use is downloaded and cached.
 */
import { WASM_PAGE } from './wasm-memory.ts';

/** The sizes there is a wasm for, in MiB, largest first. 2048 is the wasm as z3-solver ships it. */
export const Z3_MEMORY_MIB = [2048, 1024, 512, 256] as const;

export type Z3MemoryMiB = (typeof Z3_MEMORY_MIB)[number];

export const FULL_MEMORY_MIB: Z3MemoryMiB = 2048;

/** The wasm file of a size, next to the glue: the shipped name for 2 GiB, `z3-built-<MiB>m.wasm` for the others. */
export function z3WasmFile(mib: Z3MemoryMiB): string {
  return mib === FULL_MEMORY_MIB ? 'z3-built.wasm' : `z3-built-${mib}m.wasm`;
}

export function pagesOf(mib: number): number {
  return (mib * 1024 * 1024) / WASM_PAGE;
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
