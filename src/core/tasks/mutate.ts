/**
 * Mutation: the five classes of xv6-style bugs as rewrites of one kernel C
 * function. Each operator (`mutation/operators.ts`, a table) finds its sites
 * on the syntax tree, with the names and types Sema resolved, and describes
 * each mutation as text edits at the nodes' spans in the original file, so a
 * mutated function keeps the kernel's formatting and comments everywhere
 * except at the edit. The kernel identifiers the operators rely on are in
 * `mutation/vocabulary.ts`.
 */
import { isHook } from '../c/index.ts';
import { walk } from './c-walk.ts';
import { OPERATORS } from './mutation/operators.ts';
import type { Mutation, MutationContext, OperatorName } from './mutation/types.ts';
import { FunctionView } from './mutation/view.ts';

export { OPERATORS } from './mutation/operators.ts';
export type { Mutation, MutationContext, TextEdit } from './mutation/types.ts';

const ORDER = Object.keys(OPERATORS) as OperatorName[];

/** All mutations of function `name` (none for modelled built-ins or unknown names), in walk order, then table order. */
export function mutationsOf(ctx: MutationContext, name: string): Mutation[] {
  const item = ctx.index.functions.get(name);
  const info = ctx.program.functions.get(name);
  if (!item?.def || !info || isHook(name)) return [];
  const f = new FunctionView(ctx, item, info);
  const out: Mutation[] = [];
  walk(item.def.body, (node, parents) => {
    if (f.inMacro(node)) return;
    const parent = parents[parents.length - 1];
    for (const op of ORDER) out.push(...OPERATORS[op].sites(f, node, parent));
  });
  const seen = new Set<string>();
  return out.filter((m) => !seen.has(m.id) && (seen.add(m.id), true));
}
