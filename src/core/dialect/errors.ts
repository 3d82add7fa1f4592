/**
 * Every user-facing error of the spec dialect. Each factory below builds a
 * `SpecError` with a stable code, a one-line message for an editor marker and
 * the span it points at; `toDiagnostic` gives the one Diagnostic shape
 * (diagnostic.ts) with the terminal text (diagnostic-text.ts).
 *
 * `SpecError` is thrown inside the interpreter and converted to a
 * `Diagnostic` at the API boundary (`runSpec`, `lintSpec`). It can also
 * escape later from a post-state map whose lambda is evaluated lazily; its
 * `diagnostic` getter then gives the same data. The codes are documented in
 * docs/spec-errors.md; never renumber them.
 */
import type { Diagnostic, Severity } from '../diagnostic.ts';
import { diagnosticText } from '../diagnostic-text.ts';
import { type Span, TEXT_START } from '../span.ts';

export class SpecError extends Error {
  /** Python-traceback-like lines, innermost call first ("in sys_dup, line 12"). */
  readonly trace: string[] = [];
  /** The spec text, attached by the interpreter so a lazy error can still show a code frame. */
  source: string | undefined;

  constructor(
    readonly code: string,
    message: string,
    readonly span: Span,
    /** Extra explanation lines for the terminal detail. */
    readonly notes: readonly string[] = [],
  ) {
    super(message);
    this.name = 'SpecError';
  }

  /** The Diagnostic for this error (uses the attached source for the code frame, when known). */
  get diagnostic(): Diagnostic {
    return this.toDiagnostic(this.source);
  }

  /** The one Diagnostic shape, with notes and call trace; `detail` is its terminal text when `source` is known. */
  toDiagnostic(source = this.source, severity: Severity = 'error'): Diagnostic {
    const d: Diagnostic = {
      code: this.code,
      severity,
      message: this.message,
      span: this.span,
      ...(this.notes.length ? { notes: [...this.notes] } : {}),
      ...(this.trace.length ? { trace: [...this.trace] } : {}),
    };
    return { ...d, detail: diagnosticText(d, { source }) };
  }
}

/** The code table: code -> one-line meaning (docs/spec-errors.md says more). */
export const SPEC_CODES: Readonly<Record<string, string>> = {
  SPEC001: 'lexical error',
  SPEC002: 'syntax error',
  SPEC003: 'unsupported Python construct',
  SPEC004: 'import of an unknown module or name',
  SPEC005: 'unknown name',
  SPEC006: 'unknown attribute',
  SPEC007: 'unknown kernel-state field',
  SPEC008: 'wrong number of indices',
  SPEC009: 'not callable',
  SPEC010: 'wrong arguments in a call',
  SPEC011: 'sort or width mismatch',
  SPEC012: 'symbolic value used as a Python bool',
  SPEC013: 'Python int or bool where util.If needs a z3 term',
  SPEC014: 'missing entry function',
  SPEC015: 'entry function has the wrong parameters',
  SPEC016: 'entry function returned something other than (cond, state)',
  SPEC017: 'division by zero on Python ints',
  SPEC018: 'step limit exceeded',
  SPEC019: 'recursion depth limit exceeded',
  SPEC020: 'type error',
  SPEC021: 'invalid write to the kernel state',
  SPEC022: 'invalid Refcnt operation',
  SPEC023: 'invalid value',
  SPEC024: 'index out of range',
  SPEC025: 'unpacking mismatch',
  SPEC026: 'invalid program structure',
  SPEC027: 'assertion failed',
  SPEC028: 'integer too large',
  SPEC029: 'accessor used as a value',
  SPEC030: 'bad verifier request',
  SPEC031: 'refuted spec with a quantifier',
  SPEC032: 'exhausted iterator',
  SPEC099: 'internal error',
};

const err = (code: string, span: Span, message: string, notes: string[] = []) =>
  new SpecError(code, message, span, notes);

const didYouMean = (s: string | undefined) => (s ? `; did you mean ${s}?` : '');

// ------------------------------------------------------------------ lexing and parsing

export function lexicalError(span: Span, message: string): SpecError {
  return err('SPEC001', span, message);
}

/** A parse error: `expected` describes what the grammar wanted, `found` the token seen. */
export function expectedError(span: Span, expected: string, found: string): SpecError {
  return err('SPEC002', span, `expected ${expected} but found ${found}`);
}

export function syntaxError(span: Span, message: string): SpecError {
  return err('SPEC002', span, message);
}

/** `what` is a plural noun phrase: "'while' loops", "class definitions". */
export function unsupportedConstruct(span: Span, what: string, hint?: string): SpecError {
  return err('SPEC003', span, `${what} are not supported in specs`, hint ? [hint] : []);
}

/** A Python 2 result the dialect cannot represent: a float (`what` says where it comes from). */
export function floatResult(span: Span, what: string): SpecError {
  return err('SPEC003', span, `${what} gives a float, and floats are not supported in specs`);
}

/** A format that writes a float: `%e`, `{:g}`, ... */
export function unsupportedFormat(span: Span, what: string): SpecError {
  return err('SPEC003', span, `${what} formats a float, and floats are not supported in specs`);
}

/** A `yield` where the dialect cannot run it (`where`: 'inside an expression', 'in a lambda'). */
export function unsupportedYield(span: Span, where: string): SpecError {
  return err('SPEC003', span, `a 'yield' ${where} is not supported in specs`, [
    "write it as a statement of a function (yield x) or as an assignment's value (v = yield x)",
  ]);
}

/** A Python 2 builtin the dialect does not have (eval, open, type, ...). */
export function unsupportedBuiltin(span: Span, name: string, hint?: string): SpecError {
  return err('SPEC003', span, `the builtin ${name}() is not supported in specs`, hint ? [hint] : []);
}

export function unknownModule(span: Span, module: string): SpecError {
  return err('SPEC004', span, `unknown module '${module}'`, [
    'a spec may import z3, util (libirpy), datatypes (dt), helpers, base, types, copy, sys and __future__',
  ]);
}

export function unknownImportName(span: Span, module: string, name: string, suggestion?: string): SpecError {
  return err('SPEC004', span, `cannot import name '${name}' from '${module}'${didYouMean(suggestion && `'${suggestion}'`)}`);
}

export function unknownName(span: Span, name: string, suggestion?: string): SpecError {
  return err('SPEC005', span, `name '${name}' is not defined${didYouMean(suggestion && `'${suggestion}'`)}`);
}

export function unboundLocal(span: Span, name: string): SpecError {
  return err('SPEC005', span, `local variable '${name}' referenced before assignment`);
}

/** `owner` names the object ("module 'dt'", "a bit-vector"); `suggestion` is shown verbatim. */
export function unknownAttribute(span: Span, owner: string, attr: string, suggestion?: string): SpecError {
  return err('SPEC006', span, `${owner} has no attribute '${attr}'${didYouMean(suggestion)}`);
}

export function unknownField(span: Span, className: string, field: string, suggestion?: string): SpecError {
  return err('SPEC007', span, `${className} has no field '${field}'${didYouMean(suggestion && `'${suggestion}'`)}`);
}

export function tooManyIndices(span: Span, field: string, arity: number, got: number): SpecError {
  return err('SPEC008', span, `too many indices for ${field}: it takes ${arity}, got ${got}`);
}

export function tooFewIndices(span: Span, field: string, arity: number, got: number): SpecError {
  return err('SPEC008', span, `too few indices for ${field}: it takes ${arity}, got ${got}`);
}

export function notCallable(span: Span, typeName: string, hint?: string): SpecError {
  return err('SPEC009', span, `${typeName} is not callable`, hint ? [hint] : []);
}

export function argumentCount(span: Span, fn: string, expected: string, got: number): SpecError {
  return err('SPEC010', span, `${fn}() takes ${expected} but ${got} ${got === 1 ? 'was' : 'were'} given`);
}

export function badArgument(span: Span, message: string): SpecError {
  return err('SPEC010', span, message);
}

export function sortMismatch(span: Span, message: string, hint?: string): SpecError {
  return err('SPEC011', span, message, hint ? [hint] : []);
}

/** `where` is the construct: "'if'", "'and'", "'not'", ... */
export function symbolicBool(span: Span, where: string): SpecError {
  return err('SPEC012', span, `a symbolic expression cannot be used as a Python bool in ${where}`, [
    'Python if/and/or/not need concrete values; use util.If, z3.And, z3.Or or z3.Not on z3 terms',
    'z3py raises "Symbolic expressions cannot be cast to concrete Boolean values" here',
  ]);
}

export function iteOfPython(span: Span, typeName: string, context?: string): SpecError {
  const notes = [
    'util.If does not convert a plain Python int or bool in its first branch; write z3 terms such as ' +
      'z3.BitVecVal(k, sort), util.i64(k) or z3.BoolVal(b)',
  ];
  if (context) notes.unshift(context);
  return err('SPEC013', span, `Can not ite object of type ${typeName}`, notes);
}

export function missingEntry(span: Span, handler: string, names: readonly string[]): SpecError {
  const list = names.map((n) => `'${n}'`).join(' or ');
  return err('SPEC014', span, `no entry function for ${handler}: define ${list}`);
}

export function entryParams(span: Span, fn: string, expected: number, params: string, got: number): SpecError {
  return err('SPEC015', span, `${fn} must take ${expected} parameters (${params}) but takes ${got}`);
}

export function badReturn(span: Span, fn: string, what: string): SpecError {
  return err('SPEC016', span, `${fn} must return a pair (cond, state) but returned ${what}`);
}

export function divisionByZero(span: Span): SpecError {
  return err('SPEC017', span, 'integer division or modulo by zero');
}

export function stepLimit(span: Span, limit: number): SpecError {
  return err('SPEC018', span, `step limit of ${limit} exceeded`, [
    'the spec ran too long: look for unbounded recursion or a huge range()',
  ]);
}

/** The run's wall-clock limit (Limits.deadline), the same family as the step limit. */
export function timeLimit(span: Span, limitMs: number): SpecError {
  return err('SPEC018', span, `time limit of ${limitMs} ms exceeded`, ['the spec ran too long: look for a huge loop or recursion']);
}

export function depthLimit(span: Span, limit: number): SpecError {
  return err('SPEC019', span, `maximum recursion depth of ${limit} exceeded`);
}

export function nestingLimit(span: Span): SpecError {
  return err('SPEC019', span, 'code nested too deeply (more than 100 levels)');
}

export function typeError(span: Span, message: string, hint?: string): SpecError {
  return err('SPEC020', span, message, hint ? [hint] : []);
}

export function invalidWrite(span: Span, message: string, hint?: string): SpecError {
  return err('SPEC021', span, message, hint ? [hint] : []);
}

export function refcntMisuse(span: Span, message: string, hint?: string): SpecError {
  return err('SPEC022', span, message, hint ? [hint] : []);
}

export function valueError(span: Span, message: string, notes: string[] = []): SpecError {
  return err('SPEC023', span, message, notes);
}

export function indexOutOfRange(span: Span, typeName: string): SpecError {
  return err('SPEC024', span, `${typeName} index out of range`);
}

/** Python's IndexError or KeyError with its own message (`tuple index out of range`, `KeyError: 'name'`). */
export function lookupError(span: Span, message: string): SpecError {
  return err('SPEC024', span, message);
}

/** `next()` of an iterator that has nothing more (Python's StopIteration). */
export function exhausted(span: Span, what: string): SpecError {
  return err('SPEC032', span, `StopIteration: ${what} has no more items`, ['give next() a default, next(it, None), where the end is expected']);
}

export function unpackMismatch(span: Span, targets: number, values: number): SpecError {
  return err(
    'SPEC025',
    span,
    values > targets
      ? `too many values to unpack (expected ${targets}, got ${values})`
      : `not enough values to unpack (expected ${targets}, got ${values})`,
  );
}

export function structureError(span: Span, message: string): SpecError {
  return err('SPEC026', span, message);
}

export function assertionFailed(span: Span, message?: string): SpecError {
  return err('SPEC027', span, message ? `assertion failed: ${message}` : 'assertion failed');
}

export function intTooLarge(span: Span, bits: number): SpecError {
  return err('SPEC028', span, `integer too large (more than ${bits} bits)`);
}

export function accessorNotValue(span: Span, what: string, hint: string): SpecError {
  return err('SPEC029', span, `${what} is an accessor, not a value`, [hint]);
}

export function badRequest(message: string): SpecError {
  return err('SPEC030', TEXT_START, message);
}

export function quantifierRefuted(span: Span): SpecError {
  return err('SPEC031', span, 'the spec uses a quantifier (z3.ForAll, z3.Exists) and does not refine the implementation; its counterexample is the solver\'s, not replayed through the quantifier', [
    'a syscall spec states one step on the given arguments: write the condition and the new state without quantifiers ' +
      '(whole-map lambdas say "for every index")',
  ]);
}

export function internalError(span: Span, message: string): SpecError {
  return err('SPEC099', span, `internal error: ${message}`);
}

// ------------------------------------------------------------------ suggestions

/** Levenshtein distance, capped: returns max+1 as soon as it is exceeded. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The closest candidate to `name` (case-insensitive match first), or undefined. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestD = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const c of candidates) {
    if (c === name) continue;
    if (c.toLowerCase() === lower) return c;
    const d = distance(lower, c.toLowerCase(), bestD);
    if (d < bestD || (d === bestD && best === undefined)) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
