/**
 * Specs compared by meaning (src/core/verify/equivalence.ts): the golden
 * pairs of test/cases/diff (each case against its handler's oracle), what
 * is reused without a query, and the coded errors.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { diffSpecs } from '../../src/core/verify/equivalence.ts';
import { requireArtefact } from '../artefacts.ts';
import { expectations, loadCases } from '../cases/load.ts';

const oracle = (h: string) => requireArtefact(oracleSpec(h), `the oracle spec of ${h}`);

describe('golden pairs compared with the oracle', () => {
  for (const c of loadCases('diff')) {
    it(`${c.group}/${c.name}`, async () => {
      const want = c.header.expectations[0];
      const v = await diffSpecs({ handler: c.handler!, a: oracle(c.handler!), b: c.text }, await nodeEnv());
      expect(v.status, v.status === 'spec-error' ? v.error.message : '').toBe(want.kind === 'equivalent' ? 'equivalent' : 'different');
      if (v.status === 'equivalent') {
        const ghost = expectations(c, 'equivalent')[0].ghost;
        expect(v.ghost).toEqual(ghost.length ? { kind: 'differ', fields: ghost } : { kind: 'same' });
      }
      if (v.status === 'different') {
        for (const f of expectations(c, 'different')[0].fields) expect(v.witness.fields).toContain(f);
        expect(v.witness.replayed).toBe(true);
        // Every row the table marks is a cell where the two post-states differ, and names a compared field.
        for (const r of v.witness.rows.filter((x) => x.differs)) {
          expect(r.a).not.toBe(r.b);
          expect(v.witness.fields).toContain(r.field);
        }
      }
    });
  }
});

describe('the distinguishing state is well-formed where one exists', () => {
  it('pid-mutant: counts within the kernel\'s limits and small arguments, as a counterexample shows them', async () => {
    const mutant = loadCases('diff').find((c) => c.name === 'pid-mutant.py')!.text;
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: mutant, ghost: false }, await nodeEnv());
    expect(v.status).toBe('different');
    if (v.status !== 'different') return;
    expect(v.witness.replayed).toBe(true);
    // The first model Z3 finds has nr_fds and refcnt of 2^64-3 (shown -3); a well-formed one stays within NOFILE and NPROC*NOFILE.
    const old = (field: string) => v.witness.rows.filter((r) => r.field === field).map((r) => BigInt(r.old));
    expect(old('procs.nr_fds').length).toBeGreaterThan(0);
    for (const n of old('procs.nr_fds')) expect(n >= 0n && n <= 16n).toBe(true);
    for (const n of old('files.refcnt')) expect(n >= 0n && n <= 1024n).toBe(true);
    for (const a of v.witness.args) expect(BigInt(a.value) < 4096n && BigInt(a.value) >= -4096n).toBe(true);
  });
});

describe('what is known is reused', () => {
  it('the same terms need no query for behaviour, one for the ghost note at most', async () => {
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: `${oracle('sys_dup')}\n# a comment\n` }, await nodeEnv());
    expect(v).toMatchObject({ status: 'equivalent', how: 'same-terms', queries: 0, ghost: { kind: 'same' } });
  });

  it('two specs known to refine the kernel are equivalent with no query', async () => {
    const rewrite = loadCases('diff').find((c) => c.name === 'rewrite.py')!;
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: rewrite.text, bothRefine: true }, await nodeEnv());
    expect(v).toMatchObject({ status: 'equivalent', how: 'both-refine', queries: 0 });
  });

  it('a cond-only difference names only cond, with both conditions', async () => {
    const c = loadCases('diff').find((x) => x.name === 'cond-only.py')!;
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: c.text }, await nodeEnv());
    if (v.status !== 'different') throw new Error(v.status);
    expect(v.witness.fields).toEqual(['cond']);
    expect([v.witness.condA, v.witness.condB]).toEqual([true, false]);
    expect(v.witness.rows).toEqual([]);
  });
});

describe('bad input', () => {
  it('a spec of another handler is DIFF001 at its entry function', async () => {
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: oracle('sys_dup2') }, await nodeEnv());
    if (v.status !== 'spec-error') throw new Error(v.status);
    expect(v.side).toBe('b');
    expect(v.error.code).toBe('DIFF001');
    expect(v.error.message).toBe("this is a spec of sys_dup2 (it defines 'sys_dup2'), not of sys_dup: both specs must be of the handler compared");
    expect(v.error.span.line).toBe(oracle('sys_dup2').split('\n').findIndex((l) => l.startsWith('def sys_dup2')) + 1);
  });

  it('a spec that does not parse is a spec error with its position', async () => {
    const v = await diffSpecs({ handler: 'sys_dup', a: 'def sys_dup(old, oldfd, pid, newfd):\n    return (\n', b: oracle('sys_dup') }, await nodeEnv());
    if (v.status !== 'spec-error') throw new Error(v.status);
    expect(v.side).toBe('a');
    expect(v.error.code).toMatch(/^SPEC0/);
    expect(v.error.span.line).toBeGreaterThan(1);
  });

  it('a spec that loops is the interpreter limit, a spec error', async () => {
    const loop = oracle('sys_dup').replace('    cur = old.current', '    while True:\n        pass\n    cur = old.current');
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: loop }, await nodeEnv());
    expect(v.status).toBe('spec-error');
  });

  it('a budget too small for the query is timeout, never equivalent', async () => {
    const c = loadCases('diff').find((x) => x.name === 'rewrite.py')!;
    const v = await diffSpecs({ handler: 'sys_dup', a: oracle('sys_dup'), b: c.text, timeoutMs: 1 }, await nodeEnv());
    expect(v.status).toBe('timeout');
  });
});
