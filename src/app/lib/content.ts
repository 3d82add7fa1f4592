/**
 * Everything the app shows about the kernel: C sources, oracle specs and
 * benchmark tasks. This is the one module that knows where they come from
 * (the functional descriptions excepted: description.ts). Kernel sources and
 * oracle specs come from the generated bundle (`core/kernel/content.ts`);
 * benchmark tasks are loaded on demand by `state/taskdb.svelte.ts` and
 * passed in here.
 */
import type { Task } from '../../core/tasks/task.ts';
import { HANDLERS, type HandlerInfo, entryNames, findHandler } from '../../core/kernel/handlers.ts';
import { KERNEL, oracleSpec as bundledOracle } from '../../core/kernel/content.ts';

/** Kernel source files by path ("proc.c" -> text), sorted. */
export const KERNEL_SOURCES: ReadonlyMap<string, string> = new Map([...KERNEL.files].sort(([a], [b]) => a.localeCompare(b)));

/** The handlers the app offers: those with an oracle spec first (they can be verified), then the rest. */
export function handlers(): readonly HandlerInfo[] {
  return [...HANDLERS].sort((a, b) => Number(hasOracle(b.name)) - Number(hasOracle(a.name)));
}

export function hasOracle(handler: string): boolean {
  return oracleSpec(handler) !== undefined;
}

/** The reference spec of `handler`, by its C name or hv6 alias, with its shared helpers resolved. */
export function oracleSpec(handler: string): string | undefined {
  const h = findHandler(handler);
  if (!h) return undefined;
  for (const name of entryNames(h)) {
    const s = bundledOracle(name);
    if (s !== undefined) return s;
  }
  return undefined;
}


/** An implementation variant of a handler, as the playground offers it. */
export interface Variant {
  /** Task id, e.g. "sys_dup-v0". */
  readonly id: string;
  readonly label: string;
  readonly buggy: boolean;
  readonly task?: Task;
}

/** The correct implementation first, then the buggy ones in task order. */
export function variants(handler: string, tasks: readonly Task[]): readonly Variant[] {
  const ts = tasks.filter((t) => t.handler === handler);
  const correct = ts.find((t) => t.bug_count === 0);
  const out: Variant[] = [{ id: correct?.id ?? `${handler}-v0`, label: 'correct', buggy: false, task: correct }];
  for (const t of ts) {
    if (t.bug_count === 0) continue;
    const classes = [...new Set(t.bug_classes)].join(', ');
    out.push({ id: t.id, label: `${t.id.slice(handler.length + 1)}: ${t.bug_count} bug${t.bug_count > 1 ? 's' : ''} (${classes})`, buggy: true, task: t });
  }
  return out;
}

/**
 * Finds the definition of C function `name` in `source` and returns its text
 * (from the line of its return type to the closing brace), or undefined.
 */
function extractFunction(source: string, name: string): string | undefined {
  const re = new RegExp(`^[A-Za-z_][\\w \\t\\*]*\\b${name}\\s*\\([^;{]*\\)\\s*\\{`, 'm');
  const m = re.exec(source);
  if (!m) return undefined;
  let depth = 0;
  for (let i = m.index + m[0].length - 1; i < source.length; i++) {
    const c = source[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      // Keep a block comment that sits right above the function.
      let start = m.index;
      const before = source.slice(0, start);
      const open = before.lastIndexOf('/*');
      if (open >= 0 && /^\/\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.test(before.slice(open))) start = open;
      return source.slice(start, i + 1);
    }
  }
  return undefined;
}

/** The C code shown for a variant: the task's code when there is a task, else the handler from the kernel sources. */
export function implementationCode(handler: string, t?: Task): string | undefined {
  if (t) return t.code;
  for (const [, text] of KERNEL_SOURCES) {
    const fn = extractFunction(text, handler);
    if (fn) return fn;
  }
  return undefined;
}

/** The kernel's fingerprint (from the bundle), stamped into share links. */
export const KERNEL_VERSION: string = KERNEL.kernelHash;

/** The C replacement definitions of a buggy variant, for the verifier; undefined for the correct kernel. */
export function implSourceOf(t: Task | undefined): string | undefined {
  return t && t.impl_override.trim() ? t.impl_override : undefined;
}

/** A blank spec for `handler`: the dialect's imports, the entry function and the usual shape. */
export function skeletonSpec(handler: string): string {
  const h = findHandler(handler);
  const args = h ? h.args.map((a) => a.name) : [];
  const name = h?.alias ?? handler;
  const lines = [
    'import z3',
    'from libirpy import util',
    'import hv6py.kernel.spec.datatypes as dt',
    'from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid, is_pn_valid',
    '',
    '',
    `def ${name}(${['old', ...args].join(', ')}):`,
    '    # When must the kernel return 0?',
    '    cond = z3.BoolVal(True)',
    '',
    '    new = old.copy()',
    '    # Describe the new state here.',
    '',
    '    return cond, util.If(cond, new, old)',
  ];
  if (h?.alias) lines.push('', '', `${handler} = ${name}`);
  return lines.join('\n') + '\n';
}
