/**
 * Every diagnostic the C front end and the symbolic executor can produce,
 * built by the factories below. Codes are stable (docs/c-errors.md lists
 * them): C00x preprocessor, C01x lexer, C02x parser, C03x-C04x names and
 * types, C05x execution, C06x the executor's limits (limits.ts), and C064
 * execution again (the C05x codes ran out).
 */
import type { Diagnostic } from '../diagnostic.ts';
import { diagnosticText } from '../diagnostic-text.ts';
import { TEXT_START } from '../span.ts';
import type { CSpan } from './ast.ts';

/** A diagnostic about C source: the one `Diagnostic` shape, always with the file it is in. */
export interface CDiagnostic extends Diagnostic {
  readonly span: CSpan;
  readonly file: string;
}

/** Thrown inside the front end and the executor; the public API returns its diagnostic. */
export class CError extends Error {
  constructor(readonly diagnostic: CDiagnostic) {
    super(`${diagnostic.code} ${diagnostic.file}:${diagnostic.span.line}:${diagnostic.span.column}: ${diagnostic.message}`);
    this.name = 'CError';
  }

  toDiagnostic(): CDiagnostic {
    return this.diagnostic;
  }
}

function d(code: string, span: CSpan, message: string): CDiagnostic {
  return { code, severity: 'error', message, span, file: span.file };
}

/** Adds the terminal text (diagnostic-text.ts, with a code frame when the file's text is known). */
export function withDetail(diag: CDiagnostic, files: ReadonlyMap<string, string>): CDiagnostic {
  if (diag.detail !== undefined) return diag;
  return { ...diag, detail: diagnosticText(diag, { source: files.get(diag.file) }) };
}

/** A span for problems that have no better place (an empty file, an API misuse). */
export function nowhere(file: string): CSpan {
  return { file, ...TEXT_START };
}

// ------------------------------------------------------------------ preprocessor

export const includeNotFound = (span: CSpan, name: string) =>
  d('C001', span, `cannot find included file "${name}"`);
export const systemInclude = (span: CSpan, name: string) =>
  d('C002', span, `#include <${name}>: system headers are not part of the subset; include the kernel's own headers with "..."`);
export const conditionalMismatch = (span: CSpan, what: string) => d('C003', span, what);
export const badIfExpression = (span: CSpan, why: string) => d('C004', span, `bad #if expression: ${why}`);
export const badMacro = (span: CSpan, why: string) => d('C005', span, why);
export const unsupportedDirective = (span: CSpan, name: string) =>
  d('C006', span, `the directive #${name} is not supported`);
export const macroOperator = (span: CSpan, what: string) =>
  d('C007', span, `${what} is not supported in macros`);
export const errorDirective = (span: CSpan, text: string) => d('C008', span, `#error ${text}`.trim());
export const includeDepth = (span: CSpan, name: string) =>
  d('C009', span, `#include "${name}" nests too deeply (an include cycle without a guard?)`);

// ------------------------------------------------------------------ lexer

export const unexpectedChar = (span: CSpan, ch: string) =>
  d('C010', span, `unexpected character '${ch}'`);
export const unterminated = (span: CSpan, what: string) => d('C011', span, `unterminated ${what}`);
export const badNumber = (span: CSpan, text: string, why: string) =>
  d('C012', span, `bad number '${text}': ${why}`);
export const badLiteral = (span: CSpan, kind: 'character' | 'string', text: string, why: string) =>
  d('C012', span, `bad ${kind} literal ${text}: ${why}`);

// ------------------------------------------------------------------ parser

export const expected = (span: CSpan, what: string, found: string) =>
  d('C020', span, `expected ${what}, found ${found}`);
export const unsupportedStatement = (span: CSpan, what: string) =>
  d('C021', span, `${what} is not supported (the subset has if, for with a constant trip count, return, break and continue)`);
export const unsupportedSyntax = (span: CSpan, what: string) => d('C022', span, `${what} is not supported`);

// ------------------------------------------------------------------ names and types

export const undeclared = (span: CSpan, name: string) => d('C030', span, `'${name}' is not declared`);
export const typeMismatch = (span: CSpan, why: string) => d('C031', span, why);
export const noMember = (span: CSpan, type: string, name: string) =>
  d('C032', span, `${type} has no member named '${name}'`);
export const notLvalue = (span: CSpan, what: string) => d('C033', span, `${what} needs an assignable lvalue`);
export const bitFieldOperand = (span: CSpan, op: string, name: string) =>
  d('C033', span, `${op} cannot apply to the bit-field '${name}': a bit-field has no address or size of its own`);
export const conflict = (span: CSpan, why: string) => d('C034', span, why);
export const incompleteType = (span: CSpan, type: string) => d('C035', span, `${type} is incomplete here`);
export const globalInitializer = (span: CSpan, name: string) =>
  d('C036', span, `global '${name}' has an initializer; globals start from an arbitrary state, so initializers are not allowed`);
export const unsupportedType = (span: CSpan, what: string) => d('C037', span, `${what} is not supported`);
export const notConstant = (span: CSpan, what: string) => d('C038', span, `${what} must be an integer constant expression`);
export const enumOverflow = (span: CSpan, name: string, value: bigint, type: string) =>
  d('C038', span, `overflow in enumeration values: '${name}' would be ${value}, which ${type} cannot hold`);
export const enumRange = (span: CSpan) =>
  d('C038', span, 'enumeration values exceed the range of the largest integer type (some are negative, some past LONG_MAX)');
export const bitField = (span: CSpan, width: string) =>
  d('C039', span, `bit-field of width ${width}: only ': 64' on a 64-bit type is supported`);
export const pointerArithmetic = (span: CSpan) =>
  d('C040', span, 'pointer arithmetic is not supported; index an array instead');
export const structValue = (span: CSpan, type: string) =>
  d('C041', span, `a value of type ${type} cannot be used here; access its scalar fields instead`);
export const argCount = (span: CSpan, name: string, want: number, got: number) =>
  d('C042', span, `'${name}' takes ${want} argument${want === 1 ? '' : 's'}, got ${got}`);
export const addressOfLocal = (span: CSpan, name: string) =>
  d('C043', span, `cannot take the address of local '${name}'; pointers may only point into globals`);
export const staticAssertFailed = (span: CSpan, message: string) =>
  d('C044', span, `static assertion failed${message ? `: ${message}` : ''}`);
export const notAFunction = (span: CSpan, name: string) => d('C045', span, `'${name}' is not a function`);
export const voidValue = (span: CSpan) => d('C046', span, 'a void value is used');
export const undefinedReference = (span: CSpan, name: string, declared: string) =>
  d('C047', span, `undefined reference to '${name}': it is declared extern (at ${declared}) and no unit defines it, so the program does not link`);

// ------------------------------------------------------------------ execution

export const unknownFunction = (span: CSpan, name: string) =>
  d('C050', span, `call of '${name}', which has no body and is not a known built-in or hook`);
export const recursion = (span: CSpan, name: string) =>
  d('C051', span, `recursive call of '${name}'; the executor inlines calls, so recursion is not supported`);
export const loopBound = (span: CSpan) =>
  d('C052', span, 'the loop condition is not constant: a for loop needs a trip count that is constant after constant folding');
export const stepLimit = (span: CSpan, limit: number) =>
  d('C053', span, `execution exceeded ${limit} steps (a loop that does not end?)`);
export const loopLimit = (span: CSpan, limit: number) =>
  d('C053', span, `the loop ran more than ${limit} iterations (a loop that does not end?)`);
export const wholeObject = (span: CSpan, why: string) => d('C054', span, why);
export const stringDeref = (span: CSpan) =>
  d('C055', span, 'dereference of a string literal (only hooks such as panic may receive one)');
export const badPointer = (span: CSpan, why: string) => d('C056', span, why);
export const internal = (span: CSpan, why: string) => d('C057', span, `internal error: ${why}`);
export const noSuchFunction = (span: CSpan, name: string) => d('C058', span, `no function named '${name}' with a body`);
export const badArguments = (span: CSpan, why: string) => d('C059', span, why);
export const fallsOffEnd = (span: CSpan, name: string, type: string) =>
  d('C064', span, `control reaches the end of '${name}', which returns ${type}, without a return statement: give every path a return (gcc -Wall -Werror refuses it; the value would be undefined)`);

// ------------------------------------------------------------------ limits (limits.ts)

export const sourceTooDeep = (span: CSpan, limit: number) =>
  d('C022', span, `nesting deeper than ${limit} levels is not supported (a chain of that many operators counts as that deep; split it into statements)`);
export const callDepth = (span: CSpan, name: string, limit: number) =>
  d('C060', span, `calls nest deeper than ${limit} levels at the call of '${name}'`);
export const termTooLarge = (span: CSpan, limit: number) =>
  d('C061', span, `term too large: this builds a value more than ${limit} operations deep (a loop or a chain of branches that keeps growing one value or one array?)`);
export const tooManyPaths = (span: CSpan, limit: number) =>
  d('C062', span, `too many paths: more than ${limit} paths end in a return, break or continue (a loop with a return in its body?)`);
export const execTooDeep = (span: CSpan, limit: number) =>
  d('C063', span, `the executor nests deeper than ${limit} statements and expressions here (inlined calls included)`);
