/**
 * The shaped code behaves as the kernel does (docs/shape.md §2), checked by
 * the verifier itself: for every handler whose shaped code (seeds 1-3)
 * moved assignments inside a function, those functions, taken from the
 * shaped code, become an override unit linked into the kernel in place of
 * the originals, and the handler's oracle spec is verified against it. Every
 * verdict must be `verified`. As a control that the check can fail, two
 * dependent statements the shape keeps in order (`ir = &intremap_table[index];`
 * before `ir->state = IR_ACTIVE;` in sys_alloc_intremap) are swapped by hand:
 * the override must no longer verify (the kernel does not compile or the spec
 * is refuted). Exits 1 otherwise.
 *
 *   npx tsx perf/shape-verify.ts [--seeds 1,2,3]
 */
import { nodeEnv } from '../src/z3/node.ts';
import { declaredName, preprocess } from '../src/core/c/index.ts';
import { KERNEL, oracleSpec } from '../src/core/kernel/content.ts';
import { shapeCode } from '../src/core/shape/permute.ts';
import { parseShown } from '../src/core/shape/units.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { verify } from '../src/core/verify/index.ts';

const at = process.argv.indexOf('--seeds');
const seeds = at > 0 ? process.argv[at + 1].split(',').map(Number) : [1, 2, 3];

/** The function definitions of `code`, by name, as text. */
function functionTexts(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of parseShown(code).items) {
    if (item.kind === 'function-def') out.set(declaredName(item.declarator)!, code.slice(item.span.offset, item.span.endOffset));
  }
  return out;
}

/** The macros of kernel.h, which an override unit includes. */
const headerMacros = new Set(preprocess(KERNEL.files, 'kernel.h').macros.keys());

/** An override unit: kernel.h, the shown code's macros kernel.h lacks (a unit's own, as the task generator copies them), the functions. */
function overrideUnit(code: string, functions: readonly string[]): string {
  const own = code.split('\n').filter((l) => {
    const m = /^#define\s+(\w+)/.exec(l);
    return m && !headerMacros.has(m[1]);
  });
  return `#include "kernel.h"\n\n${own.join('\n')}\n\n${functions.join('\n\n')}\n`;
}

const env = await nodeEnv();
const tasks = (await loadTasks()).filter((t) => t.bug_count === 0);
let bad = 0;
let checked = 0;
const t0 = performance.now();
for (const t of tasks) {
  const spec = oracleSpec(t.handler);
  if (!spec) continue;
  const original = functionTexts(t.code);
  const overrides = new Set<string>();
  for (const seed of seeds) {
    const shaped = functionTexts(shapeCode(t.code, { style: 'permuted', seed }).text);
    const changed = [...shaped].filter(([name, text]) => original.get(name) !== text).map(([, text]) => text);
    if (changed.length) overrides.add(overrideUnit(t.code, changed));
  }
  for (const implSource of overrides) {
    checked++;
    const v = await verify({ handler: t.handler, spec, implSource, timeoutMs: 600_000 }, env).catch((e: Error) => ({ status: `error: ${e.message}`, ms: 0 }));
    const ok = v.status === 'verified';
    if (!ok) bad++;
    console.log(`${ok ? 'ok ' : 'BAD'} ${t.handler}: ${v.status} (${(v.ms / 1000).toFixed(1)} s)`);
  }
}

// The control: a dependent pair swapped by hand must not verify.
const task = tasks.find((t) => t.handler === 'sys_alloc_intremap')!;
const fn = functionTexts(task.code).get('sys_alloc_intremap')!;
const a = 'ir = &intremap_table[index];';
const b = 'ir->state = IR_ACTIVE;';
if (!fn.includes(a) || !fn.includes(b)) throw new Error('the control statements are not in sys_alloc_intremap');
const swapped = fn.replace(a, '\u0000').replace(b, a).replace('\u0000', b);
const control = await verify({ handler: task.handler, spec: oracleSpec(task.handler)!, implSource: overrideUnit(task.code, [swapped]), timeoutMs: 600_000 }, env).catch((e: Error) => ({ status: `error: ${e.message}` }) as const);
const controlOk = control.status !== 'verified';
console.log(`${controlOk ? 'ok ' : 'BAD'} control (a dependent pair swapped): ${control.status}`);
console.log(`${checked} shaped overrides verified against their oracle specs, ${bad} not verified; ${((performance.now() - t0) / 1000).toFixed(0)} s`);
process.exit(bad || !controlOk ? 1 : 0);
