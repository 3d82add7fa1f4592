/**
 * The syntax tree of the spec dialect: the Python subset that hv6 specs use.
 * Every node carries the span of its source text. Nodes are tagged unions on
 * `kind`; passes switch over them exhaustively.
 */
import type { Span } from '../span.ts';

export interface Module {
  readonly kind: 'Module';
  readonly body: readonly Stmt[];
  readonly span: Span;
}

export type Stmt =
  | FunctionDef
  | Return
  | Assign
  | AugAssign
  | ExprStmt
  | If
  | Pass
  | Import
  | ImportFrom
  | Assert
  | Print;

export interface Param {
  /** The parameter's name; a tuple parameter's is `.N`, N its position (as Python 2 names it). */
  readonly name: string;
  readonly default?: Expr;
  /** `*args` collects the remaining positional arguments. */
  readonly star: boolean;
  /** Python 2's tuple parameter, `def f((a, b)):`: the argument is unpacked into these names. */
  readonly unpack?: TupleExpr;
  readonly span: Span;
}

/** Names a function or lambda binds locally (computed by `lint.ts`). */
export interface Scoped {
  locals?: ReadonlySet<string>;
}

export interface FunctionDef extends Scoped {
  readonly kind: 'FunctionDef';
  readonly name: string;
  readonly nameSpan: Span;
  readonly params: readonly Param[];
  readonly body: readonly Stmt[];
  readonly span: Span;
  /** A generator function: its body has a `yield` (computed by `lint.ts`). */
  generator?: boolean;
  /** Its body has `from m import *`, so its names are looked up as it runs (computed by `lint.ts`). */
  starImport?: boolean;
}

export interface Return {
  readonly kind: 'Return';
  readonly value?: Expr;
  readonly span: Span;
}

/** `a = b = value`: several targets, assigned left to right. */
export interface Assign {
  readonly kind: 'Assign';
  readonly targets: readonly Expr[];
  readonly value: Expr;
  readonly span: Span;
}

export type AugOp = '+' | '-' | '*' | '/' | '//' | '%' | '&' | '|' | '^' | '<<' | '>>' | '**';

export interface AugAssign {
  readonly kind: 'AugAssign';
  readonly target: Expr;
  readonly op: AugOp;
  /** `/=` is true division (`from __future__ import division`). */
  readonly trueDivision?: boolean;
  readonly value: Expr;
  readonly span: Span;
}

export interface ExprStmt {
  readonly kind: 'ExprStmt';
  readonly expr: Expr;
  readonly span: Span;
}

export interface If {
  readonly kind: 'If';
  readonly test: Expr;
  readonly body: readonly Stmt[];
  /** The `else` block; an `elif` is a nested If here. */
  readonly orelse: readonly Stmt[];
  readonly span: Span;
}

export interface Pass {
  readonly kind: 'Pass';
  readonly span: Span;
}

export interface ImportName {
  /** Dotted module path, e.g. ["hv6py", "kernel", "spec", "datatypes"]. */
  readonly module: readonly string[];
  readonly asname?: string;
  readonly span: Span;
}

/** `import a.b.c [as x], ...` */
export interface Import {
  readonly kind: 'Import';
  readonly names: readonly ImportName[];
  readonly span: Span;
}

export interface ImportAlias {
  readonly name: string;
  readonly asname?: string;
  readonly span: Span;
}

/** `from a.b import x [as y], ...` or `from a.b import *`. */
export interface ImportFrom {
  readonly kind: 'ImportFrom';
  readonly module: readonly string[];
  readonly moduleSpan: Span;
  /** '*' for a star import. */
  readonly names: readonly ImportAlias[] | '*';
  readonly span: Span;
}

export interface Assert {
  readonly kind: 'Assert';
  readonly test: Expr;
  readonly msg?: Expr;
  readonly span: Span;
}

/** Python 2's `print a, b` (and `print >>dest, a`): evaluates its values and prints nothing (specs have no output). */
export interface Print {
  readonly kind: 'Print';
  readonly dest?: Expr;
  readonly values: readonly Expr[];
  /** False after a trailing comma (`print a,`): no newline, the next print goes on the line. */
  readonly newline: boolean;
  readonly span: Span;
}

// ------------------------------------------------------------------ expressions

export type Expr =
  | Name
  | Constant
  | TupleExpr
  | ListExpr
  | Attribute
  | Subscript
  | Slice
  | Call
  | BinOp
  | UnaryOp
  | BoolOp
  | Compare
  | IfExp
  | Lambda
  | Comprehension
  | Starred
  | Repr
  | Yield;

export interface Name {
  readonly kind: 'Name';
  readonly id: string;
  readonly span: Span;
}

export interface Constant {
  readonly kind: 'Constant';
  /** A string is a byte string (one character 0-255 per byte) unless `literal` says unicode. */
  readonly value: bigint | boolean | null | string;
  /** A unicode literal (`u'...'`, its value is the text) or a long literal (`10L`). */
  readonly literal?: 'unicode' | 'long';
  readonly span: Span;
}

export interface TupleExpr {
  readonly kind: 'Tuple';
  readonly elts: readonly Expr[];
  readonly span: Span;
}

export interface ListExpr {
  readonly kind: 'List';
  readonly elts: readonly Expr[];
  readonly span: Span;
}

export interface Attribute {
  readonly kind: 'Attribute';
  readonly value: Expr;
  readonly attr: string;
  readonly attrSpan: Span;
  readonly span: Span;
}

export interface Subscript {
  readonly kind: 'Subscript';
  readonly value: Expr;
  /** `x[a, b]` has a Tuple index; `x[a:b]` a Slice. */
  readonly index: Expr;
  readonly span: Span;
}

export interface Slice {
  readonly kind: 'Slice';
  readonly lower?: Expr;
  readonly upper?: Expr;
  readonly step?: Expr;
  readonly span: Span;
}

export interface Keyword {
  readonly name: string;
  readonly value: Expr;
  readonly span: Span;
}

export interface Call {
  readonly kind: 'Call';
  readonly func: Expr;
  /** Positional arguments; a Starred one is unpacked. */
  readonly args: readonly Expr[];
  readonly keywords: readonly Keyword[];
  readonly span: Span;
}

export type BinaryOp = AugOp;

export interface BinOp {
  readonly kind: 'BinOp';
  readonly op: BinaryOp;
  /** `/` is true division (`from __future__ import division`). */
  readonly trueDivision?: boolean;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
  /** The operator token. */
  readonly opSpan: Span;
}

export interface UnaryOp {
  readonly kind: 'UnaryOp';
  readonly op: '-' | '+' | '~' | 'not';
  readonly operand: Expr;
  readonly span: Span;
}

export interface BoolOp {
  readonly kind: 'BoolOp';
  readonly op: 'and' | 'or';
  readonly values: readonly Expr[];
  readonly span: Span;
}

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'is' | 'is not' | 'in' | 'not in';

export interface Compare {
  readonly kind: 'Compare';
  readonly left: Expr;
  readonly ops: readonly CmpOp[];
  readonly comparators: readonly Expr[];
  readonly span: Span;
}

export interface IfExp {
  readonly kind: 'IfExp';
  readonly test: Expr;
  readonly body: Expr;
  readonly orelse: Expr;
  readonly span: Span;
}

export interface Lambda extends Scoped {
  readonly kind: 'Lambda';
  readonly params: readonly Param[];
  readonly body: Expr;
  readonly span: Span;
}

export interface ComprehensionFor {
  readonly target: Expr;
  readonly iter: Expr;
  readonly ifs: readonly Expr[];
}

/**
 * `[elt for ...]` (a list comprehension) or `(elt for ...)` (a generator
 * expression: an iterator that runs as it is read). As in Python 2, a list
 * comprehension binds its names in the enclosing scope, where they stay
 * bound after it (`locals` is undefined); a generator has a scope of its own.
 */
export interface Comprehension extends Scoped {
  readonly kind: 'Comprehension';
  readonly list: boolean;
  readonly elt: Expr;
  readonly generators: readonly ComprehensionFor[];
  readonly span: Span;
}

export interface Starred {
  readonly kind: 'Starred';
  readonly value: Expr;
  readonly span: Span;
}

/** Python 2's backquotes, `` `x` ``: repr(x). */
export interface Repr {
  readonly kind: 'Repr';
  readonly value: Expr;
  readonly span: Span;
}

/**
 * `yield x` (or a bare `yield`): a statement of its own, or the value of an
 * assignment (`v = yield x`, where v is None: nothing is ever sent).
 * Anywhere else the checker refuses it (SPEC003).
 */
export interface Yield {
  readonly kind: 'Yield';
  readonly value?: Expr;
  readonly span: Span;
}
