/**
 * A verifier worker's crash names its message, file and line
 * (src/worker/crash-report.ts): a pthread's ErrorEvent rethrown by Z3's
 * glue, an opaque "[object Event]", and a plain error each become a sentence
 * with a place.
 */
import { describe, expect, it } from 'vitest';
import { crashText, describeError, isCrashNote, reportCrashes } from '../../src/worker/crash-report.ts';

describe('crash reports', () => {
  it("names a rethrown pthread ErrorEvent's own message and place", () => {
    const inner = { message: 'RuntimeError: unreachable', filename: 'http://h/z3-built.js?x=1', lineno: 1650, colno: 7 };
    const d = describeError('[object ErrorEvent]', 'http://h/assets/verifier.worker-abc.js', 3, 1, inner);
    expect(crashText(d)).toBe('a Z3 thread failed: RuntimeError: unreachable (z3-built.js:1650:7)');
  });

  it('replaces an opaque message with the error itself, and keeps the place', () => {
    const d = describeError('Uncaught [object Event]', 'http://h/assets/w.js', 12, 0, new TypeError('x is not a function'));
    expect(crashText(d)).toBe('TypeError: x is not a function (w.js:12)');
    expect(crashText(describeError('', undefined, undefined, undefined, undefined))).toBe('uncaught error');
    expect(crashText(describeError('Uncaught RangeError: too big', 'http://h/a.js', 5, 9, undefined))).toBe('Uncaught RangeError: too big (a.js:5:9)');
  });

  it('posts a note for every uncaught error, with what Z3 printed last when the error has no place', () => {
    const listeners: Array<(e: ErrorEvent) => void> = [];
    const posted: unknown[] = [];
    let prevented = 0;
    reportCrashes({ addEventListener: (_t, fn) => listeners.push(fn), postMessage: (d) => posted.push(d) }, () => 'Pthread 0x1 sent an error! z3-built.js:9: boom');
    const event = (init: Partial<ErrorEvent>) => ({ ...init, preventDefault: () => prevented++ }) as unknown as ErrorEvent;
    listeners[0](event({ message: '[object Event]', filename: '', lineno: 0, colno: 0, error: { type: 'error' } }));
    listeners[0](event({ message: 'Uncaught Error: x', filename: 'http://h/w.js', lineno: 4, colno: 2, error: new Error('x') }));
    expect(prevented).toBe(2);
    expect(posted.every(isCrashNote)).toBe(true);
    expect(posted.map((n) => crashText(n as never))).toEqual(["an 'error' event without a message (a Z3 thread that did not start?); Z3 said: Pthread 0x1 sent an error! z3-built.js:9: boom", 'Uncaught Error: x (w.js:4:2)']);
    expect(isCrashNote({ message: 'x' })).toBe(false);
  });
});
