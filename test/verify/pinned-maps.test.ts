/**
 * A whole-map lambda runs only while the spec runs: the run pins every map
 * it writes to one read at fresh indices (src/core/dialect/run.ts), and
 * every later read is that term at the read's indices. So a lambda that
 * counts its reads or inspects its index's name cannot show the oracle's
 * map to the comparison with the oracle's step and another map to the
 * checks after it: the lemma check, with the oracle's proof reused, says
 * what the full check says (docs/lemmas.md, "Reusing the oracle's proof").
 * A lambda that raises when read is the spec's coded error, never an
 * internal one.
 */
import { describe, expect, it } from 'vitest';
import { nodeEngine, nodeEnv } from '../../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask, strictChecker } from '../../src/core/eval/grade/grade.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { serveVerifier } from '../../src/core/service/serve.ts';
import { proveSpecLemmas } from '../../src/core/verify/declarative.ts';
import { verify } from '../../src/core/verify/index.ts';

const T = 120_000;
const H = 'sys_set_runnable';
const WRITE = '    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n';

/** sys_set_runnable's oracle with its one write replaced by `lines` (indented in the entry function). */
function withWrite(lines: string): string {
  const src = oracleSpec(H)!;
  expect(src).toContain(WRITE);
  return src.replace(WRITE, lines);
}

// The oracle's map, and a wrong one: a second RUNNING process breaks the
// spec invariant running_is_current.
const RIGHT = 'util.If(p == pid, dt.proc_state.PROC_RUNNABLE, oldfn(p))';
const WRONG = 'util.If(p == pid, dt.proc_state.PROC_RUNNING, oldfn(p))';

/** A lambda right at its reads numbered in `right` (1-based), wrong at the others. */
function counting(right: string): string {
  return withWrite(`    n = [0]

    def state(p, oldfn):
        n[0] += 1
        if n[0] in ${right}:
            return ${RIGHT}
        return ${WRONG}

    new.procs.state = state
`);
}

const IMPURE: Record<string, string> = {
  // Right at the reads that decided before (the comparison's probe, and
  // refinement's skolem), wrong at the first and every other read.
  'counts its reads': counting('[2]'),
  // Right where the index is named like the probes that decided before.
  'reads its index name with str()': withWrite(`    def state(p, oldfn):
        if str(p).startswith('same.') or str(p).startswith('sk.'):
            return ${RIGHT}
        return ${WRONG}

    new.procs.state = state
`),
};

describe('a map that is not a function of its index', () => {
  for (const [what, spec] of Object.entries(IMPURE)) {
    it(`${what}: strict fails, as the full check does, and the oracle's proof is not reused`, async () => {
      const env = await nodeEnv();
      const strict = await verify({ handler: H, spec, strict: true }, env);
      expect(strict.status).toBe('refuted');
      const fast = await proveSpecLemmas(H, spec, env);
      const full = await proveSpecLemmas(H, spec, env, { reuse: false });
      expect(fast).toMatchObject({ status: 'failed' });
      expect(fast).not.toHaveProperty('reused');
      expect(full.status).toBe(fast.status);
      expect(await strictChecker(env)(H, spec)).toBe(false);
    }, T);
  }

  it('a lambda right at every read the verifier now makes is judged on that map, the same strict and full', async () => {
    const env = await nodeEnv();
    // Right at the pinning read and the read after it, wrong after: no read after the run reaches it.
    const spec = counting('[1, 2]');
    const fast = await proveSpecLemmas(H, spec, env);
    const full = await proveSpecLemmas(H, spec, env, { reuse: false });
    expect(fast).toMatchObject({ status: 'proved', reused: { same: 'identical' } });
    expect(full.status).toBe('proved');
  }, T);

  it("an honest lambda and the oracle itself still reuse the oracle's proof", async () => {
    const env = await nodeEnv();
    const honest = await proveSpecLemmas(H, withWrite(`    new.procs.state = lambda p, oldfn: ${RIGHT}\n`), env);
    expect(honest).toMatchObject({ status: 'proved', reused: { same: 'identical' } });
    expect(await proveSpecLemmas(H, oracleSpec(H)!, env)).toMatchObject({ status: 'proved', reused: { same: 'identical' } });
    const copy = await proveSpecLemmas('sys_copy_frame', oracleSpec('sys_copy_frame')!, env);
    expect(copy).toMatchObject({ status: 'proved', reused: { same: 'identical' } });
  }, T);
});

describe('a lambda that raises when the verifier reads it', () => {
  // Division by zero at the second read: hv6's verifier reads a map more than once.
  const spec = withWrite(`    n = [0]

    def state(p, oldfn):
        n[0] += 1
        if n[0] > 1:
            return 1 / 0
        return ${RIGHT}

    new.procs.state = state
`);
  const line = spec.split('\n').findIndex((l) => l.includes('return 1 / 0')) + 1;

  it('is the coded evaluation error SPEC017 at its place, strict or not, and a syntax grade', async () => {
    const env = await nodeEnv();
    for (const strict of [false, true]) {
      const v = await verify({ handler: H, spec, strict }, env);
      expect(v.status).toBe('spec-error');
      if (v.status !== 'spec-error') return;
      expect([v.error.code, v.error.message, v.error.span.line]).toEqual(['SPEC017', 'integer division or modulo by zero', line]);
    }
    const lemmas = await proveSpecLemmas(H, spec, env);
    expect(lemmas).toMatchObject({ status: 'spec-error', error: { code: 'SPEC017' } });
    const g = await gradeResponse(handlerOnlyTask(H), `\`\`\`python\n${spec}\n\`\`\``, { ...env, strictCheck: strictChecker(env) });
    expect(g.category).toBe('syntax');
  }, T);

  it("is the same error in the page's worker, with Z3 and before it has loaded", async () => {
    const worker = serveVerifier({ loadEngine: nodeEngine, isolated: () => true });
    const waiting = serveVerifier({ loadEngine: () => new Promise(() => undefined), isolated: () => true });
    for (const strict of [false, true]) {
      for (const v of [await worker.verify({ handler: H, spec, strict }), await waiting.verifyWithoutSolver({ handler: H, spec, strict })]) {
        expect(v).toMatchObject({ status: 'spec-error', error: { code: 'SPEC017', span: { line } } });
      }
    }
  }, T);
});
