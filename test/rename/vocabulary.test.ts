/**
 * The lens's vocabulary and new names (docs/rename.md): derived from the
 * kernel and the prelude, never touching what is reserved; the synonym
 * table covers every name (a new kernel or prelude name without a synonym
 * fails here, naming the word), and both styles are one to one for every
 * seed, with no new name an original or reserved one.
 */
import { describe, expect, it } from 'vitest';
import { pythonBuiltins } from '../../src/core/dialect/builtins/python.ts';
import type { NativeFn } from '../../src/core/dialect/objects.ts';
import { z3Module } from '../../src/core/dialect/builtins/z3.ts';
import { ERRNO } from '../../src/core/kernel/constants.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { STRUCTS } from '../../src/core/kernel/schema.ts';
import { RENAME_STYLES } from '../../src/core/rename/choice.ts';
import { NamingError, missingSynonyms, newNames, synonymKey, synonymOf } from '../../src/core/rename/naming.ts';
import { KEPT_PARTS, PROSE_WORDS, SYNONYMS } from '../../src/core/rename/synonyms.ts';
import { NAME_KINDS, REFUSED_BUILTINS, vocabulary, vocabularySizes } from '../../src/core/rename/vocabulary.ts';

const vocab = vocabulary();
const SEEDS = [1, 2, 3];

describe('vocabulary', () => {
  it('holds the kernel and prelude names of every kind, derived', () => {
    const sizes = vocabularySizes(vocab);
    console.log(`vocabulary: ${vocab.names.size} names, ${NAME_KINDS.map((k) => `${k} ${sizes[k]}`).join(', ')}; kept (reserved): ${vocab.kept.join(' ')}`);
    for (const k of NAME_KINDS) expect(sizes[k], k).toBeGreaterThan(0);
    for (const h of HANDLERS) expect(vocab.names.get(h.name), h.name).toBe('handler');
    for (const s of STRUCTS) expect(vocab.names.has(s.name), s.name).toBe(true);
    const expected: Record<string, string> = {
      is_pid_valid: 'function', proc: 'struct', proc_table: 'table', procs: 'table', ppid: 'field', pn_t: 'type', proc_state: 'enum',
      PROC_RUNNABLE: 'member', NPROC: 'constant', Refcnt: 'class', flush_tlb: 'method', hv6py: 'module', libirpy: 'module',
      oldfd: 'parameter', alloc_page_table: 'helper', sys_clone: 'handler',
    };
    for (const [name, kind] of Object.entries(expected)) expect(vocab.names.get(name), name).toBe(kind);
  });

  it('never holds a keyword, a built-in, a z3 or C library name, or an errno name', () => {
    for (const r of ['def', 'return', 'lambda', 'len', 'range', 'z3', 'util', 'If', 'memset', 'memcpy', 'size_t', 'uint64_t', 'int', 'struct', 'size', 'sort', 'copy', 'dt', ...Object.keys(ERRNO), ...z3Module().attrs.keys()]) {
      expect(vocab.names.has(r), r).toBe(false);
      expect(vocab.reserved.has(r), r).toBe(true);
    }
    expect(vocab.kept).toContain('size');
  });

  it("renames the builtins no spec can call that are hv6 names (file, type), and keeps next, which a spec can call", () => {
    const builtins = new Map(pythonBuiltins().map((b) => [b.name, b]));
    const span = { line: 1, column: 1, endLine: 1, endColumn: 2, offset: 0, endOffset: 1 };
    for (const name of REFUSED_BUILTINS) {
      expect(vocab.names.has(name), name).toBe(true);
      // Python 2 has it, and the dialect refuses every call of it.
      expect(() => builtins.get(name)!.fn([], undefined, { span, argSpans: [] } as unknown as Parameters<NativeFn>[2]), name).toThrow(expect.objectContaining({ code: 'SPEC003' }));
    }
    expect(builtins.has('next')).toBe(true);
    expect(vocab.reserved.has('next')).toBe(true);
    expect(vocab.kept).toContain('next');
  });
});

describe('synonym table', () => {
  it('covers every word of every vocabulary name', () => {
    const missing = [...vocab.names.keys()].flatMap((n) => missingSynonyms(n).map((w) => `${w} (of ${n})`));
    expect(missing).toEqual([]);
  });

  it('names no missing word for a name it covers, and the word for one it does not', () => {
    expect(missingSynonyms('nr_pages')).toEqual([]);
    expect(missingSynonyms('sys_frobnicate_page')).toEqual(['frobnicate']);
    expect(synonymOf('sys_frobnicate_page', 1)).toBeUndefined();
  });

  it('has distinct replacements, none of them a word of an original name', () => {
    const words = new Set<string>();
    for (const n of vocab.names.keys()) for (const w of n.replace(/([a-z0-9])([A-Z])/g, '$1_$2').split('_')) if (w) words.add(w.toLowerCase());
    const seen = new Map<string, string>();
    for (const [key, alts] of Object.entries(SYNONYMS)) {
      for (const alt of alts.split(' ')) {
        expect(seen.get(alt), `${alt} of ${key}`).toBeUndefined();
        seen.set(alt, key);
        for (const w of alt.split('_')) if (!KEPT_PARTS.has(w)) expect(words.has(w), `${alt} (of ${key}) is a word of an original name`).toBe(false);
      }
    }
  });

  it('reads plurals, trailing numbers and phrases', () => {
    expect(synonymKey('procs')).toEqual({ key: 'proc', suffix: 's' });
    expect(synonymKey('dup2')).toEqual({ key: 'dup', suffix: '2' });
    expect(synonymOf('io_bitmap_b', 1)).toBe(`${SYNONYMS.io}_${SYNONYMS.bitmap_b}`);
    expect(synonymOf('PAGE_TYPE_X86_PML4', 1)).toMatch(/^[A-Z0-9_]+$/);
    expect(synonymOf('BaseStruct', 1)).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+$/);
  });

  it('lists prose words that are vocabulary names', () => {
    for (const w of PROSE_WORDS) expect(vocab.names.has(w), w).toBe(true);
  });
});

describe('new names', () => {
  for (const style of RENAME_STYLES) {
    it(`${style}: one to one for seeds ${SEEDS.join(', ')}, never an original or reserved name`, () => {
      const maps = SEEDS.map((seed) => newNames(vocab, style, seed));
      for (const m of maps) {
        expect(m.size).toBe(vocab.names.size);
        const targets = new Set(m.values());
        expect(targets.size).toBe(m.size);
        for (const t of targets) {
          expect(vocab.names.has(t), t).toBe(false);
          expect(vocab.reserved.has(t), t).toBe(false);
          expect(t, t).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
        }
      }
      // Deterministic, and the seed matters.
      expect([...newNames(vocab, style, 2)]).toEqual([...maps[1]]);
      expect([...maps[0]]).not.toEqual([...maps[1]]);
    });
  }

  it('opaque names keep only the case, leading underscores and a _t suffix', () => {
    const m = newNames(vocab, 'opaque', 1);
    expect(m.get('PROC_RUNNABLE')).toMatch(/^[A-Z]+$/);
    expect(m.get('pn_t')).toMatch(/^[a-z]+_t$/);
    expect(m.get('__osv_assert')).toMatch(/^__[a-z]+$/);
    expect(m.get('Refcnt')).toMatch(/^[A-Z][a-z]+$/);
  });

  it('refuses a synonym that collides', () => {
    const clash = { ...vocab, names: new Map([...vocab.names, ['tasks', 'table' as const]]) };
    expect(() => newNames(clash, 'synonym', 1)).toThrow(NamingError);
  });
});
