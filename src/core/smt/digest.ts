/**
 * A structural digest of terms: equal digests for terms built the same way
 * (same operators, sorts, constants, symbol names), in any process. Term ids
 * are process-local, so a digest is what ties a stored result to the terms it
 * was computed from (docs/lemmas.md, "Reusing the oracle's proof"). It is a
 * cache key, not a proof: whoever trusts a digest match must have computed
 * both sides from trusted inputs.
 */
import type { Term } from './term.ts';

/** 64 bits as 16 hex digits: two independent 32-bit FNV-1a lanes. */
function hash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

// Two things in a term depend on the process's history, not on what the term
// says: `fresh()` names a constant `<prefix>!<n>` with a process-wide counter,
// and the smart constructors order the arguments of commutative operators by
// term id. A digest ignores both: fresh constants are named by their prefix,
// and commutative arguments are taken as a sorted multiset.
const FRESH = /^(.*)!\d+$/;
const COMMUTATIVE = new Set(['and', 'or', 'eq', 'distinct', 'add', 'mul', 'bvand', 'bvor', 'bvxor']);

/**
 * Digests of terms and of any other strings, folded into one: the same in
 * every process for terms built the same way (up to the order of commutative
 * arguments and the identity of fresh constants with the same prefix).
 */
export class Digest {
  private readonly parts: string[] = [];
  private readonly memo = new Map<number, string>();

  /** The digest of one term (memoised per term). */
  of(t: Term): string {
    const hit = this.memo.get(t.id);
    if (hit) return hit;
    // Iterative post-order: terms can be deep (long If chains).
    const stack: Term[] = [t];
    while (stack.length) {
      const u = stack[stack.length - 1];
      if (this.memo.has(u.id)) {
        stack.pop();
        continue;
      }
      const pending = u.args.filter((a) => !this.memo.has(a.id));
      if (pending.length) {
        stack.push(...pending);
        continue;
      }
      stack.pop();
      const head = [
        u.op,
        u.sort,
        u.value === undefined ? '' : String(u.value),
        u.name === undefined ? '' : u.name.replace(FRESH, '$1!'),
        u.decl ? `${u.decl.name}/${u.decl.domain.join(',')}/${u.decl.range}` : '',
        u.params?.join(',') ?? '',
      ].join('|');
      const args = u.args.map((a) => this.memo.get(a.id)!);
      if (COMMUTATIVE.has(u.op)) args.sort();
      this.memo.set(u.id, hash(`${head}(${args.join(',')})`));
    }
    return this.memo.get(t.id)!;
  }

  /** Adds a labelled part (a term's digest or any text) to the running digest. */
  add(label: string, part: Term | string): this {
    this.parts.push(`${label}=${typeof part === 'string' ? part : this.of(part)}`);
    return this;
  }

  /** The digest of every part added, in order. */
  value(): string {
    return hash(this.parts.join('\n'));
  }
}
