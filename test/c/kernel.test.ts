/**
 * The real kernel (tasks/hv6/kernel): all of it parses and links, and every
 * handler of src/core/kernel/handlers.ts that the kernel defines runs
 * symbolically on a fresh memory and fresh arguments of the handler's sorts.
 */
import { describe, expect, it } from 'vitest';
import {
  IOTLBINV, TLBINV, execFunction, freshMemory, functionSignature, isHook, memoryLeaves,
} from '../../src/core/c/index.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { variable } from '../../src/core/smt/term.ts';
import { requireArtefact } from '../artefacts.ts';
import { kernelFiles, mustParse } from './helpers.ts';

const files = requireArtefact(kernelFiles(), 'the kernel in tasks/hv6/kernel');

describe('the hv6 kernel', () => {
  const units = [...files.keys()].filter((f) => f.endsWith('.c')).sort();
  const program = mustParse(files, units);

  it('parses and links every translation unit', () => {
    expect(units.length).toBeGreaterThan(3);
    expect([...program.globals.keys()]).toEqual(expect.arrayContaining(['proc_table', 'current', 'pages', 'page_desc_table', 'file_table']));
  });

  it('lays out memory as docs/c-subset.md says', () => {
    const mem = freshMemory(program);
    const leaf = (k: string) => memoryLeaves(program).find((l) => l.key === k);
    expect(leaf('current')).toMatchObject({ dims: 0, type: { width: 64 } });
    expect(leaf('proc_table.state')).toMatchObject({ dims: 1, type: { width: 64 } });
    expect(leaf('proc_table.ofile')).toMatchObject({ dims: 2 });
    expect(leaf('proc_table.ready.prev')).toMatchObject({ dims: 1 });
    expect(leaf('pages')).toMatchObject({ dims: 2, type: { width: 64 } });
    expect(leaf('pcipages.valid')).toMatchObject({ dims: 1, type: { width: 8, bool: true } });
    expect(leaf('proc_table.ipc_fd')).toMatchObject({ type: { width: 32 } });
    expect(mem.get(TLBINV)).toMatchObject({ domain: [64], range: 0 });
    expect(mem.get(IOTLBINV)).toMatchObject({ domain: [], range: 0 });
    expect(mem.get('proc_table.ofile')).toMatchObject({ domain: [64, 64], range: 64 });
  });

  it('calls no body-less function that the executor does not model', () => {
    const called = new Set([...program.sema.callees.values()].filter((f) => !f.body).map((f) => f.name));
    expect(called.size).toBeGreaterThan(3);
    expect([...called].filter((n) => !isHook(n))).toEqual([]);
  });

  const present = HANDLERS.filter((h) => program?.functions.get(h.name)?.body);

  it('defines the handlers with the argument widths of handlers.ts and an int result', () => {
    expect(present.length).toBeGreaterThan(0);
    for (const h of present) {
      const sig = functionSignature(program, h.name)!;
      expect(sig.params.map((p) => p.width), h.name).toEqual(h.args.map((a) => a.width));
      expect(sig.ret, h.name).toEqual({ width: 32, signed: true });
    }
  });

  for (const h of HANDLERS) {
    it(`defines and executes ${h.name}`, () => {
      expect(program.functions.get(h.name)?.body, `the kernel defines ${h.name}`).toBeDefined();
      const mem = freshMemory(program);
      const args = h.args.map((a) => variable(`arg.${a.name}`, a.width));
      const r = execFunction(program, h.name, mem, args);
      if (!r.ok) throw new Error(r.error.detail);
      expect(r.ret.sort).toBe(32);
      expect([...r.mem.keys()]).toEqual([...mem.keys()]);
      expect(r.stats.paths).toBeGreaterThan(0);
      for (const s of r.safety) expect(s.ok.sort).toBe(0);
    });
  }
});
