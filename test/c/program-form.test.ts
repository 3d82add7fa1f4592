/**
 * The kernel's program read back from its form (src/core/c/program-form.ts)
 * is the program the parse gives, object for object: the same classes,
 * fields in the same order, the same values, and the same sharing (a node
 * that keys the checker's tables is the node in the tree; a struct type is
 * one object for all its uses). The shipped form (tasks/hv6/kernel-program.json,
 * `npm run bundle`) is the form of today's parse, tied to the kernel's hash,
 * and every handler runs to the same terms on both programs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kernelProgramText } from '../../scripts/bundle-lib.ts';
import { type CProgram, INT, execFunction, freshMemory, parseProgram } from '../../src/core/c/index.ts';
import { programForm, programFromForm } from '../../src/core/c/program-form.ts';
import { KERNEL, type KernelContent } from '../../src/core/kernel/content.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { type ShippedProgram, loadShippedForm, shippedProgram } from '../../src/core/kernel/program.ts';
import { variable } from '../../src/core/smt/term.ts';
import { collectBundle } from '../../scripts/bundle-lib.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SHIPPED_PATH = join(ROOT, 'tasks/hv6/kernel-program.json');

function parsed(): CProgram {
  const r = parseProgram(KERNEL.files, KERNEL.units);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r.program;
}

const SPAN_KEYS = 'file,line,column,endLine,endColumn,offset,endOffset';

/**
 * The first difference between two object graphs, or undefined: walked
 * together, each object of `a` pairs with exactly one of `b` (same class,
 * same keys in order, equal primitives), Map entries pair in order, and an
 * object shared with the module (a type constant) must be that same object.
 * Spans are values (program-form.ts): equal field for field, not paired.
 */
function difference(a: unknown, b: unknown): string | undefined {
  const pairOf = new Map<object, object>();
  const back = new Map<object, object>();
  const stack: [unknown, unknown, string][] = [[a, b, 'program']];
  while (stack.length) {
    const [x, y, path] = stack.pop()!;
    if (x === null || typeof x !== 'object' || y === null || typeof y !== 'object') {
      if (!Object.is(x, y)) return `${path}: ${String(x)} against ${String(y)}`;
      continue;
    }
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.join() === SPAN_KEYS && Object.getPrototypeOf(x) === Object.prototype) {
      if (ky.join() !== SPAN_KEYS || kx.some((k) => (x as Record<string, unknown>)[k] !== (y as Record<string, unknown>)[k])) return `${path}: another span`;
      continue;
    }
    const known = pairOf.get(x);
    if (known !== undefined || back.has(y)) {
      if (known !== y) return `${path}: shared differently`;
      continue;
    }
    pairOf.set(x, y);
    back.set(y, x);
    if (x === INT || y === INT) {
      if (x !== y) return `${path}: a type constant copied`;
      continue;
    }
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return `${path}: another class`;
    if (x instanceof Map) {
      const ex = [...x];
      const ey = [...(y as Map<unknown, unknown>)];
      if (ex.length !== ey.length) return `${path}: ${ex.length} entries against ${ey.length}`;
      ex.forEach(([k, v], i) => stack.push([k, ey[i][0], `${path}.key(${i})`], [v, ey[i][1], `${path}.get(${i})`]));
      continue;
    }
    if (kx.join() !== ky.join()) return `${path}: keys ${kx.join()} against ${ky.join()}`;
    for (const k of kx) stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`]);
  }
  return undefined;
}

describe('a program read back from its form', () => {
  const program = parsed();
  const form = programForm(program, KERNEL.files);
  const back = programFromForm(JSON.parse(JSON.stringify(form)), KERNEL.files);

  it('is the parsed program, object for object', () => {
    expect(difference(program, back)).toBeUndefined();
    // Read twice, nothing is shared between the two but the type constants.
    const again = programFromForm(form, KERNEL.files);
    // (Booleans: a failing toBe on these would print the whole program.)
    expect(again.sema === back.sema).toBe(false);
    expect(again.units[0].items[0] === back.units[0].items[0]).toBe(false);
  });

  it('is told apart when one field, one order or one sharing differs', () => {
    const a = programFromForm(form, KERNEL.files);
    const fn = [...a.functions.values()].find((f) => f.body)!;
    (fn as { name: string }).name += 'x';
    expect(difference(program, a)).toMatch(/name: \w+ against \w+x/);

    const b = programFromForm(form, KERNEL.files);
    const [k] = b.sema.types.keys();
    b.sema.types.delete(k);
    b.sema.types.set(k, b.sema.types.get(k) ?? INT);
    expect(difference(program, b)).toBeDefined();

    // A node of the tree that no longer is the node its table entry keys.
    const c = programFromForm(form, KERNEL.files);
    const unit = c.units.find((u) => u.items.some((i) => i.kind === 'function-def'))!;
    const items = unit.items as unknown[];
    const at = items.findIndex((i) => (i as { kind: string }).kind === 'function-def');
    items[at] = structuredClone(items[at]);
    expect(difference(program, c)).toMatch(/shared differently/);
  });

  it('runs every handler to the same terms as the parsed program', () => {
    let ran = 0;
    for (const h of HANDLERS) {
      if (!program.functions.get(h.name)?.body) continue;
      const args = h.args.map((x) => variable(`arg.${x.name}`, x.width));
      const p = execFunction(program, h.name, freshMemory(program), args);
      const q = execFunction(back, h.name, freshMemory(back), args);
      if (!p.ok || !q.ok) throw new Error(`${h.name} does not run`);
      expect(q.ret?.id, h.name).toBe(p.ret?.id);
      expect([...q.mem.keys()], h.name).toEqual([...p.mem.keys()]);
      expect(q.safety.map((s) => [s.kind, s.ok.id]), h.name).toEqual(p.safety.map((s) => [s.kind, s.ok.id]));
      ran++;
    }
    expect(ran).toBeGreaterThan(40);
  });

  it('is refused for files it was not made from', () => {
    const files = new Map(KERNEL.files);
    files.set('proc.c', `${files.get('proc.c')}\nint extra;\n`);
    const r = parseProgram(files, KERNEL.units);
    expect(r.ok).toBe(true);
    if (r.ok) expect(() => programForm(r.program, KERNEL.files)).toThrow(/other files/);
  });
});

describe('the shipped kernel program', () => {
  const shipped = JSON.parse(readFileSync(SHIPPED_PATH, 'utf8')) as ShippedProgram;

  it('is the form of today’s kernel and front end (npm run bundle makes it again)', () => {
    const stale = 'tasks/hv6/kernel-program.json is stale: run `npm run bundle` (then commit it)';
    expect(shipped.kernelHash, stale).toBe(KERNEL.kernelHash);
    // Compared as a boolean: the form is 240 kB on one line.
    expect(readFileSync(SHIPPED_PATH, 'utf8') === kernelProgramText(collectBundle(ROOT)), stale).toBe(true);
  });

  it('is the program the kernel parses to, and only the kernel’s, once loaded', async () => {
    // Not before it is loaded (a chunk of its own in the site).
    expect(shippedProgram(KERNEL)).toBeUndefined();
    expect((await loadShippedForm()) === undefined).toBe(false);
    const p = shippedProgram(KERNEL);
    expect(p).toBeDefined();
    expect(difference(parsed(), p)).toBeUndefined();
    const other: KernelContent = { ...KERNEL, kernelHash: '0000000000000000' };
    expect(shippedProgram(other)).toBeUndefined();
    expect(shippedProgram({ ...KERNEL, units: KERNEL.units.slice(1) })).toBeUndefined();
    const fewer = new Map(KERNEL.files);
    fewer.delete('vm.c');
    expect(shippedProgram({ ...KERNEL, files: fewer }, shipped)).toBeUndefined();
  });
});
