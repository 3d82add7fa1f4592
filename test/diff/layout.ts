/**
 * Where each memory cell of the executor's model (a leaf key such as
 * `proc_table.ofile` plus one index per array dimension) lives in the native
 * program's globals: byte offset and size, from the layout our C front end
 * computes. The generated driver checks these offsets against gcc with
 * static asserts (native.ts), so a layout disagreement stops the build.
 */
import { type CProgram, type CType, type IntType, memoryLeaves } from '../../src/core/c/index.ts';

/** One step of the path from a global's element type to a leaf, for C designators. */
type Seg = { readonly kind: 'member'; readonly name: string } | { readonly kind: 'index' };

export interface LeafLayout {
  readonly key: string;
  readonly global: string;
  /** Index of the global in `Layout.globals` (the driver's global number). */
  readonly g: number;
  /** Array lengths of the leaf's dimensions, outer to inner. */
  readonly dims: readonly number[];
  /** Bytes per step of each dimension. */
  readonly strides: readonly number[];
  /** Offset of element (0, ..., 0) in the global. */
  readonly base: number;
  readonly size: number;
  readonly type: IntType;
  readonly bitField: boolean;
  /** How many leading dimensions belong to the global itself (before any struct member). */
  readonly outer: number;
  /** The path below the outer dimensions (empty for a leaf that is the global's element). */
  readonly path: readonly Seg[];
}

export interface GlobalLayout {
  readonly name: string;
  readonly g: number;
  readonly size: number;
  readonly type: CType;
}

export interface Located {
  readonly leaf: LeafLayout;
  readonly idx: number[];
  /** Byte within the cell (little endian: 0 is the lowest). */
  readonly byte: number;
}

export function sizeOfType(t: CType): number {
  switch (t.kind) {
    case 'int':
      return t.width / 8;
    case 'pointer':
      return 8;
    case 'array':
      return t.length * sizeOfType(t.of);
    case 'struct':
      return t.size;
    default:
      throw new Error(`no size for a ${t.kind}`);
  }
}

export class Layout {
  readonly globals: GlobalLayout[] = [];
  readonly leaves = new Map<string, LeafLayout>();
  private readonly byGlobal = new Map<string, GlobalLayout>();

  constructor(program: CProgram) {
    for (const v of program.globals.values()) {
      if (v.isStatic) throw new Error(`global ${v.name} is static: the driver cannot reach it`);
      const gl: GlobalLayout = { name: v.name, g: this.globals.length, size: sizeOfType(v.type), type: v.type };
      this.globals.push(gl);
      this.byGlobal.set(v.name, gl);
      this.walk(gl, v.type, v.name, 0, [], [], [], true, false);
    }
    const want = memoryLeaves(program).map((l) => l.key);
    const have = [...this.leaves.keys()];
    if (want.join() !== have.join()) throw new Error(`leaf keys differ from memoryLeaves: ${have.join()} vs ${want.join()}`);
  }

  private walk(gl: GlobalLayout, t: CType, key: string, off: number, dims: number[], strides: number[], path: Seg[], outer: boolean, bitField: boolean): void {
    switch (t.kind) {
      case 'int':
        this.leaves.set(key, {
          key, global: gl.name, g: gl.g, dims, strides, base: off, size: t.width / 8, type: t, bitField,
          outer: outer ? dims.length : dims.length - path.filter((s) => s.kind === 'index').length, path,
        });
        return;
      case 'array':
        this.walk(gl, t.of, key, off, [...dims, t.length], [...strides, sizeOfType(t.of)], outer ? path : [...path, { kind: 'index' }], outer, false);
        return;
      case 'struct':
        for (const m of t.members) {
          const k = m.name === undefined ? key : `${key}.${m.name}`;
          const p: Seg[] = m.name === undefined ? path : [...path, { kind: 'member', name: m.name }];
          this.walk(gl, m.type, k, off + m.offset, dims, strides, p, false, m.bitField === true);
        }
        return;
      default:
        return;
    }
  }

  global(name: string): GlobalLayout {
    const g = this.byGlobal.get(name);
    if (!g) throw new Error(`no global ${name}`);
    return g;
  }

  leaf(key: string): LeafLayout {
    const l = this.leaves.get(key);
    if (!l) throw new Error(`no leaf ${key}`);
    return l;
  }

  /** Byte offset of a cell in its global. */
  offset(l: LeafLayout, idx: readonly number[]): number {
    let off = l.base;
    for (let i = 0; i < idx.length; i++) off += idx[i] * l.strides[i];
    return off;
  }

  /** The cell that byte `off` of global `g` belongs to, or undefined for padding. */
  locate(g: number, off: number): Located | undefined {
    const gl = this.globals[g];
    const idx: number[] = [];
    let t = gl.type;
    let key = gl.name;
    let rel = off;
    for (;;) {
      if (t.kind === 'int') return { leaf: this.leaf(key), idx, byte: rel };
      if (t.kind === 'array') {
        const s = sizeOfType(t.of);
        const i = Math.floor(rel / s);
        if (i >= t.length) return undefined;
        idx.push(i);
        rel -= i * s;
        t = t.of;
        continue;
      }
      if (t.kind === 'struct') {
        const m = t.members.find((x) => rel >= x.offset && rel < x.offset + sizeOfType(x.type));
        if (!m) return undefined;
        rel -= m.offset;
        if (m.name !== undefined) key = `${key}.${m.name}`;
        t = m.type;
        continue;
      }
      return undefined;
    }
  }

  /**
   * C static asserts that gcc lays the globals out as we do: every global's
   * size, every outer element's size, and the offset (and inner strides) of
   * every leaf that is not a bit-field (gcc cannot take those offsets; the
   * neighbours' offsets and the struct size pin them down).
   */
  staticAsserts(): string[] {
    const out: string[] = [];
    const sa = (cond: string) => out.push(`_Static_assert(${cond}, "${cond.replace(/"/g, '')}");`);
    for (const gl of this.globals) {
      sa(`sizeof(${gl.name}) == ${gl.size}`);
      let t = gl.type;
      let e = gl.name;
      while (t.kind === 'array') {
        e += '[0]';
        t = t.of;
        sa(`sizeof(${e}) == ${sizeOfType(t)}`);
      }
    }
    for (const l of this.leaves.values()) {
      if (l.path.length === 0 || l.bitField) continue;
      const elem = `__typeof__(${l.global}${'[0]'.repeat(l.outer)})`;
      const inner = l.dims.length - l.outer;
      const designator = (one: number) => {
        let k = 0;
        let s = '';
        for (const seg of l.path) {
          if (seg.kind === 'member') s += s ? `.${seg.name}` : seg.name;
          else s += `[${k++ === one ? 1 : 0}]`;
        }
        return s;
      };
      // Outer indices are 0, so the leaf's base is its offset in the element.
      sa(`__builtin_offsetof(${elem}, ${designator(-1)}) == ${l.base}`);
      for (let j = 0; j < inner; j++) {
        sa(`__builtin_offsetof(${elem}, ${designator(j)}) == ${l.base + l.strides[l.outer + j]}`);
      }
    }
    return out;
  }
}
