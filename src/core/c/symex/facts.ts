/**
 * The fact simplifier: what the current path knows (the conjuncts of its
 * condition and of the safety conditions it passed) decides later tests and
 * checks syntactically. An accessor's `assert(is_pid_valid(pid))` after the
 * handler's own check records nothing, and `if (r != 0) return r;` on a
 * helper's merged error code teaches the rest of the path that the helper's
 * checks passed. Separate from path merging (path-join.ts), which keeps shared
 * conjuncts as plain conjuncts so that they stay usable here.
 */
import * as o from '../../smt/ops.ts';
import { type Term, isTrue } from '../../smt/term.ts';

/** The conjuncts of a Bool term. */
export function conjuncts(t: Term): readonly Term[] {
  return t.op === 'and' ? t.args : isTrue(t) ? [] : [t];
}

/** The facts of one path at a time: the executor asks about the same path many times in a row. */
export class PathFacts {
  private last?: { pc: Term; asm: Term; set: Set<number> };

  /** The conjuncts known on the current path: its condition and the safety conditions it passed. */
  of(st: { readonly pc: Term; readonly asm: Term }): Set<number> {
    if (this.last?.pc === st.pc && this.last.asm === st.asm) return this.last.set;
    const set = new Set<number>();
    // Closed under the obvious consequences: a conjunction gives its
    // conjuncts, a negated disjunction each negated disjunct.
    const add = (c: Term, depth: number): void => {
      if (set.has(c.id) || depth > 8) return;
      set.add(c.id);
      if (c.op === 'and') for (const a of c.args) add(a, depth + 1);
      if (c.op === 'not' && c.args[0].op === 'or') for (const a of c.args[0].args) add(o.not(a), depth + 1);
    };
    for (const c of conjuncts(st.pc)) add(c, 0);
    for (const c of conjuncts(st.asm)) add(c, 0);
    this.last = { pc: st.pc, asm: st.asm, set };
    return set;
  }

  /**
   * Simplifies a Bool using the facts of the path: a known conjunct is true,
   * its negation false, through `and`, `or` and `not`. Handlers re-test what
   * they checked already (an accessor asserting a pid the handler
   * validated), so this drops conditions and paths that cannot matter.
   */
  simplify(st: { readonly pc: Term; readonly asm: Term }, c: Term): Term {
    if (c.op === 'const') return c;
    const facts = this.of(st);
    if (facts.size === 0) return c;
    const go = (t: Term): Term => {
      if (facts.has(t.id)) return o.TRUE;
      switch (t.op) {
        case 'not': {
          const a = go(t.args[0]);
          return a === t.args[0] ? t : o.not(a);
        }
        case 'and':
        case 'or': {
          const args = t.args.map(go);
          return args.every((a, i) => a === t.args[i]) ? t : t.op === 'and' ? o.and(...args) : o.or(...args);
        }
        default:
          return facts.has(o.not(t).id) ? o.FALSE : t;
      }
    };
    return go(c);
  }
}
