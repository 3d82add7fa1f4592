/**
 * The two renderers of the one Diagnostic shape, on real diagnostics of each
 * family: the terminal text (core/diagnostic-text.ts) and the editor markers
 * (app/lib/markers.ts). Exact text, so a renderer that drops the notes, the
 * call trace or the code frame fails here.
 */
import type { Uri } from 'monaco-editor/editor';
import { describe, expect, it } from 'vitest';
import { toMarkers } from '../../src/app/lib/markers.ts';
import { parseProgram } from '../../src/core/c/index.ts';
import type { Diagnostic } from '../../src/core/diagnostic.ts';
import { diagnosticText } from '../../src/core/diagnostic-text.ts';
import { lintSpec } from '../../src/core/dialect/index.ts';
import { UnknownHandlerError, requireHandler } from '../../src/core/kernel/handlers.ts';
import { rateLimitedError, requestDiagnostic } from '../../src/core/llm/errors.ts';
import { SPEC_WITH_TRACE as SPEC_ERROR } from './spec-with-trace.ts';

/** An assignment to a sub-struct: the SPEC202 warning, with a note. */
const SPEC_WARNING = `import z3

def sys_kill(old, pid):
    new = old.copy()
    new.procs = 3
    return z3.BoolVal(True), new
`;

const BAD_C = 'int f(int x)\n{\n    return x +;\n}\n';

function only(source: string): Diagnostic {
  const ds = lintSpec(source, 'sys_kill');
  expect(ds).toHaveLength(1);
  return ds[0];
}

function cError(): Diagnostic {
  const r = parseProgram(new Map([['t.c', BAD_C]]), ['t.c']);
  if (r.ok) throw new Error('the C text must not parse');
  return r.errors[0];
}

describe('terminal text', () => {
  it('a spec error: head with line:col, code frame, notes, call trace', () => {
    const d = only(SPEC_ERROR);
    const text = diagnosticText(d, { source: SPEC_ERROR, file: 'kill.py' });
    expect(text).toBe(
      "kill.py:4:8: error SPEC012: a symbolic expression cannot be used as a Python bool in 'if'\n" +
        '  3 | def check(pid):\n' +
        '> 4 |     if z3.UGT(pid, 1):\n' +
        '    |        ^^^^^^^^^^^^^^\n' +
        '  5 |         return True\n' +
        'note: Python if/and/or/not need concrete values; use util.If, z3.And, z3.Or or z3.Not on z3 terms\n' +
        'note: z3py raises "Symbolic expressions cannot be cast to concrete Boolean values" here\n' +
        'call trace (innermost first):\n' +
        '  in check, called at line 9\n' +
        '  in sys_kill',
    );
    // The detail the dialect attaches is the same text, without a file name.
    expect(d.detail).toBe(diagnosticText(d, { source: SPEC_ERROR }));
    expect(d.detail!.split('\n')[0]).toBe("4:8: error SPEC012: a symbolic expression cannot be used as a Python bool in 'if'");
  });

  it('a warning: the same layout, marked warning', () => {
    expect(diagnosticText(only(SPEC_WARNING), { source: SPEC_WARNING, file: 'kill.py' })).toBe(
      "kill.py:5:5: warning SPEC202: assigning to the struct 'procs' has no effect (as upstream: reads of procs still see the struct)\n" +
        '  4 |     new = old.copy()\n' +
        '> 5 |     new.procs = 3\n' +
        '    |     ^^^^^^^^^\n' +
        '  6 |     return z3.BoolVal(True), new\n' +
        'note: write its fields instead, e.g. new.procs[i].<field> = value',
    );
  });

  it('a C error: its own file name, or the one the user typed', () => {
    const d = cError();
    const frame = '  2 | {\n> 3 |     return x +;\n    |               ^\n  4 | }';
    expect(d.detail).toBe(`t.c:3:15: error C020: expected an expression, found ';'\n${frame}`);
    expect(diagnosticText(d, { source: BAD_C, file: 'my/bad.c' })).toBe(`my/bad.c:3:15: error C020: expected an expression, found ';'\n${frame}`);
  });

  it('a request error: no place in a text, notes say what the run does next', () => {
    const e = rateLimitedError({ provider: 'anthropic', status: 429, retryAfterMs: 2000 });
    expect(diagnosticText(e.toDiagnostic())).toBe(
      'error LLM008: Anthropic is rate limiting requests (HTTP 429). It asked to wait 2 s.\nnote: such requests are retried with backoff',
    );
    // A stored error renders the same; a run's own failure (RUN001) gets no request notes.
    expect(diagnosticText(requestDiagnostic(e.toJSON()))).toBe(diagnosticText(e.toDiagnostic()));
    expect(diagnosticText(requestDiagnostic({ kind: 'server', code: 'RUN001', message: 'internal error: boom' }))).toBe('error RUN001: internal error: boom');
  });

  it('an unknown handler: one error, one code, wherever the name is looked up', () => {
    expect(() => requireHandler('sys_foo')).toThrow(UnknownHandlerError);
    expect(diagnosticText(new UnknownHandlerError('sys_foo').toDiagnostic())).toBe("error SPEC030: unknown handler 'sys_foo'");
    const [d] = lintSpec('def sys_foo(old):\n    return True, old\n', 'sys_foo');
    expect([d.code, d.message, d.severity]).toEqual(['SPEC030', "unknown handler 'sys_foo'", 'error']);
  });
});

describe('editor markers', () => {
  const uri = { toString: () => 'inmemory://model/1' } as unknown as Uri;

  it('an error: severity, range from the span, code, notes and trace as related information', () => {
    const [m] = toMarkers([only(SPEC_ERROR)], uri);
    const range = { startLineNumber: 4, startColumn: 8, endLineNumber: 4, endColumn: 22 };
    expect(m).toEqual({
      severity: 8,
      message: "a symbolic expression cannot be used as a Python bool in 'if'",
      code: 'SPEC012',
      source: 'osvlab',
      ...range,
      relatedInformation: [
        { resource: uri, message: 'note: Python if/and/or/not need concrete values; use util.If, z3.And, z3.Or or z3.Not on z3 terms', ...range },
        { resource: uri, message: 'note: z3py raises "Symbolic expressions cannot be cast to concrete Boolean values" here', ...range },
        { resource: uri, message: 'in check, called at line 9', ...range },
        { resource: uri, message: 'in sys_kill', ...range },
      ],
    });
  });

  it('a warning is a warning marker; a zero-width span still gets one column', () => {
    const [w] = toMarkers([only(SPEC_WARNING)], uri);
    expect([w.severity, w.code, w.startLineNumber, w.startColumn, w.endColumn]).toEqual([4, 'SPEC202', 5, 5, 14]);
    const [z] = toMarkers([{ ...cError(), span: { line: 2, column: 3, endLine: 2, endColumn: 3, offset: 5, endOffset: 5 } }], uri);
    expect([z.severity, z.startColumn, z.endColumn, z.relatedInformation]).toEqual([8, 3, 4, undefined]);
  });
});
