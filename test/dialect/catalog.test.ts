import { describe, expect, it } from 'vitest';
import * as K from '../../src/core/kernel/constants.ts';
import { ALL_FIELDS } from '../../src/core/kernel/schema.ts';
import { callSpecFunction, dialectCatalog } from '../../src/core/dialect/index.ts';

const catalog = dialectCatalog();

describe('dialect catalog', () => {
  it('lists every field, constant, sort and enum member with a detail and a doc', () => {
    for (const f of ALL_FIELDS) {
      const hit = catalog.find((e) => e.kind === 'field' && e.label === f.name && (f.struct === null || e.detail.startsWith(`${f.struct}[`)));
      expect(hit, f.path).toBeDefined();
    }
    expect(catalog.find((e) => e.label === 'state' && e.kind === 'field')!.detail).toBe('procs[pid].state : proc_state_t (64-bit)');
    expect(catalog.find((e) => e.label === 'ofile')!.insertText).toBe('ofile(fd)');
    expect(catalog.find((e) => e.label === 'nr_pages')!.insertText).toBe('nr_pages()');
    for (const name of ['NPROC', 'PAGE_SIZE', 'INITPID', 'MAX_INT64', 'PTE_PERM_MASK', 'PGTYPE_NONE', 'NPAGES_PROC_TABLE']) {
      expect(catalog.some((e) => e.kind === 'constant' && e.label === name), name).toBe(true);
    }
    for (const s of Object.keys(K.SORTS)) expect(catalog.some((e) => e.kind === 'sort' && e.label === s), s).toBe(true);
    for (const [e, members] of Object.entries(K.ENUMS)) {
      for (const m of Object.keys(members)) {
        expect(catalog.some((c) => c.kind === 'enum' && c.label === m && c.detail.startsWith(`dt.${e}.${m} =`)), m).toBe(true);
      }
    }
    for (const e of catalog) {
      expect(e.detail.length, e.label).toBeGreaterThan(0);
      expect(e.doc.length, e.label).toBeGreaterThan(10);
    }
  });

  it('names only things the interpreter really provides', () => {
    const where: Record<string, string> = { z3: 'z3.', util: 'util.', helper: '' };
    const probes = catalog
      .filter((e) => e.kind in where)
      .map((e) => (e.detail.startsWith('dt.') ? `dt.${e.label}` : `${where[e.kind]}${e.label}`));
    expect(probes).toContain('z3.ULT');
    expect(probes).toContain('util.If');
    expect(probes).toContain('is_pid_valid');
    expect(probes).toContain('dt.BIT64');
    const src = [
      'import z3',
      'from libirpy import util',
      'import hv6py.kernel.spec.datatypes as dt',
      'from hv6py.kernel.spec.helpers import *',
      'def f():',
      `    return [${probes.join(', ')}]`,
    ].join('\n');
    const r = callSpecFunction(src, 'f');
    expect(r.ok ? 'ok' : r.error.message).toBe('ok');
  });
});
