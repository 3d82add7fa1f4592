/**
 * How the app words a counterexample (src/app/lib/cex-text.ts) and where its
 * "spec line" link points (src/app/lib/fix-line.ts). The verdicts are built
 * by hand in the core's shape; the browser tests check the same on real ones.
 */
import { describe, expect, it } from 'vitest';
import { conditionText, returnText, returnWithNumber, showsCondition, specFact } from '../../src/app/lib/cex-text.ts';
import { fixLine, fixLineCanRead, fixLineReady } from '../../src/app/lib/fix-line.ts';
import { explainingWarning } from '../../src/app/lib/fix-line-kind.ts';
import type { Diagnostic } from '../../src/core/diagnostic.ts';
import type { Counterexample, Verdict } from '../../src/core/verify/verdict.ts';

const SPEC = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt

def sys_set_runnable(old, pid):
    cond = z3.And(
        old.procs[pid].ppid == old.current,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`;
const RETURN_LINE = 11;

function cex(over: Partial<Counterexample>): Counterexample {
  return { args: [{ name: 'pid', sort: 'pid_t', value: '2049' }], specCond: true, implRet: '-3', rows: [], context: [], replayed: true, summary: '', ...over };
}
const refuted = (failed: string[], c: Counterexample): Verdict => ({ status: 'refuted', failed, obligations: [], counterexample: c });

describe('counterexample text', () => {
  it('names errno values and leaves success and unknown numbers alone', () => {
    expect(returnText('-22')).toBe('-EINVAL');
    expect(returnText('-3')).toBe('-ESRCH');
    expect(returnText('0')).toBe('0');
    expect(returnText('-99')).toBe('-99');
    expect(returnWithNumber('-13')).toBe('-EACCES (-13)');
    expect(returnWithNumber('0')).toBe('0');
  });

  it('says pre-state facts in the spec names the state table uses', () => {
    expect(specFact('proc_table.ppid[2049] = 1')).toBe('procs.ppid[pid=2049] = 1');
    expect(specFact('current = 1')).toBe('current = 1');
    expect(specFact('proc_table.killed[3] = 0')).toBe('procs.killed[pid=3] = False');
    expect(specFact('file_table.refcnt[4] = 2')).toBe('files.refcnt[fn=4] = 2');
    expect(specFact('something else')).toBe('something else');
  });

  it('explains a condition failure only when the state shown has one', () => {
    const allows = cex({ specCond: true, implRet: '-3' });
    expect(showsCondition(allows)).toBe(true);
    expect(conditionText(allows)).toContain('With pid=2049');
    expect(conditionText(allows)).toContain('-ESRCH (-3)');
    expect(conditionText(allows)).toContain('misses a check');
    expect(conditionText(cex({ specCond: false, implRet: '0' }))).toContain('refuses a call it should allow');
    expect(showsCondition(cex({ specCond: true, implRet: '0' }))).toBe(false);
    expect(showsCondition(cex({ specCond: null }))).toBe(false);
  });
});

describe('where the fix goes', () => {
  it('points a failed condition at the line that builds it, not at the return', () => {
    const at = fixLine(SPEC, 'sys_set_runnable', refuted(['cond'], cex({ specLine: RETURN_LINE })));
    expect(at).toEqual({ kind: 'condition', line: 6, endLine: 8 });
  });

  it('points a state changed on a failing call at the return, not at the write', () => {
    const UNGUARDED = SPEC.replace('util.If(cond, new, old)', 'new');
    const row = { field: 'procs.state', index: ['pid=2'], old: 'PROC_EMBRYO', spec: 'PROC_RUNNABLE', impl: 'PROC_EMBRYO', differs: true };
    const v = refuted(['procs.state'], cex({ specCond: false, implRet: '-3', rows: [row], specLine: 10 }));
    expect(fixLine(UNGUARDED, 'sys_set_runnable', v)).toEqual({ kind: 'failure-state', line: RETURN_LINE, field: 'procs.state' });
    // The call succeeds: the write is what is wrong.
    const ok = refuted(['procs.state'], cex({ specCond: true, implRet: '0', rows: [{ ...row, impl: 'PROC_RUNNING' }], specLine: 10 }));
    expect(fixLine(UNGUARDED, 'sys_set_runnable', ok)).toEqual({ kind: 'write', line: 10, field: 'procs.state' });
  });

  it('names the warning inside the statement the fix goes to', () => {
    const at = (line: number): Diagnostic => ({ code: 'SPEC201', message: 'm', severity: 'warning', span: { line, column: 9, endLine: line, endColumn: 20, offset: 0, endOffset: 0 } }) as Diagnostic;
    const fix = fixLine(SPEC, 'sys_set_runnable', refuted(['cond'], cex({ specLine: RETURN_LINE })));
    expect(explainingWarning([at(3), at(7)], fix)?.span.line).toBe(7);
    expect(explainingWarning([at(3), at(10)], fix)).toBeUndefined();
    expect(explainingWarning([at(7)], undefined)).toBeUndefined();
  });

  it('points a field the spec never writes after the last write to the new state', () => {
    const row = { field: 'procs.killed', index: ['pid=2'], old: 'False', spec: 'False', impl: 'True', differs: true };
    const at = fixLine(SPEC, 'sys_set_runnable', refuted(['procs.killed'], cex({ specCond: true, implRet: '0', rows: [row], specLine: RETURN_LINE })));
    expect(at).toEqual({ kind: 'missing-write', line: 10, field: 'procs.killed' });
  });

  it('keeps the verifier line of a wrong write, and works on a spec that no longer parses', () => {
    const row = { field: 'procs.state', index: ['pid=2'], old: 'PROC_EMBRYO', spec: 'PROC_RUNNING', impl: 'PROC_RUNNABLE', differs: true };
    const v = refuted(['procs.state'], cex({ specCond: true, implRet: '0', rows: [row], specLine: 10 }));
    expect(fixLine(SPEC, 'sys_set_runnable', v)).toEqual({ kind: 'write', line: 10, field: 'procs.state' });
    expect(fixLine('def (', 'sys_set_runnable', v)).toEqual({ kind: 'line', line: 10 });
  });

  it('reads a spec with a \\N{...} escape once the page has its Unicode names, and keeps the verifier line before', async () => {
    const named = `${SPEC}\nNOTE = u'\\N{EM DASH}'\n`;
    const v = refuted(['cond'], cex({ specLine: RETURN_LINE }));
    expect(fixLineCanRead(SPEC)).toBe(true);
    expect(fixLineCanRead(named)).toBe(false);
    expect(fixLine(named, 'sys_set_runnable', v)).toEqual({ kind: 'line', line: RETURN_LINE });
    await fixLineReady(named);
    expect(fixLineCanRead(named)).toBe(true);
    expect(fixLine(named, 'sys_set_runnable', v)).toEqual({ kind: 'condition', line: 6, endLine: 8 });
  });
});
