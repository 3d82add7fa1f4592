/**
 * Bad input never crashes or hangs: pathological specs end in a coded
 * diagnostic, and random mutations of a real spec give diagnostics, never
 * an exception and never an internal error.
 */
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../src/core/dialect/index.ts';
import { SPEC_IMPORTS } from '../specs.ts';

const ENTRY = 'def sys_kill(old, pid):\n';

const SPEC = `${SPEC_IMPORTS}from hv6py.kernel.spec.helpers import is_pid_valid

def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE, old.procs[pid].state)
    new.pages.data = lambda pn, idx, oldfn: util.If(pn == old.procs[pid].hvm, util.i64(0), oldfn(pn, idx))
    new.procs[pid].nr_children[pid] += 1
    return cond, util.If(cond, new, old)
`;

function codeOf(src: string): string[] {
  return lintSpec(src, 'sys_kill').map((d) => d.code);
}

describe('robustness', () => {
  it('the base spec is clean', () => {
    expect(codeOf(SPEC)).toEqual([]);
  });

  it('ends pathological specs with a coded diagnostic', () => {
    const cases: Array<[string, string]> = [
      [`${SPEC_IMPORTS}def dbl(xs, n):\n    return xs if n == 0 else dbl(xs + xs, n - 1)\n${ENTRY}    dbl([1], 60)\n    return z3.BoolVal(True), old\n`, 'SPEC023'],
      [`${SPEC_IMPORTS}def dbl(xs, n):\n    xs.extend(xs)\n    return dbl(xs, n - 1)\n${ENTRY}    dbl([1], 60)\n    return z3.BoolVal(True), old\n`, 'SPEC023'],
      [`x = 1\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}if x:\n`).join('')}${' '.repeat(300)}pass\n`, 'SPEC019'],
      [`f = ${'lambda: '.repeat(2000)}1\n`, 'SPEC019'],
      [`x = ${'2 ** '.repeat(2000)}1\n`, 'SPEC019'],
      [`x = ${'-'.repeat(5000)}1\n`, 'SPEC019'],
      [`${SPEC_IMPORTS}def w(x, n):\n    return x if n == 0 else w(z3.ZeroExt(4000, x), n - 1)\n${ENTRY}    w(pid, 50)\n    return z3.BoolVal(True), old\n`, 'SPEC023'],
      [`${SPEC_IMPORTS}${ENTRY}    xs = [i for i in range(10**12)]\n    return z3.BoolVal(True), old\n`, 'SPEC023'],
      [`${SPEC_IMPORTS}${ENTRY}    x = 10 ** 10 ** 10\n    return z3.BoolVal(True), old\n`, 'SPEC028'],
      [`${SPEC_IMPORTS}${ENTRY}    x = 'ab' * 10 ** 9\n    return z3.BoolVal(True), old\n`, 'SPEC023'],
      [`${SPEC_IMPORTS}def f(n):\n    return [f(n - 1) for i in range(50)] if n else 0\n${ENTRY}    f(10)\n    return z3.BoolVal(True), old\n`, 'SPEC018'],
      [`${SPEC_IMPORTS}${ENTRY}    new = old.copy()\n    new.pages.data = lambda pn, idx, oldfn: new.pages.data(pn, idx)\n    return z3.BoolVal(True), new\n`, 'SPEC019'],
    ];
    for (const [src, code] of cases) expect(codeOf(src), src.slice(0, 200)).toEqual([code]);
  });

  it('reads through a long chain of state-level Ifs stay linear (no exponential re-reads)', () => {
    const src = `${SPEC_IMPORTS}
def chain(s, n, pid):
    if n == 0:
        return s
    t = s.copy()
    t.procs[pid].ppid = s.procs[pid].ppid + 1
    t.procs[n].state = dt.proc_state.PROC_ZOMBIE
    return chain(util.If(z3.Bool('c' + str(n)), t, s), n - 1, pid)

${ENTRY}    s = chain(old, 60, pid)
    return s.procs[pid].ppid == 0, s
`;
    expect(codeOf(src)).toEqual([]);
  });

  it('random mutations give diagnostics, never exceptions or internal errors', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = ' \n\t()[]{}:.,=+-*/%<>!&|^~#\'"\\0123456789abcdefxyzLif_';
    const internal: string[] = [];
    for (let i = 0; i < 400; i++) {
      let s = SPEC;
      const edits = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < edits; k++) {
        const at = Math.floor(rnd() * s.length);
        const r = rnd();
        if (r < 0.4) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 5));
        else if (r < 0.8) s = s.slice(0, at) + alphabet[Math.floor(rnd() * alphabet.length)] + s.slice(at);
        else {
          const from = Math.floor(rnd() * s.length);
          s = s.slice(0, at) + s.slice(from, from + 20) + s.slice(at);
        }
      }
      const diags = lintSpec(s, 'sys_kill');
      for (const d of diags) {
        expect(d.code).toMatch(/^SPEC0\d\d$/);
        expect(d.span.line).toBeGreaterThanOrEqual(1);
        if (d.code === 'SPEC099') internal.push(`${d.message}\n${s}`);
      }
    }
    expect(internal).toEqual([]);
  });
});
