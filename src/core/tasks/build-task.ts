/**
 * Assembling a Task from a handler and (for a buggy task) its variant: the
 * declaration, the description, the shown code extracted from the kernel with
 * the variant linked in, the bug classes and where each bug sits in the
 * shown code, the override, and the content hash.
 */
import { type CProgram, parseProgram } from '../c/index.ts';
import { type KernelContent, contentEntry } from '../kernel/content.ts';
import { DESCRIPTIONS } from '../kernel/descriptions.ts';
import { canonicalJson, sha256Hex } from '../hash.ts';
import { indexSource } from './c-source.ts';
import { declarationOf, extractShownCode } from './shown-code.ts';
import type { InjectedVariant } from './inject.ts';
import { BUG_CLASSES, type Provenance, type Task } from './task.ts';

/** Links the kernel with an override unit; throws with the first error when it does not compile. */
export function linkVariant(kernel: KernelContent, override: string): CProgram {
  const overrides = override.trim() ? [{ path: 'override.c', text: override }] : [];
  const r = parseProgram(kernel.files, kernel.units, overrides);
  if (!r.ok) {
    const e = r.errors[0];
    throw new Error(`the variant does not compile: ${e.message} (${e.span.file}:${e.span.line}:${e.span.column})`);
  }
  return r.program;
}

/** The sha256 (hex) of a task's canonical JSON without its `hash` field. */
export async function taskHash(task: Omit<Task, 'hash'> | Task): Promise<string> {
  const { hash: _drop, ...rest } = task as Task;
  return sha256Hex(canonicalJson(rest));
}

const indexes = new WeakMap<CProgram, ReturnType<typeof indexSource>>();

/** The source index of a program, built once per program. */
function indexOf(program: CProgram): ReturnType<typeof indexSource> {
  let ix = indexes.get(program);
  if (!ix) indexes.set(program, (ix = indexSource(program)));
  return ix;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The task `<handler>-v<index>`: the correct one when `variant` is absent.
 * `kernelProgram` is the kernel without overrides (for the declaration).
 */
export async function buildTask(
  kernel: KernelContent,
  kernelProgram: CProgram,
  handler: string,
  index: number,
  variant?: InjectedVariant,
): Promise<Task> {
  const description = contentEntry(DESCRIPTIONS, handler);
  if (description === undefined) throw new Error(`no description for ${handler}`);
  const program = variant ? linkVariant(kernel, variant.override) : kernelProgram;
  const shown = extractShownCode(program, handler, indexOf(program));
  const provenance: Provenance[] = [];
  if (variant) {
    variant.mutations.forEach((m, i) => {
      const anchor = variant.anchors[i];
      const at = shown.functionOffsets.get(anchor.function);
      const fnText = variant.functions.get(anchor.function)!;
      if (at === undefined || shown.text.slice(at, at + fnText.length) !== fnText) {
        throw new Error(`the shown code of ${handler} does not contain the mutated ${anchor.function} verbatim`);
      }
      provenance.push({
        operator: m.operator,
        bugClass: m.bugClass,
        function: m.function,
        line: lineAt(shown.text, at + anchor.offset),
        description: m.description,
      });
    });
  }
  const classes = new Set(variant?.mutations.map((m) => m.bugClass) ?? []);
  const task: Omit<Task, 'hash'> = {
    id: `${handler}-v${index}`,
    handler,
    declaration: declarationOf(indexOf(kernelProgram), handler),
    description,
    code: shown.text,
    bug_classes: BUG_CLASSES.filter((c) => classes.has(c)),
    bug_count: variant?.mutations.length ?? 0,
    provenance,
    impl_override: variant?.override ?? '',
  };
  return { ...task, hash: await taskHash(task) };
}
