/**
 * Runs the differential check (docs/differential.md): shared by the vitest
 * test and the scripts that reproduce a seed or measure coverage.
 */
import { type CProgram, type Override, parseProgram } from '../../src/core/c/index.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { KERNEL_DIR, type BuildOptions, type NativeDriver, type NativeResult, buildDriver, runNative } from './native.ts';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Model, type Outcome, buildModel, compareCase } from './compare.ts';
import { Layout } from './layout.ts';
import { type Case, generateCase } from './world.ts';

export interface Setup {
  readonly program: CProgram;
  readonly layout: Layout;
  readonly driver: NativeDriver & { readonly dir: string };
  /** `&G` -> the native address of G. */
  readonly addr: ReadonlyMap<string, bigint>;
}

/** The kernel's files as the executor reads them (the same files gcc compiles). */
export function kernelSources(): { files: Map<string, string>; units: string[] } {
  const files = new Map<string, string>();
  for (const f of readdirSync(KERNEL_DIR)) if (/\.[ch]$/.test(f)) files.set(f, readFileSync(join(KERNEL_DIR, f), 'utf8'));
  return { files, units: [...files.keys()].filter((f) => f.endsWith('.c')).sort() };
}

/** The kernel as our executor sees it, with `overrides` linked over it (our side only). */
export function parseKernel(overrides: readonly Override[] = []): CProgram {
  const { files, units } = kernelSources();
  const r = parseProgram(files, units, overrides);
  if (!r.ok) throw new Error(r.errors.map((e) => e.detail ?? e.message).join('\n'));
  return r.program;
}

/** Parses the kernel (with `overrides` on our side only) and builds the native driver from the unchanged kernel. */
export function setup(overrides: readonly Override[] = [], build: BuildOptions = {}): Setup {
  const program = parseKernel(overrides);
  const layout = new Layout(program);
  const driver = buildDriver(layout, build);
  return { program, layout, driver, addr: new Map(driver.globals.map((g) => [`&${g.name}`, g.addr])) };
}

/** The same native driver, with our side parsed again with `overrides` (a mutant, a suspected bug). */
export function withOverrides(s: Setup, overrides: readonly Override[]): Setup {
  return { ...s, program: parseKernel(overrides) };
}

/** Removes the driver's build directory. */
export function cleanup(s: Setup): void {
  rmSync(s.driver.dir, { recursive: true, force: true });
}

export interface CaseResult {
  readonly c: Case;
  readonly native: NativeResult;
  readonly outcome: Outcome;
}

/** The handler's number in HANDLERS, by C or spec name. */
export function handlerIndex(name: string): number {
  const h = HANDLERS.findIndex((x) => x.name === name || x.alias === name);
  if (h < 0) throw new Error(`unknown handler ${name}`);
  return h;
}

/** Generates the cases `seeds` of handler h, runs them natively in one process and compares each. */
export function runCases(s: Setup, h: number, seeds: readonly number[], model: Model = buildModel(s.program, HANDLERS[h])): CaseResult[] {
  const cases = seeds.map((seed) => generateCase(s.layout, s.addr, h, seed));
  const native = runNative(s.driver, cases.map((c) => ({ cells: c.state.raw(), handler: h, args: c.args })));
  return cases.map((c, k) => ({ c, native: native[k], outcome: compareCase(model, s.layout, s.driver, c, native[k]) }));
}

/** One line per disagreement, with what reproduces it. */
export function report(r: CaseResult, limit = 12): string {
  const { c, outcome } = r;
  const head = `${c.handler.name} seed ${c.seed} (args ${c.args.map((a) => `0x${a.toString(16)}`).join(', ')}${c.broken ? `; broken on purpose: ${c.broken}` : ''})`;
  const lines = outcome.mismatches.slice(0, limit).map((m) => `  ${m}`);
  if (outcome.mismatches.length > limit) lines.push(`  ... ${outcome.mismatches.length - limit} more`);
  lines.push(`  reproduce: npx tsx scripts/diff-case.ts ${c.handler.name} ${c.seed}`);
  return [head, ...lines].join('\n');
}
