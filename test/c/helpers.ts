/** Shared pieces of the C front-end tests: source maps, gcc, and concrete memories. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CProgram, type CType, parseProgram } from '../../src/core/c/index.ts';
import type { Interpretation, Value } from '../../src/core/smt/eval.ts';
import { BOOL } from '../../src/core/smt/term.ts';

export const GCC = '/usr/bin/gcc';
export const KERNEL_DIR = join(import.meta.dirname, '../../tasks/hv6/kernel');
export const FIXTURES = join(import.meta.dirname, 'fixtures');

/** All files of a directory as a SourceFiles map (names relative to it). */
export function readDir(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(dir)) if (/\.[ch]$/.test(f)) files.set(f, readFileSync(join(dir, f), 'utf8'));
  return files;
}

export function kernelFiles(): Map<string, string> | undefined {
  if (!existsSync(join(KERNEL_DIR, 'kernel.h'))) return undefined;
  return readDir(KERNEL_DIR);
}

/** Parses or throws with every diagnostic's detail. */
export function mustParse(files: ReadonlyMap<string, string>, units: string[], overrides: { path: string; text: string }[] = []): CProgram {
  const r = parseProgram(files, units, overrides);
  if (!r.ok) throw new Error(r.errors.map((e) => e.detail ?? e.message).join('\n'));
  return r.program;
}

/** Compiles C files (written to a fresh directory) with gcc and returns the executable's path. */
export function compileC(sources: Record<string, string>, main: string, flags: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'osvlab-c-'));
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, name), text);
  const exe = join(dir, 'a.out');
  execFileSync(GCC, ['-std=gnu11', '-O0', '-fwrapv', '-w', '-I', dir, ...flags, '-o', exe, join(dir, main)], { stdio: 'pipe' });
  return exe;
}

export function run(exe: string, input = ''): string {
  return execFileSync(exe, { input, maxBuffer: 1 << 28 }).toString();
}

/** A leaf of a global with the C expression that reaches one element of it. */
export interface CLeaf {
  readonly key: string;
  readonly dims: number[];
  /** e.g. `items[%0].arr[%1]` */
  readonly access: string;
  readonly width: number;
  readonly bool: boolean;
}

/** Every scalar leaf of the program's globals, with array lengths, in memoryLeaves order. */
export function cLeaves(program: CProgram): CLeaf[] {
  const out: CLeaf[] = [];
  const walk = (t: CType, key: string, access: string, dims: number[]) => {
    if (t.kind === 'int') out.push({ key, dims, access, width: t.width, bool: t.bool });
    else if (t.kind === 'array') walk(t.of, key, `${access}[%${dims.length}]`, [...dims, t.length]);
    else if (t.kind === 'struct') {
      for (const m of t.members) {
        if (m.name === undefined) walk(m.type, key, access, dims);
        else walk(m.type, `${key}.${m.name}`, `${access}.${m.name}`, dims);
      }
    }
  };
  for (const g of program.globals.values()) walk(g.type, g.name, g.name, []);
  return out;
}

/** All index tuples of a leaf, row-major. */
export function indexTuples(dims: number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of dims) out = out.flatMap((t) => Array.from({ length: n }, (_, i) => [...t, i]));
  return out;
}

/** Concrete initial memory: key -> "i,j" -> value. */
export type ConcreteMemory = Map<string, Map<string, bigint>>;

/**
 * An interpretation giving the fresh C memory (prefix `c:`) the values of
 * `mem`, the named constants the values of `consts`, and 0 to anything else.
 */
export function memoryInterpretation(mem: ConcreteMemory, consts: ReadonlyMap<string, bigint | boolean>): Interpretation {
  return {
    constant(name, sort): Value {
      const c = consts.get(name);
      if (c !== undefined) return c;
      if (name.startsWith('c:')) {
        const v = mem.get(name.slice(2))?.get('');
        if (v !== undefined) return v;
      }
      return sort === BOOL ? false : 0n;
    },
    apply(decl, args): Value {
      if (decl.name.startsWith('c:')) {
        const v = mem.get(decl.name.slice(2))?.get(args.join(','));
        if (v !== undefined) return v;
      }
      return decl.range === BOOL ? false : 0n;
    },
  };
}

/** A small deterministic PRNG (xorshift64*), so failures reproduce. */
export class Rng {
  private s: bigint;
  constructor(seed: number) {
    this.s = BigInt(seed) * 0x9e3779b97f4a7c15n + 1n;
  }
  next64(): bigint {
    let x = this.s;
    x ^= x >> 12n;
    x ^= (x << 25n) & 0xffffffffffffffffn;
    x ^= x >> 27n;
    this.s = x;
    return (x * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
  }
  below(n: number): number {
    return Number(this.next64() % BigInt(n));
  }
  /** A value of `width` bits, biased toward edge cases. */
  bits(width: number): bigint {
    const m = (1n << BigInt(width)) - 1n;
    const edges = [0n, 1n, 2n, 3n, 5n, 7n, m, m - 1n, m >> 1n, (m >> 1n) + 1n, 100n, 255n, 256n, 1000n];
    const r = this.below(10);
    if (r < 3) return edges[this.below(edges.length)] & m;
    if (r < 5) return BigInt(this.below(64)) & m;
    if (r < 6) return (m - BigInt(this.below(64))) & m;
    return this.next64() & m;
  }
}
