/**
 * Turning chosen mutations into a buggy variant: the edited functions, and
 * the C override unit the verifier links over the kernel (`implSource`).
 *
 * The override holds the mutated functions and whatever it needs to compile
 * on its own with gcc: a static helper can only be reached from its own
 * unit, so when one is mutated its callers up to the handler come along
 * (unchanged), as do the static helpers those functions call; macros local
 * to a .c file are repeated. Everything is ordered callees first.
 */
import { type SourceItem, referencedNames } from './c-source.ts';
import { walk } from './c-walk.ts';
import { callClosure, callGraph } from './shown-code.ts';
import type { Mutation, MutationContext, TextEdit } from './mutate.ts';

export interface InjectedVariant {
  readonly handler: string;
  readonly mutations: readonly Mutation[];
  /** The C override unit (`impl_override`). */
  readonly override: string;
  /** Each changed function's new text (its leading comment included). */
  readonly functions: ReadonlyMap<string, string>;
  /** For each mutation (same order), the function and the offset in its new text where the change is. */
  readonly anchors: readonly { readonly function: string; readonly offset: number }[];
}

/** Why a set of mutations cannot make one variant. */
export class VariantConflict extends Error {}

function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.offset < b.end && b.offset < a.end;
}

/** Do two mutations touch overlapping text? */
export function conflicts(a: Mutation, b: Mutation): boolean {
  if (a.file !== b.file) return false;
  return a.edits.some((x) => b.edits.some((y) => overlaps(x, y)));
}

/**
 * Applies edits to an item's text. Returns the new text and, for each
 * `anchors` offset (file offsets), where it landed in the new text.
 */
function applyEdits(item: SourceItem, edits: readonly TextEdit[], anchors: readonly number[]): { text: string; moved: number[] } {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  for (const e of sorted) {
    if (e.offset < item.start || e.end > item.end) throw new VariantConflict(`an edit at ${e.offset} lies outside ${item.name}`);
  }
  let text = '';
  let at = item.start;
  const src = item.text;
  for (const e of sorted) {
    text += src.slice(at - item.start, e.offset - item.start) + e.text;
    at = e.end;
  }
  text += src.slice(at - item.start);
  const moved = anchors.map((a) => {
    let shift = 0;
    for (const e of sorted) if (e.end <= a && e.offset < a) shift += e.text.length - (e.end - e.offset);
    return a - item.start + shift;
  });
  return { text, moved };
}

/**
 * The functions `mutations` change, with their new texts (leading comment
 * included), and for each mutation where its change landed. The mutations
 * must not overlap.
 */
export function applyMutations(
  ctx: MutationContext,
  mutations: readonly Mutation[],
): { functions: Map<string, string>; anchors: InjectedVariant['anchors'] } {
  const byFn = new Map<string, Mutation[]>();
  for (const m of mutations) byFn.set(m.function, [...(byFn.get(m.function) ?? []), m]);
  const functions = new Map<string, string>();
  const anchorOf = new Map<Mutation, number>();
  for (const [name, ms] of byFn) {
    const item = ctx.index.functions.get(name);
    if (!item) throw new VariantConflict(`no function ${name}`);
    const anchors = ms.map((m) => Math.min(...m.edits.map((e) => e.offset)));
    const { text, moved } = applyEdits(item, ms.flatMap((m) => m.edits), anchors);
    functions.set(name, text);
    ms.forEach((m, i) => anchorOf.set(m, moved[i]));
  }
  return { functions, anchors: mutations.map((m) => ({ function: m.function, offset: anchorOf.get(m)! })) };
}

/**
 * The functions `handler` still reaches once `mutations` are applied: a call
 * inside an edited range whose new text no longer names the callee is gone
 * (a removed check, a dropped guard).
 */
function reachableAfter(ctx: MutationContext, handler: string, mutations: readonly Mutation[]): Set<string> {
  const edits = mutations.flatMap((m) => m.edits.map((e) => ({ file: m.file, ...e })));
  const removed = (file: string, offset: number, end: number, callee: string) =>
    edits.some((e) => e.file === file && e.offset <= offset && end <= e.end && !new RegExp(`\\b${callee}\\s*\\(`).test(e.text));
  const live = new Set<string>();
  const visit = (name: string): void => {
    if (live.has(name)) return;
    live.add(name);
    const def = ctx.index.functions.get(name)?.def;
    if (!def) return;
    walk(def.body, (n) => {
      if (n.kind !== 'call') return;
      const callee = ctx.program.sema.callees.get(n)?.name ?? n.callee.name;
      if (!removed(n.span.file, n.span.offset, n.span.endOffset, callee)) visit(callee);
    });
  };
  visit(handler);
  return live;
}

/**
 * The variant of `handler` with `mutations` applied. Throws VariantConflict
 * when two mutations edit overlapping text or a mutation is not in a
 * function the handler reaches.
 */
export function composeVariant(ctx: MutationContext, handler: string, mutations: readonly Mutation[]): InjectedVariant {
  const graph = callGraph(ctx.program, ctx.index, handler);
  for (let i = 0; i < mutations.length; i++) {
    if (!graph.has(mutations[i].function)) throw new VariantConflict(`${mutations[i].function} is not reached from ${handler}`);
    for (let j = 0; j < i; j++) {
      if (conflicts(mutations[i], mutations[j])) throw new VariantConflict(`${mutations[i].id} overlaps ${mutations[j].id}`);
    }
  }
  const { functions, anchors } = applyMutations(ctx, mutations);
  const live = reachableAfter(ctx, handler, mutations);
  for (const m of mutations) {
    if (!live.has(m.function)) throw new VariantConflict(`${m.id} is in code that another mutation of the variant no longer calls`);
  }

  const needed = new Set(functions.keys());
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    if (from === to) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    return (graph.get(from) ?? []).some((c) => reaches(c, to, seen));
  };
  const isStatic = (n: string) => ctx.index.functions.get(n)?.isStatic ?? false;
  for (;;) {
    const before = needed.size;
    for (const n of [...needed]) {
      // A static function is only visible in its own unit: bring its callers along.
      if (isStatic(n)) for (const g of graph.keys()) if (!needed.has(g) && reaches(g, n)) needed.add(g);
      // ... and a function in the override needs the static helpers it calls.
      for (const c of graph.get(n) ?? []) if (isStatic(c)) needed.add(c);
    }
    if (needed.size === before) break;
  }

  const order = callClosure(ctx.program, ctx.index, handler).filter((f) => needed.has(f.name));
  const chunks = order.map((f) => functions.get(f.name) ?? f.text);
  const localMacros = new Map<string, string>();
  for (const chunk of chunks) {
    for (const n of referencedNames(chunk)) {
      const m = ctx.index.byName.get(n);
      if (m?.kind === 'macro' && m.file.endsWith('.c')) localMacros.set(n, m.text);
    }
  }
  const head = ['#include "kernel.h"', ...(localMacros.size ? ['', ...localMacros.values()] : [])].join('\n');
  const override = `${head}\n\n${chunks.join('\n\n')}\n`;
  return {
    handler,
    mutations,
    override,
    functions,
    anchors,
  };
}
