/**
 * The limits that keep the front end and the executor within the JavaScript
 * stack and within seconds on hostile input (docs/c-errors.md, C022 and
 * C060-C063). Each is far above what the kernel needs: its handlers run at
 * most about 1,100 steps and 10 paths, build terms at most 17 operations
 * deep and nest calls a handful deep.
 */
import type { MapFn } from '../smt/fn.ts';
import type { Term } from '../smt/term.ts';
import type { CSpan } from './ast.ts';

/** Nesting of statements and expressions in the source, flat operator chains included. */
export const MAX_SOURCE_DEPTH = 500;
/** Inlined calls in progress at once. */
export const MAX_CALL_DEPTH = 64;
/** Statements and expressions being executed at once (across inlined calls). */
export const MAX_EXEC_DEPTH = 1500;
/**
 * Operations nested in one term, and layers of writes and merges in one
 * memory map (a read through a map builds a term that deep). The evaluator
 * and the other term passes recurse over terms; about 2,400 levels fit the
 * default stack.
 */
export const MAX_TERM_DEPTH = 500;
/** Paths stashed by return, break and continue in one execution. */
export const MAX_PATHS = 256;
/** Statement and expression evaluations in one execution (at about 20 us each, a few seconds). */
export const DEFAULT_MAX_STEPS = 200_000;

const depths = new WeakMap<Term, number>();

/** The depth of a term (a constant or variable is 1), without recursion; memoised. */
export function termDepth(t: Term): number {
  const hit = depths.get(t);
  if (hit !== undefined) return hit;
  const stack: Term[] = [t];
  while (stack.length) {
    const u = stack[stack.length - 1];
    if (depths.has(u)) {
      stack.pop();
      continue;
    }
    let ready = true;
    let max = 0;
    for (const a of u.args) {
      const d = depths.get(a);
      if (d === undefined) {
        ready = false;
        stack.push(a);
      } else if (d > max) max = d;
    }
    if (ready) {
      depths.set(u, max + 1);
      stack.pop();
    }
  }
  return depths.get(t)!;
}

const mapDepths = new WeakMap<MapFn, number>();

/** An upper bound on the depth of a read of `f` (less the indices' own depth); 1 for an unconstrained map. */
export function mapDepth(f: MapFn): number {
  return mapDepths.get(f) ?? 1;
}

/** Records the read-depth bound of a map built by the C memory model. */
export function setMapDepth(f: MapFn, depth: number): MapFn {
  mapDepths.set(f, depth);
  return f;
}

/** The deepest of some terms (0 for none). */
export function maxDepth(ts: readonly Term[]): number {
  let m = 0;
  for (const t of ts) m = Math.max(m, termDepth(t));
  return m;
}

/**
 * The span of the first node (in post-order) of `root` deeper than `limit`,
 * or undefined. Generic over the AST: every object with a `span` is a node.
 * Iterative, since the point is trees too deep to recurse over.
 */
export function tooDeep(root: object, limit: number): CSpan | undefined {
  const height = new Map<object, number>();
  const kids = (n: object): object[] => {
    const out: object[] = [];
    for (const [k, v] of Object.entries(n)) {
      if (k === 'span' || k === 'nameSpan' || v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const x of v) if (x !== null && typeof x === 'object' && 'span' in x) out.push(x);
      } else if ('span' in v) out.push(v);
    }
    return out;
  };
  const stack: { node: object; children: object[]; at: number }[] = [{ node: root, children: kids(root), at: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.at < top.children.length) {
      const next = top.children[top.at++];
      if (!height.has(next)) stack.push({ node: next, children: kids(next), at: 0 });
      continue;
    }
    stack.pop();
    let h = 0;
    for (const c of top.children) h = Math.max(h, height.get(c)!);
    height.set(top.node, h + 1);
    if (h + 1 > limit) return (top.node as { span: CSpan }).span;
  }
  return undefined;
}
