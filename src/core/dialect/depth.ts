/**
 * How deep a parsed spec nests, measured without recursion. The parser reads
 * long flat chains (`1 + 1 + ...`, `a.b.c...`, `x[0][0]...`, `f()()...`) in
 * loops, but they come out as trees as deep as the chain is long, and every
 * later pass (lint.ts, the interpreter) walks trees recursively. A tree
 * deeper than MAX_TREE_DEPTH is refused with SPEC019 before any of them runs,
 * so no pass can overflow the JavaScript stack. (CPython 2 compiles such
 * chains; no spec comes near this depth: the deepest oracle tree is 11 levels.)
 */
import type { Span } from '../span.ts';
import type * as A from './ast.ts';
import { SpecError } from './errors.ts';

const MAX_TREE_DEPTH = 1000;

function spanOf(v: object): Span | undefined {
  const s = (v as { span?: Span }).span;
  return s && typeof s.line === 'number' ? s : undefined;
}

const SKIP = new Set(['span', 'nameSpan', 'attrSpan', 'moduleSpan', 'locals']);

/** Throws SPEC019 at the first node deeper than `limit` (every object level of the tree counts). */
export function limitTreeDepth(mod: A.Module, limit = MAX_TREE_DEPTH): void {
  const stack: Array<[object, number, Span]> = [[mod, 0, mod.span]];
  while (stack.length) {
    const [node, depth, near] = stack.pop()!;
    const at = spanOf(node) ?? near;
    if (depth > limit) {
      throw new SpecError('SPEC019', `expression nested too deeply (more than ${limit} levels)`, at, [
        'split the expression: assign parts to variables, or use z3.And / z3.Or with a list',
      ]);
    }
    const children = Array.isArray(node) ? node : Object.entries(node).filter(([k]) => !SKIP.has(k)).map(([, v]) => v);
    for (const v of children) if (typeof v === 'object' && v !== null) stack.push([v, Array.isArray(node) ? depth : depth + 1, at]);
  }
}
