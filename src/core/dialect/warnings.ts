/**
 * Warnings of the spec dialect: places where a stricter interpreter would
 * raise, but hv6's Python 2 + z3py evaluates without error. The dialect then
 * evaluates as upstream does and records a warning (a Diagnostic with a
 * SPEC2xx code). A warning never changes a result, a verdict or a grade.
 * The codes are documented in docs/spec-errors.md ("Warnings").
 *
 * Warnings are collected per run: `collectWarnings` installs a sink for the
 * duration of a synchronous body (runSpec, lintSpec); `warn` outside a
 * collection (a lazy map read after the run) is dropped.
 */
import type { Diagnostic } from '../diagnostic.ts';
import type { Span } from '../span.ts';
import { SpecError } from './errors.ts';

export const SPEC_WARNINGS: Readonly<Record<string, string>> = {
  SPEC201: 'an Accessor compared with a value (plain Python object comparison)',
  SPEC202: 'assignment to a sub-struct attribute has no effect',
  SPEC203: 'a z3 equality used as a Python bool (decided by structural identity)',
  SPEC204: 'a write that raises when read, into a field the refinement never reads',
};

interface Sink {
  readonly out: Diagnostic[];
  readonly seen: Set<string>;
  readonly source: string;
}

let sink: Sink | undefined;

/** Records a warning in the current collection (no-op outside one). At most 50 per run. */
export function warn(code: keyof typeof SPEC_WARNINGS & string, span: Span, message: string, notes: string[] = []): void {
  if (!sink || sink.out.length >= 50) return;
  const key = `${code}:${span.offset}:${span.endOffset}`;
  if (sink.seen.has(key)) return;
  sink.seen.add(key);
  sink.out.push(new SpecError(code, message, span, notes).toDiagnostic(sink.source, 'warning'));
}

/**
 * Runs `body` with `out` as the warning sink (warnings land there even when
 * `body` throws). Inside an outer collection the outer sink keeps them.
 */
export function withWarnings<T>(source: string, out: Diagnostic[], body: () => T): T {
  if (sink) return body();
  sink = { out, seen: new Set(), source };
  try {
    return body();
  } finally {
    sink = undefined;
  }
}
