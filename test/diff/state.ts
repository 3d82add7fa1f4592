/**
 * A concrete kernel state: the cells a case sets (every other cell is 0),
 * keyed like the executor's memory (`proc_table.ofile` -> "pid,fd" -> value).
 */
import type { Layout } from './layout.ts';
import type { RawCell } from './native.ts';

export type CellMap = ReadonlyMap<string, ReadonlyMap<string, bigint>>;

export class State {
  readonly cells = new Map<string, Map<string, bigint>>();

  constructor(readonly layout: Layout) {}

  /** Sets a cell; the value is reduced to the leaf's width (negative numbers wrap). */
  set(key: string, idx: readonly (number | bigint)[], value: bigint | number): void {
    const l = this.layout.leaf(key);
    if (idx.length !== l.dims.length) throw new Error(`${key}: ${idx.length} indices, expected ${l.dims.length}`);
    idx.forEach((x, i) => {
      if (x < 0 || x >= l.dims[i]) throw new Error(`${key}[${idx.join(',')}]: index out of range`);
    });
    const v = BigInt.asUintN(l.type.width, BigInt(value));
    if (l.type.bool && v > 1n) throw new Error(`${key}: a _Bool holds 0 or 1`);
    let m = this.cells.get(key);
    if (!m) this.cells.set(key, (m = new Map()));
    const k = idx.join(',');
    if (v === 0n) m.delete(k);
    else m.set(k, v);
  }

  get(key: string, idx: readonly (number | bigint)[]): bigint {
    return this.cells.get(key)?.get(idx.join(',')) ?? 0n;
  }

  /** The driver's cell writes for this state. */
  raw(): RawCell[] {
    const out: RawCell[] = [];
    for (const [key, m] of this.cells) {
      const l = this.layout.leaf(key);
      for (const [k, value] of m) {
        const idx = k === '' ? [] : k.split(',').map(Number);
        out.push({ g: l.g, off: this.layout.offset(l, idx), size: l.size, value });
      }
    }
    return out;
  }

  /** How many cells are set. */
  count(): number {
    let n = 0;
    for (const m of this.cells.values()) n += m.size;
    return n;
  }
}
