/**
 * The code a task shows: the handler plus every function it calls (down to
 * the hardware hooks, shown as declarations), and the macros, typedefs,
 * enums, structs and globals those functions mention, each as the kernel
 * writes it, comments included. For a buggy variant the program carries the
 * variant's override, and the mutated functions are shown instead of the
 * kernel's.
 */
import { type CProgram, type FunctionDef, isHook } from '../c/index.ts';
import { type SourceIndex, type SourceItem, compareItems, indexSource, referencedNames } from './c-source.ts';
import { walk } from './c-walk.ts';

/** Names of the functions `def` calls, in call order (first occurrence). */
function calleesOf(program: CProgram, def: FunctionDef): string[] {
  const out: string[] = [];
  walk(def.body, (n) => {
    if (n.kind !== 'call') return;
    const f = program.sema.callees.get(n);
    const name = f?.name ?? n.callee.name;
    if (!out.includes(name)) out.push(name);
  });
  return out;
}

/**
 * The functions with bodies that `handler` reaches, callees before callers
 * (depth-first post-order), the handler last. Modelled built-ins are left out:
 * the verifier does not run their bodies.
 */
export function callClosure(program: CProgram, index: SourceIndex, handler: string): SourceItem[] {
  const out: SourceItem[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const it = index.functions.get(name);
    if (!it || !it.def || isHook(name)) return;
    for (const c of calleesOf(program, it.def)) visit(c);
    out.push(it);
  };
  visit(handler);
  return out;
}

/** The call graph restricted to functions with bodies: name -> callee names. */
export function callGraph(program: CProgram, index: SourceIndex, handler: string): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of callClosure(program, index, handler)) {
    g.set(f.name, calleesOf(program, f.def!).filter((c) => index.functions.has(c) && !isHook(c)));
  }
  return g;
}

export interface ShownCode {
  readonly text: string;
  /** Where each function's text starts in `text` (0-based offset), by name. */
  readonly functionOffsets: ReadonlyMap<string, number>;
  /** The functions shown, callees first. */
  readonly functions: readonly string[];
}

const SECTIONS: readonly { title: string; kinds: readonly SourceItem['kind'][] }[] = [
  { title: 'Constants and macros', kinds: ['macro'] },
  { title: 'Types', kinds: ['typedef', 'enum', 'struct'] },
  { title: 'Kernel state (global tables)', kinds: ['global'] },
  { title: 'Built-ins and hardware hooks (declarations only)', kinds: ['prototype'] },
];

function joinItems(items: readonly SourceItem[]): string {
  let out = '';
  items.forEach((it, i) => {
    const multi = it.text.includes('\n');
    const prevMulti = i > 0 && items[i - 1].text.includes('\n');
    if (i > 0) out += multi || prevMulti || it.kind !== items[i - 1].kind ? '\n\n' : '\n';
    out += it.text;
  });
  return out;
}

/**
 * Assembles the code shown for `handler` from `program` (the kernel, or the
 * kernel plus a variant's override).
 */
export function extractShownCode(program: CProgram, handler: string, index: SourceIndex = indexSource(program)): ShownCode {
  const fns = callClosure(program, index, handler);
  if (!fns.length || fns[fns.length - 1].name !== handler) throw new Error(`no definition of ${handler}`);
  const fnNames = new Set(fns.map((f) => f.name));
  const picked = new Map<string, SourceItem>();
  const queue: string[] = [];
  const want = (text: string) => {
    for (const n of referencedNames(text)) queue.push(n);
  };
  for (const f of fns) want(f.text);
  while (queue.length) {
    const n = queue.pop()!;
    if (fnNames.has(n)) continue;
    const fn = index.functions.get(n);
    // A called function outside the closure is a modelled built-in: show its declaration.
    const it = fn && !isHook(n) ? undefined : index.byName.get(n);
    if (!it || picked.has(`${it.kind} ${it.name}`)) continue;
    picked.set(`${it.kind} ${it.name}`, it);
    want(it.text);
  }
  const chosen = [...picked.values()].sort(compareItems);
  const parts: string[] = [];
  for (const s of SECTIONS) {
    const items = chosen.filter((it) => s.kinds.includes(it.kind));
    if (items.length) parts.push(`/* ===== ${s.title} ===== */\n\n${joinItems(items)}`);
  }
  let text = parts.join('\n\n\n');
  const functionOffsets = new Map<string, number>();
  const helpers = fns.slice(0, -1);
  const add = (title: string, list: readonly SourceItem[]) => {
    if (!list.length) return;
    text += `${text ? '\n\n\n' : ''}/* ===== ${title} ===== */\n\n`;
    list.forEach((f, i) => {
      if (i > 0) text += '\n\n';
      functionOffsets.set(f.name, text.length);
      text += f.text;
    });
  };
  add('Helper functions', helpers);
  add('The system call', [fns[fns.length - 1]]);
  return { text: `${text}\n`, functionOffsets, functions: fns.map((f) => f.name) };
}

/** The handler's prototype as kernel.h declares it, on one line. */
export function declarationOf(index: SourceIndex, handler: string): string {
  const proto = index.items.find((it) => it.kind === 'prototype' && it.name === handler);
  const text = proto ? proto.text.slice(proto.bodyStart - proto.start) : undefined;
  if (!text) throw new Error(`no prototype of ${handler} in the kernel headers`);
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\(\s+/g, '(').trim();
}
