/**
 * The kernel C (tasks/hv6/kernel) and the C mutants (test/cases/mutants) are
 * real C: gcc must accept them with the flags of docs/c-subset.md. The
 * layout and constants must match the hv6 interface, and every verified
 * handler must be defined with the parameters of src/core/kernel/handlers.ts.
 */
import { spawnSync } from 'node:child_process';
import { toolAvailable } from '../artefacts.ts';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENUM_MEMBERS, ERRNO, NPAGES, PTE } from '../../src/core/kernel/constants.ts';
import * as K from '../../src/core/kernel/constants.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { ALL_FIELDS } from '../../src/core/kernel/schema.ts';
import { type Header, loadCases } from '../cases/load.ts';

const ROOT = resolve(__dirname, '../..');
const KERNEL = join(ROOT, 'tasks/hv6/kernel');
const MUTANTS = join(ROOT, 'test/cases/mutants');
const FLAGS = ['-std=gnu11', '-fsyntax-only', '-ffreestanding', '-nostdinc', '-Wall', '-Werror', '-I', KERNEL];

const HAS_GCC = toolAvailable(spawnSync('gcc', ['--version']).status === 0, 'gcc', 'gcc');
const needsGcc = HAS_GCC ? describe : describe.skip;
if (!HAS_GCC) console.warn('gcc is not installed: skipping the gcc checks of the kernel C and the mutants');

/** Runs gcc on one file; returns its diagnostics, or '' when it compiled. */
function gcc(file: string): string {
  const r = spawnSync('gcc', [...FLAGS, file], { encoding: 'utf8' });
  return r.status === 0 ? '' : `${relative(ROOT, file)}:\n${r.stderr}${r.error ?? ''}`;
}

function cFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => join(dir, f));
}

/** The mutants with their headers (test/cases/README.md). */
function mutants(): { file: string; header: Header }[] {
  return loadCases('mutants').map((c) => ({ file: join(ROOT, c.path), header: c.header }));
}

function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

interface CFunction {
  name: string;
  params: string[];
  /** The body with comments removed and whitespace collapsed. */
  body: string;
}

/** The function definitions of a C file (a regex scan: good enough for our own code). */
function definitions(src: string): CFunction[] {
  const text = stripComments(src);
  const out: CFunction[] = [];
  const re = /^[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\{/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    const params = m[2].trim() === 'void' || m[2].trim() === '' ? [] : m[2].split(',').map((p) => p.trim());
    const body = text.slice(m.index + m[0].length, end).replace(/\s+/g, ' ').trim();
    out.push({ name: m[1], params, body });
  }
  return out;
}

function kernelDefinitions(): Map<string, CFunction> {
  const defs = new Map<string, CFunction>();
  for (const file of cFiles(KERNEL)) {
    for (const d of definitions(readFileSync(file, 'utf8'))) {
      expect(defs.has(d.name), `${d.name} is defined twice in the kernel`).toBe(false);
      defs.set(d.name, d);
    }
  }
  return defs;
}

/**
 * Builds the kernel with test/kernel/harness.c into a native program and
 * runs it. `first` are C files linked before the kernel, whose definitions
 * win over the kernel's (how a mutant replaces a kernel function).
 */
function runHarness(first: string[]): { stdout: string; stderr: string } {
  const exe = join(mkdtempSync(join(tmpdir(), 'osvlab-harness-')), 'harness');
  const build = spawnSync(
    'gcc',
    ['-std=gnu11', '-ffreestanding', '-nostdinc', '-Wall', '-Werror', '-O1', '-I', KERNEL,
      ...first, ...cFiles(KERNEL), join(__dirname, 'harness.c'), '-Wl,--allow-multiple-definition', '-o', exe],
    { encoding: 'utf8' },
  );
  if (build.status !== 0) return { stdout: '', stderr: `build failed:\n${build.stderr}` };
  const run = spawnSync(exe, [], { encoding: 'utf8', timeout: 60_000 });
  return { stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

/** Width in bits of a kernel C parameter type. */
const C_WIDTH: Record<string, number> = {
  pid_t: 64, pn_t: 64, dmapn_t: 64, fn_t: 64, size_t: 64, pte_t: 64, iommu_pte_t: 64,
  uint64_t: 64, off_t: 64, int: 32, devid_t: 16, uint16_t: 16, uint8_t: 8,
};

needsGcc('gcc accepts the kernel', () => {
  it('compiles every kernel source file', () => {
    const files = cFiles(KERNEL);
    expect(files.length).toBeGreaterThan(5);
    expect(files.map(gcc).filter(Boolean).join('\n')).toBe('');
  });

  it('has the layout and constants of the hv6 interface (static asserts)', () => {
    expect(gcc(join(__dirname, 'layout-check.c'))).toBe('');
  });

  it('agrees with the constants the spec side uses (src/core/kernel/constants.ts)', () => {
    const checks: string[] = [];
    const u64 = (v: bigint) => `0x${v.toString(16)}UL`;
    for (const [name, v] of Object.entries(ENUM_MEMBERS)) checks.push(`(unsigned long)${name} == ${u64(v)}`);
    for (const [name, v] of Object.entries(ERRNO)) checks.push(`${name} == ${v}`);
    for (const [name, v] of Object.entries(PTE)) checks.push(`${name} == ${u64(v)}`);
    for (const name of ['NPAGE', 'NDMAPAGE', 'NPROC', 'NOFILE', 'NFILE', 'NPCIDEV', 'NINTREMAP', 'PAGE_SIZE', 'PAGE_SHIFT', 'NPCIPAGE'] as const) {
      checks.push(`${name} == ${K[name]}UL`);
    }
    checks.push(`PCI_START == ${u64(K.PCI_START)}`, `PCI_END == ${u64(K.PCI_END)}`, `INITPID == ${K.INITPID}`);
    checks.push(`bytes_to_pages(NPROC * sizeof(struct proc)) == ${NPAGES.NPAGES_PROC_TABLE}`);
    checks.push(`bytes_to_pages(NFILE * sizeof(struct file)) == ${NPAGES.NPAGES_FILE_TABLE}`);
    checks.push(`bytes_to_pages(NPAGE * sizeof(struct page_desc)) == ${NPAGES.NPAGES_PAGE_DESC_TABLE}`);
    checks.push(`bytes_to_pages(NPCIDEV * sizeof(struct pci_func)) == ${NPAGES.NPAGES_DEVICES}`);
    const src = ['#include "kernel.h"', ...checks.map((c) => `_Static_assert(${c}, "${c.replace(/"/g, '')}");`)].join('\n');
    const file = join(mkdtempSync(join(tmpdir(), 'osvlab-kernel-')), 'constants-check.c');
    writeFileSync(file, src);
    expect(gcc(file)).toBe('');
  });

  it('runs every handler natively through the harness, keeping the invariants', () => {
    const r = runHarness([]);
    expect(r.stderr + r.stdout).toMatch(/^ok \d+\n$/);
  });

  it('harness fails when a kernel function is replaced by a mutant', () => {
    for (const m of ['sys_kill/kill-running.c', 'sys_create/offset-kept.c']) {
      const r = runHarness([join(MUTANTS, m)]);
      expect(r.stdout, m).toMatch(/^line \d+: /);
    }
  });

  it('rejects a wrong layout (the static-assert check can fail)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'osvlab-kernel-')), 'bad.c');
    writeFileSync(file, '#include "kernel.h"\n_Static_assert(sizeof(struct proc) == 360, "wrong");\n');
    expect(gcc(file)).toMatch(/static assertion failed/);
  });
});

describe('kernel handlers', () => {
  it('defines each of the 50 handlers with the parameters of handlers.ts', () => {
    const defs = kernelDefinitions();
    expect(HANDLERS).toHaveLength(50);
    const problems: string[] = [];
    for (const h of HANDLERS) {
      const d = defs.get(h.name);
      if (!d) {
        problems.push(`${h.name}: not defined`);
        continue;
      }
      if (d.params.length !== h.args.length) {
        problems.push(`${h.name}: ${d.params.length} parameters, expected ${h.args.length}`);
        continue;
      }
      d.params.forEach((p, i) => {
        const type = p.replace(/\s*\b\w+$/, '').trim();
        if (C_WIDTH[type] !== h.args[i].width) {
          problems.push(`${h.name}: parameter ${i + 1} "${p}" is not ${h.args[i].width} bits (${h.args[i].sort})`);
        }
      });
    }
    expect(problems).toEqual([]);
  });

  it('keeps handlers and helpers non-recursive and free of loops other than for', () => {
    const problems: string[] = [];
    for (const file of cFiles(KERNEL)) {
      const text = stripComments(readFileSync(file, 'utf8'));
      for (const word of ['while', 'switch', 'goto', 'do']) {
        if (new RegExp(`\\b${word}\\b`).test(text)) problems.push(`${relative(ROOT, file)}: uses ${word}`);
      }
      for (const d of definitions(readFileSync(file, 'utf8'))) {
        if (new RegExp(`\\b${d.name}\\s*\\(`).test(d.body)) problems.push(`${d.name} calls itself`);
      }
    }
    expect(problems).toEqual([]);
  });
});

const OBLIGATIONS = new Set(['cond', 'safety', ...ALL_FIELDS.filter((f) => !f.ghost).map((f) => f.path)]);
const HANDLER_NAMES = new Set(HANDLERS.map((h) => h.name));

describe('C mutants', () => {
  const cases = mutants();
  const files = cases.map((c) => c.file);

  it('has at least two mutants for every handler', () => {
    const missing = HANDLERS.map((h) => h.name).filter((h) => {
      try {
        return cFiles(join(MUTANTS, h)).length < 2;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it('names a handler directory and states refuted obligations that exist', () => {
    const problems: string[] = [];
    for (const { file, header } of cases) {
      const rel = relative(MUTANTS, file);
      const handler = rel.split('/')[0];
      if (!HANDLER_NAMES.has(handler)) problems.push(`${rel}: ${handler} is not a verified handler`);
      const [want, ...more] = header.expectations;
      if (want.kind !== 'refuted' || more.length || !want.obligations.length) {
        problems.push(`${rel}: the header is not one "// expect: refuted <obligation> ..."`);
        continue;
      }
      for (const o of want.obligations) if (!OBLIGATIONS.has(o)) problems.push(`${rel}: unknown obligation ${o}`);
    }
    expect(problems).toEqual([]);
  });

  it('redefines kernel functions, at least one of them differently', () => {
    const kernel = kernelDefinitions();
    const problems: string[] = [];
    for (const file of files) {
      const rel = relative(MUTANTS, file);
      const defs = definitions(readFileSync(file, 'utf8'));
      const replaced = defs.filter((d) => kernel.has(d.name));
      if (replaced.length === 0) problems.push(`${rel}: redefines no kernel function`);
      else if (replaced.every((d) => d.body === kernel.get(d.name)!.body)) problems.push(`${rel}: identical to the kernel`);
      for (const d of replaced) {
        if (d.params.length !== kernel.get(d.name)!.params.length) problems.push(`${rel}: ${d.name} has a different arity`);
      }
    }
    expect(problems).toEqual([]);
  });

  needsGcc('gcc', () => {
    it('compiles every mutant with the kernel flags', () => {
      expect(files.length).toBeGreaterThan(0);
      expect(files.map(gcc).filter(Boolean).join('\n')).toBe('');
    });
  });
});
