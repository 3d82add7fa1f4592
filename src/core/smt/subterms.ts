/**
 * The one walk over a term DAG's sub-terms: each distinct term once, however
 * many parents share it, without recursion (terms can be deep: long If
 * chains).
 */
import type { Term } from './term.ts';

/**
 * Calls `visit` on each sub-term of `roots` (the roots included) that is not
 * yet in `seen`, once each, and adds it to `seen`. Depth first from the last
 * root, a term before its arguments, the last argument first: callers that
 * collect terms get them in this order, and the order of the assumptions
 * they build from them changes the solver's models, so it is fixed. The walk
 * stops when `visit` returns true; the result says whether it stopped.
 * A caller passes its own `seen` to walk several root sets as one.
 */
export function eachSubterm(roots: readonly Term[], visit: (t: Term) => boolean | void, seen: Set<number> = new Set()): boolean {
  const stack = [...roots];
  while (stack.length) {
    const t = stack.pop()!;
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    if (visit(t) === true) return true;
    for (const a of t.args) stack.push(a);
  }
  return false;
}
