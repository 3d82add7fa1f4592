/**
 * The syntax tree of the kernel C subset. Every node carries a `CSpan`: the
 * file it came from and its position in that file's ORIGINAL text (not the
 * preprocessed text). Tokens produced by a macro expansion take the span of
 * the macro use, so a node built from them covers the use (for example the
 * whole `PTE_ADDR(pte)`), and rewriting the source by a node's span stays
 * meaningful.
 *
 * The tree is syntax only: names are not resolved and types are not
 * computed here (see `program.ts` and `check.ts`). The few functions at the
 * end answer questions about the tree's shape alone (what a declarator
 * declares), for the parser, the checker and the task generator alike.
 */
import { type Span, through } from '../span.ts';

/** A span in one source file. */
export interface CSpan extends Span {
  readonly file: string;
}

/** The span from the start of `a` to the end of `b` (both in one file, `b` not before `a`; else `a`). */
export function joinSpans(a: CSpan, b: CSpan): CSpan {
  return a.file !== b.file || b.endOffset < a.offset ? a : through(a, b);
}

// ------------------------------------------------------------------ expressions

export type BinaryOp =
  | '*' | '/' | '%' | '+' | '-' | '<<' | '>>'
  | '<' | '>' | '<=' | '>=' | '==' | '!='
  | '&' | '^' | '|';

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '^=' | '|=';

export interface IntLit {
  readonly kind: 'int';
  readonly span: CSpan;
  readonly value: bigint;
  /** Source spelling, e.g. `0x1UL`. */
  readonly text: string;
  readonly decimal: boolean;
  readonly unsigned: boolean;
  /** 0: no L suffix, 1: L, 2: LL. */
  readonly longs: 0 | 1 | 2;
}

export interface CharLit {
  readonly kind: 'char';
  readonly span: CSpan;
  readonly value: bigint;
  readonly text: string;
}

export interface StringLit {
  readonly kind: 'string';
  readonly span: CSpan;
  readonly value: string;
}

export interface Ident {
  readonly kind: 'ident';
  readonly span: CSpan;
  readonly name: string;
}

export interface Paren {
  readonly kind: 'paren';
  readonly span: CSpan;
  readonly inner: Expr;
}

export interface Unary {
  readonly kind: 'unary';
  readonly span: CSpan;
  readonly op: '-' | '+' | '!' | '~';
  readonly operand: Expr;
}

/** `&e` */
export interface AddrOf {
  readonly kind: 'addr';
  readonly span: CSpan;
  readonly operand: Expr;
}

/** `*e` */
export interface Deref {
  readonly kind: 'deref';
  readonly span: CSpan;
  readonly operand: Expr;
}

/** `++e`, `--e`, `e++`, `e--` */
export interface IncDec {
  readonly kind: 'incdec';
  readonly span: CSpan;
  readonly op: '++' | '--';
  readonly prefix: boolean;
  readonly operand: Expr;
}

export interface Binary {
  readonly kind: 'binary';
  readonly span: CSpan;
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

/** `&&` and `||` (short-circuit). */
export interface Logical {
  readonly kind: 'logical';
  readonly span: CSpan;
  readonly op: '&&' | '||';
  readonly left: Expr;
  readonly right: Expr;
}

export interface Assign {
  readonly kind: 'assign';
  readonly span: CSpan;
  readonly op: AssignOp;
  readonly target: Expr;
  readonly value: Expr;
}

/** `test ? then : else` */
export interface Cond {
  readonly kind: 'cond';
  readonly span: CSpan;
  readonly test: Expr;
  readonly then: Expr;
  readonly else: Expr;
}

export interface Cast {
  readonly kind: 'cast';
  readonly span: CSpan;
  readonly type: TypeName;
  readonly operand: Expr;
}

export interface SizeofType {
  readonly kind: 'sizeof-type';
  readonly span: CSpan;
  readonly type: TypeName;
}

export interface SizeofExpr {
  readonly kind: 'sizeof-expr';
  readonly span: CSpan;
  readonly operand: Expr;
}

/** `object.name` or `object->name` */
export interface Member {
  readonly kind: 'member';
  readonly span: CSpan;
  readonly object: Expr;
  readonly name: string;
  readonly nameSpan: CSpan;
  readonly arrow: boolean;
}

export interface Index {
  readonly kind: 'index';
  readonly span: CSpan;
  readonly object: Expr;
  readonly index: Expr;
}

export interface Call {
  readonly kind: 'call';
  readonly span: CSpan;
  readonly callee: Ident;
  readonly args: readonly Expr[];
}

export type Expr =
  | IntLit | CharLit | StringLit | Ident | Paren | Unary | AddrOf | Deref | IncDec
  | Binary | Logical | Assign | Cond | Cast | SizeofType | SizeofExpr | Member | Index | Call;

// ------------------------------------------------------------------ types and declarations

/** `__attribute__((name(args)))`; arguments kept as expressions. */
export interface Attribute {
  readonly span: CSpan;
  readonly name: string;
  readonly args: readonly Expr[];
}

export interface BuiltinTypeSpec {
  readonly kind: 'builtin';
  readonly span: CSpan;
  /** The keywords as written, e.g. ['unsigned', 'long']. */
  readonly words: readonly string[];
}

export interface TypedefNameSpec {
  readonly kind: 'typedef-name';
  readonly span: CSpan;
  readonly name: string;
}

export interface StructSpec {
  readonly kind: 'struct';
  readonly span: CSpan;
  readonly union: boolean;
  readonly tag?: string;
  /** Undefined for a reference (`struct proc`), defined for a definition. */
  readonly members?: readonly MemberDecl[];
  readonly attributes: readonly Attribute[];
}

export interface EnumSpec {
  readonly kind: 'enum';
  readonly span: CSpan;
  readonly tag?: string;
  readonly enumerators?: readonly Enumerator[];
}

export type TypeSpec = BuiltinTypeSpec | TypedefNameSpec | StructSpec | EnumSpec;

export interface Enumerator {
  readonly span: CSpan;
  readonly name: string;
  readonly value?: Expr;
}

export interface MemberDecl {
  readonly span: CSpan;
  readonly specs: DeclSpecs;
  readonly declarators: readonly MemberDeclarator[];
}

export interface MemberDeclarator {
  readonly span: CSpan;
  /** Absent for an anonymous struct member (`struct { ... };`). */
  readonly declarator?: Declarator;
  readonly bitWidth?: Expr;
  readonly attributes: readonly Attribute[];
}

export interface DeclSpecs {
  readonly span: CSpan;
  readonly storage?: 'typedef' | 'static' | 'extern' | 'register' | 'auto';
  readonly inline: boolean;
  readonly noreturn: boolean;
  readonly constQ: boolean;
  readonly volatileQ: boolean;
  readonly type: TypeSpec;
  readonly attributes: readonly Attribute[];
}

/**
 * C's inside-out declarator syntax as a chain: the type of the declared
 * name is obtained by applying each layer to the base type, outermost
 * first (`*a[3]` is pointer(array(name))).
 */
export type Declarator =
  | { readonly kind: 'name'; readonly span: CSpan; readonly name?: string }
  | { readonly kind: 'pointer'; readonly span: CSpan; readonly inner: Declarator }
  | { readonly kind: 'array'; readonly span: CSpan; readonly inner: Declarator; readonly size?: Expr }
  | {
      readonly kind: 'function';
      readonly span: CSpan;
      readonly inner: Declarator;
      readonly params: readonly ParamDecl[];
      readonly variadic: boolean;
    };

export interface ParamDecl {
  readonly span: CSpan;
  readonly specs: DeclSpecs;
  readonly declarator: Declarator;
}

/** A type in a cast or `sizeof(type)`. */
export interface TypeName {
  readonly kind: 'type-name';
  readonly span: CSpan;
  readonly specs: DeclSpecs;
  readonly declarator: Declarator;
}

export interface InitDeclarator {
  readonly span: CSpan;
  readonly declarator: Declarator;
  readonly init?: Expr;
  readonly attributes: readonly Attribute[];
}

/** Any declaration: typedef, variable(s), prototype, or a lone struct/enum definition. */
export interface Declaration {
  readonly kind: 'declaration';
  readonly span: CSpan;
  readonly specs: DeclSpecs;
  readonly declarators: readonly InitDeclarator[];
}

export interface FunctionDef {
  readonly kind: 'function-def';
  readonly span: CSpan;
  readonly specs: DeclSpecs;
  readonly declarator: Declarator;
  readonly body: Block;
}

export interface StaticAssert {
  readonly kind: 'static-assert';
  readonly span: CSpan;
  readonly test: Expr;
  readonly message?: string;
}

export type TopLevel = Declaration | FunctionDef | StaticAssert;

export interface TranslationUnit {
  /** The path of the .c file. */
  readonly file: string;
  readonly items: readonly TopLevel[];
}

// ------------------------------------------------------------------ statements

export interface Block {
  readonly kind: 'block';
  readonly span: CSpan;
  readonly items: readonly Stmt[];
}

export interface ExprStmt {
  readonly kind: 'expr';
  readonly span: CSpan;
  readonly expr: Expr;
}

export interface If {
  readonly kind: 'if';
  readonly span: CSpan;
  readonly test: Expr;
  readonly then: Stmt;
  readonly else?: Stmt;
}

export interface For {
  readonly kind: 'for';
  readonly span: CSpan;
  readonly init?: Declaration | ExprStmt;
  readonly test?: Expr;
  readonly step?: Expr;
  readonly body: Stmt;
}

export interface Return {
  readonly kind: 'return';
  readonly span: CSpan;
  readonly value?: Expr;
}

export interface Break {
  readonly kind: 'break';
  readonly span: CSpan;
}

export interface Continue {
  readonly kind: 'continue';
  readonly span: CSpan;
}

export interface Empty {
  readonly kind: 'empty';
  readonly span: CSpan;
}

export type Stmt = Block | ExprStmt | Declaration | If | For | Return | Break | Continue | Empty;

// ---------------------------------------------------------------- declarator queries

/** Whether a declarator declares a function (the layer right around the name is a parameter list). */
export function declaresFunction(d: Declarator): boolean {
  if (d.kind === 'name') return false;
  if (d.inner.kind === 'name') return d.kind === 'function';
  return declaresFunction(d.inner);
}

/** The name a declarator declares, if any. */
export function declaredName(d: Declarator): string | undefined {
  return d.kind === 'name' ? d.name : declaredName(d.inner);
}

/** The span of the name in a declarator (or the declarator's own span). */
export function declaredNameSpan(d: Declarator): CSpan {
  return d.kind === 'name' ? d.span : declaredNameSpan(d.inner);
}
