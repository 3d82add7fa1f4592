/**
 * A recursive-descent parser for the kernel C subset: preprocessed tokens
 * to a `TranslationUnit`. It knows which identifiers are typedef names (to
 * tell a cast from a parenthesised expression) but resolves nothing else.
 * Constructs outside the subset that are easy to recognise (while, switch,
 * goto, the comma operator, initializer lists, ...) get their own error
 * codes; the first error stops the unit.
 */
import { startOf } from '../span.ts';
import {
  type Attribute,
  type Block,
  type CSpan,
  type Declaration,
  type DeclSpecs,
  type Declarator,
  type Enumerator,
  type Expr,
  type For,
  type FunctionDef,
  type InitDeclarator,
  type MemberDecl,
  type MemberDeclarator,
  type ParamDecl,
  type StaticAssert,
  type Stmt,
  type TopLevel,
  type TranslationUnit,
  type TypeName,
  type TypeSpec,
  type AssignOp,
  type BinaryOp,
  declaredName,
  declaresFunction,
  joinSpans,
} from './ast.ts';
import { type CDiagnostic, CError, badLiteral, badNumber, expected, sourceTooDeep, unsupportedStatement, unsupportedSyntax } from './errors.ts';
import { MAX_SOURCE_DEPTH, tooDeep } from './limits.ts';
import { type Token, charLiteral, decodeEscapes, intLiteral } from './lexer.ts';
import { BINARY_PRECEDENCE } from './precedence.ts';

const BUILTIN_TYPES = new Set(['void', 'char', 'short', 'int', 'long', 'signed', 'unsigned', '_Bool', 'float', 'double', '__int128']);
const QUALIFIERS = new Set(['const', 'volatile', 'restrict', '__restrict', '__restrict__', '__volatile__', '__const', '__const__']);
const STORAGE = new Set(['typedef', 'static', 'extern', 'register', 'auto']);
const FUNC_SPECS = new Set(['inline', '__inline', '__inline__', '_Noreturn']);
const ATTRIBUTE = new Set(['__attribute__', '__attribute']);
const UNSUPPORTED_STMTS = new Map([
  ['while', 'a while loop'],
  ['do', 'a do loop'],
  ['switch', 'a switch statement'],
  ['case', 'a case label'],
  ['default', 'a default label'],
  ['goto', 'goto'],
]);

/** Deeper nesting is refused before the JavaScript stack runs out. */
const MAX_DEPTH = MAX_SOURCE_DEPTH;

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);


export type ParseResult =
  | { readonly ok: true; readonly unit: TranslationUnit }
  | { readonly ok: false; readonly errors: CDiagnostic[] };

/** Parses the preprocessed tokens of the unit `file`. */
export function parse(file: string, tokens: readonly Token[]): ParseResult {
  const p = new Parser(tokens);
  try {
    return { ok: true, unit: { file, items: p.unit() } };
  } catch (e) {
    if (e instanceof CError) return { ok: false, errors: [e.diagnostic] };
    throw e;
  }
}

/** Parses one expression (for tests and tools); the tokens must end with `eof`. */
export function parseExpression(tokens: readonly Token[], typedefs: Iterable<string> = []): Expr {
  const p = new Parser(tokens);
  for (const t of typedefs) p.typedefs.add(t);
  return p.wholeExpression();
}

function describe(t: Token): string {
  return t.kind === 'eof' ? 'end of file' : `'${t.text}'`;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private prev: Token;
  readonly typedefs = new Set<string>();

  constructor(private readonly toks: readonly Token[]) {
    this.prev = toks[0];
  }

  // ---------------------------------------------------------------- token helpers

  private get tok(): Token {
    return this.toks[this.pos];
  }

  private peek(k = 1): Token {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)];
  }

  private next(): Token {
    const t = this.toks[this.pos];
    if (t.kind !== 'eof') this.pos++;
    this.prev = t;
    return t;
  }

  private is(text: string): boolean {
    const t = this.tok;
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }

  private expect(text: string, what = `'${text}'`): Token {
    if (this.is(text)) return this.next();
    if (this.tok.text === ',' && (text === ';' || text === ')')) {
      throw new CError(unsupportedSyntax(this.tok.span, 'the comma operator'));
    }
    throw new CError(expected(this.tok.span, what, describe(this.tok)));
  }

  private ident(what = 'an identifier'): Token {
    if (this.tok.kind === 'ident') return this.next();
    throw new CError(expected(this.tok.span, what, describe(this.tok)));
  }

  private from(start: Token): CSpan {
    return joinSpans(start.span, this.prev.span);
  }

  // ---------------------------------------------------------------- top level

  unit(): TopLevel[] {
    const items: TopLevel[] = [];
    while (this.tok.kind !== 'eof') {
      if (this.accept(';')) continue;
      const item = this.external();
      // The parser builds operator chains in loops, but the passes after it
      // recurse: refuse a tree deeper than the nesting the parser allows.
      const deep = tooDeep(item, MAX_DEPTH);
      if (deep) throw new CError(sourceTooDeep(deep, MAX_DEPTH));
      items.push(item);
    }
    return items;
  }

  wholeExpression(): Expr {
    const e = this.expression();
    if (this.tok.kind !== 'eof') throw new CError(expected(this.tok.span, 'end of expression', describe(this.tok)));
    return e;
  }

  private external(): TopLevel {
    const start = this.tok;
    if (this.is('_Static_assert')) return this.staticAssert();
    if (this.is('__extension__')) this.next();
    const specs = this.declSpecs(true);
    if (this.is(';')) {
      this.next();
      return { kind: 'declaration', span: this.from(start), specs, declarators: [] };
    }
    const declarator = this.declarator(false);
    const attrs = this.attributes();
    if (declaresFunction(declarator) && this.is('{')) {
      if (specs.storage === 'typedef') throw new CError(expected(this.tok.span, "';'", "'{'"));
      const body = this.block();
      const def: FunctionDef = { kind: 'function-def', span: this.from(start), specs, declarator, body };
      return def;
    }
    if (this.is('{')) throw new CError(unsupportedSyntax(this.tok.span, 'an old-style (K&R) function definition or a body after a non-function'));
    return this.declarationRest(start, specs, declarator, attrs);
  }

  private staticAssert(): StaticAssert {
    const start = this.next();
    this.expect('(');
    const test = this.assignment();
    let message: string | undefined;
    if (this.accept(',')) {
      if (this.tok.kind !== 'string') throw new CError(expected(this.tok.span, 'a string literal', describe(this.tok)));
      message = this.stringLit().value;
    }
    this.expect(')');
    this.expect(';');
    return { kind: 'static-assert', span: this.from(start), test, message };
  }

  /** The rest of a declaration after its first declarator. */
  private declarationRest(start: Token, specs: DeclSpecs, first: Declarator, firstAttrs: Attribute[]): Declaration {
    const declarators: InitDeclarator[] = [];
    let d = first;
    let attrs = firstAttrs;
    let dStart = first.span;
    for (;;) {
      let init: Expr | undefined;
      if (this.accept('=')) {
        if (this.is('{')) throw new CError(unsupportedSyntax(this.tok.span, 'an initializer list'));
        init = this.assignment();
      }
      attrs = [...attrs, ...this.attributes()];
      declarators.push({ span: joinSpans(dStart, this.prev.span), declarator: d, init, attributes: attrs });
      if (specs.storage === 'typedef') {
        const n = declaredName(d);
        if (n) this.typedefs.add(n);
      }
      if (!this.accept(',')) break;
      const s = this.tok;
      d = this.declarator(false);
      dStart = s.span;
      attrs = this.attributes();
    }
    this.expect(';');
    return { kind: 'declaration', span: this.from(start), specs, declarators };
  }

  // ---------------------------------------------------------------- declaration specifiers

  private startsType(t: Token = this.tok): boolean {
    if (t.kind !== 'ident') return false;
    return (
      BUILTIN_TYPES.has(t.text) ||
      QUALIFIERS.has(t.text) ||
      STORAGE.has(t.text) ||
      FUNC_SPECS.has(t.text) ||
      ATTRIBUTE.has(t.text) ||
      t.text === 'struct' || t.text === 'union' || t.text === 'enum' ||
      t.text === '_Bool' || t.text === '_Alignas' || t.text === '__extension__' ||
      this.typedefs.has(t.text)
    );
  }

  private declSpecs(allowStorage: boolean): DeclSpecs {
    const start = this.tok;
    let storage: DeclSpecs['storage'];
    let inline = false;
    let noreturn = false;
    let constQ = false;
    let volatileQ = false;
    const words: Token[] = [];
    let type: TypeSpec | undefined;
    const attributes: Attribute[] = [];
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'ident') break;
      const w = t.text;
      if (STORAGE.has(w)) {
        if (!allowStorage) throw new CError(unsupportedSyntax(t.span, `'${w}' here`));
        if (storage) throw new CError(unsupportedSyntax(t.span, 'two storage classes'));
        storage = w as DeclSpecs['storage'];
        this.next();
      } else if (FUNC_SPECS.has(w)) {
        if (w === '_Noreturn') noreturn = true;
        else inline = true;
        this.next();
      } else if (QUALIFIERS.has(w)) {
        if (w.includes('const')) constQ = true;
        if (w.includes('volatile')) volatileQ = true;
        this.next();
      } else if (ATTRIBUTE.has(w)) {
        attributes.push(...this.attributes());
      } else if (w === '__extension__') {
        this.next();
      } else if (w === '_Alignas') {
        throw new CError(unsupportedSyntax(t.span, '_Alignas'));
      } else if (BUILTIN_TYPES.has(w)) {
        if (type) throw new CError(expected(t.span, 'a declarator', describe(t)));
        words.push(this.next());
      } else if (w === 'struct' || w === 'union') {
        if (type || words.length) throw new CError(expected(t.span, 'a declarator', describe(t)));
        type = this.structSpec();
      } else if (w === 'enum') {
        if (type || words.length) throw new CError(expected(t.span, 'a declarator', describe(t)));
        type = this.enumSpec();
      } else if (this.typedefs.has(w) && !type && words.length === 0) {
        this.next();
        type = { kind: 'typedef-name', span: t.span, name: w };
      } else break;
    }
    if (!type) {
      if (words.length === 0) throw new CError(expected(this.tok.span, 'a type', describe(this.tok)));
      type = { kind: 'builtin', span: joinSpans(words[0].span, words[words.length - 1].span), words: words.map((x) => x.text) };
    }
    if (attributes.some((a) => a.name === 'noreturn' || a.name === '__noreturn__')) noreturn = true;
    return { span: this.from(start), storage, inline, noreturn, constQ, volatileQ, type, attributes };
  }

  private attributes(): Attribute[] {
    const out: Attribute[] = [];
    while (this.tok.kind === 'ident' && ATTRIBUTE.has(this.tok.text)) {
      this.next();
      this.expect('(');
      this.expect('(');
      while (!this.is(')')) {
        const start = this.tok;
        const name = this.tok.kind === 'ident' ? this.next().text : this.expect('an attribute name').text;
        const args: Expr[] = [];
        if (this.accept('(')) {
          if (!this.is(')')) {
            do args.push(this.assignment());
            while (this.accept(','));
          }
          this.expect(')');
        }
        out.push({ span: this.from(start), name, args });
        if (!this.accept(',')) break;
      }
      this.expect(')');
      this.expect(')');
    }
    return out;
  }

  private structSpec(): TypeSpec {
    const start = this.next();
    const union = start.text === 'union';
    const attributes = this.attributes();
    let tag: string | undefined;
    if (this.tok.kind === 'ident' && !ATTRIBUTE.has(this.tok.text)) tag = this.next().text;
    if (!this.is('{')) {
      if (!tag) throw new CError(expected(this.tok.span, "a struct tag or '{'", describe(this.tok)));
      return { kind: 'struct', span: this.from(start), union, tag, attributes };
    }
    this.next();
    const members: MemberDecl[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') throw new CError(expected(this.tok.span, "'}'", describe(this.tok)));
      if (this.accept(';')) continue;
      members.push(this.memberDecl());
    }
    this.expect('}');
    attributes.push(...this.attributes());
    return { kind: 'struct', span: this.from(start), union, tag, members, attributes };
  }

  private memberDecl(): MemberDecl {
    const start = this.tok;
    const specs = this.declSpecs(false);
    const declarators: MemberDeclarator[] = [];
    if (this.is(';')) {
      this.next();
      declarators.push({ span: specs.span, attributes: [] });
      return { span: this.from(start), specs, declarators };
    }
    for (;;) {
      const s = this.tok;
      let declarator: Declarator | undefined;
      if (!this.is(':')) declarator = this.declarator(false);
      let bitWidth: Expr | undefined;
      if (this.accept(':')) bitWidth = this.conditional();
      const attributes = this.attributes();
      declarators.push({ span: this.from(s), declarator, bitWidth, attributes });
      if (!this.accept(',')) break;
    }
    this.expect(';');
    return { span: this.from(start), specs, declarators };
  }

  private enumSpec(): TypeSpec {
    const start = this.next();
    this.attributes();
    let tag: string | undefined;
    if (this.tok.kind === 'ident') tag = this.next().text;
    if (!this.is('{')) {
      if (!tag) throw new CError(expected(this.tok.span, "an enum tag or '{'", describe(this.tok)));
      return { kind: 'enum', span: this.from(start), tag };
    }
    this.next();
    const enumerators: Enumerator[] = [];
    while (!this.is('}')) {
      const id = this.ident('an enumerator name');
      let value: Expr | undefined;
      if (this.accept('=')) value = this.conditional();
      enumerators.push({ span: this.from(id), name: id.text, value });
      if (!this.accept(',')) break;
    }
    this.expect('}');
    this.attributes();
    return { kind: 'enum', span: this.from(start), tag, enumerators };
  }

  // ---------------------------------------------------------------- declarators

  /** A declarator; `abstract` allows the name to be missing (type names, parameters). */
  private declarator(abstract: boolean): Declarator {
    const start = this.tok;
    if (this.accept('*')) {
      while (this.tok.kind === 'ident' && (QUALIFIERS.has(this.tok.text) || ATTRIBUTE.has(this.tok.text))) {
        if (ATTRIBUTE.has(this.tok.text)) this.attributes();
        else this.next();
      }
      const inner = this.nested(() => this.declarator(abstract));
      return { kind: 'pointer', span: this.from(start), inner };
    }
    let node: Declarator;
    // After its specifiers a declarator may name a typedef name again (`typedef int T; typedef int T;`).
    if (this.tok.kind === 'ident' && (!this.startsType() || (!abstract && this.typedefs.has(this.tok.text)))) {
      const id = this.next();
      node = { kind: 'name', span: id.span, name: id.text };
    } else if (this.is('(') && !(abstract && (this.peek().text === ')' || this.startsType(this.peek())))) {
      this.next();
      node = this.nested(() => this.declarator(abstract));
      this.expect(')');
    } else if (abstract) {
      node = { kind: 'name', span: startOf(this.tok.span) };
    } else {
      throw new CError(expected(this.tok.span, 'a name', describe(this.tok)));
    }
    for (;;) {
      if (this.accept('[')) {
        let size: Expr | undefined;
        if (!this.is(']')) size = this.assignment();
        this.expect(']');
        node = { kind: 'array', span: this.from(start), inner: node, size };
      } else if (this.is('(')) {
        this.next();
        const params: ParamDecl[] = [];
        let variadic = false;
        if (this.is('void') && this.peek().text === ')') this.next();
        else if (!this.is(')')) {
          for (;;) {
            if (this.accept('...')) {
              variadic = true;
              break;
            }
            const ps = this.tok;
            const specs = this.declSpecs(true);
            const d = this.declarator(true);
            this.attributes();
            params.push({ span: this.from(ps), specs, declarator: d });
            if (!this.accept(',')) break;
          }
        }
        this.expect(')');
        node = { kind: 'function', span: this.from(start), inner: node, params, variadic };
      } else break;
    }
    return node;
  }

  private typeName(): TypeName {
    const start = this.tok;
    const specs = this.declSpecs(false);
    const declarator = this.declarator(true);
    if (declaredName(declarator) !== undefined) {
      throw new CError(expected(declarator.span, "')'", `'${declaredName(declarator)}'`));
    }
    return { kind: 'type-name', span: this.from(start), specs, declarator };
  }

  // ---------------------------------------------------------------- statements

  block(): Block {
    const start = this.expect('{');
    const items: Stmt[] = [];
    while (!this.is('}')) {
      if (this.tok.kind === 'eof') throw new CError(expected(this.tok.span, "'}'", describe(this.tok)));
      items.push(this.statement());
    }
    this.next();
    return { kind: 'block', span: this.from(start), items };
  }

  private statement(): Stmt {
    if (++this.depth > MAX_DEPTH) throw new CError(unsupportedSyntax(this.tok.span, `nesting deeper than ${MAX_DEPTH} levels`));
    try {
      return this.statementInner();
    } finally {
      this.depth--;
    }
  }

  private statementInner(): Stmt {
    const t = this.tok;
    if (t.kind === 'punct') {
      if (t.text === '{') return this.block();
      if (t.text === ';') {
        this.next();
        return { kind: 'empty', span: t.span };
      }
    }
    if (t.kind === 'ident') {
      const unsupported = UNSUPPORTED_STMTS.get(t.text);
      if (unsupported) throw new CError(unsupportedStatement(t.span, unsupported));
      if (this.peek().text === ':' && !this.typedefs.has(t.text)) {
        throw new CError(unsupportedStatement(t.span, 'a label'));
      }
      switch (t.text) {
        case 'if': {
          this.next();
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          const then = this.statement();
          const els = this.accept('else') ? this.statement() : undefined;
          return { kind: 'if', span: this.from(t), test, then, else: els };
        }
        case 'for':
          return this.forStatement();
        case 'return': {
          this.next();
          const value = this.is(';') ? undefined : this.expression();
          this.expect(';');
          return { kind: 'return', span: this.from(t), value };
        }
        case 'break':
        case 'continue':
          this.next();
          this.expect(';');
          return { kind: t.text, span: this.from(t) };
        case 'asm':
        case '__asm__':
        case '__asm':
          throw new CError(unsupportedSyntax(t.span, 'inline assembly'));
        case '_Static_assert':
          throw new CError(unsupportedSyntax(t.span, '_Static_assert inside a function'));
      }
      if (this.startsType()) return this.localDeclaration();
    }
    const e = this.expression();
    this.expect(';');
    return { kind: 'expr', span: this.from(t), expr: e };
  }

  private localDeclaration(): Declaration {
    const start = this.tok;
    const specs = this.declSpecs(true);
    if (this.is(';')) {
      this.next();
      return { kind: 'declaration', span: this.from(start), specs, declarators: [] };
    }
    const d = this.declarator(false);
    return this.declarationRest(start, specs, d, this.attributes());
  }

  private forStatement(): For {
    const start = this.next();
    this.expect('(');
    let init: For['init'];
    if (this.startsType()) init = this.localDeclaration();
    else if (!this.accept(';')) {
      const s = this.tok;
      const e = this.expression();
      this.expect(';');
      init = { kind: 'expr', span: this.from(s), expr: e };
    }
    const test = this.is(';') ? undefined : this.expression();
    this.expect(';');
    const step = this.is(')') ? undefined : this.expression();
    this.expect(')');
    const body = this.statement();
    return { kind: 'for', span: this.from(start), init, test, step, body };
  }

  // ---------------------------------------------------------------- expressions

  /** An expression; C's comma operator is outside the subset. */
  expression(): Expr {
    const e = this.assignment();
    if (this.is(',')) throw new CError(unsupportedSyntax(this.tok.span, 'the comma operator'));
    return e;
  }

  /** Counts one level of nesting around `f` (see MAX_DEPTH). */
  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new CError(unsupportedSyntax(this.tok.span, `nesting deeper than ${MAX_DEPTH} levels`));
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private assignment(): Expr {
    const start = this.tok;
    const left = this.conditional();
    const t = this.tok;
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.next();
      const value = this.nested(() => this.assignment());
      return { kind: 'assign', span: this.from(start), op: t.text as AssignOp, target: left, value };
    }
    return left;
  }

  private conditional(): Expr {
    const start = this.tok;
    const test = this.binary(1);
    if (!this.accept('?')) return test;
    const then = this.expression();
    this.expect(':');
    const els = this.nested(() => this.conditional());
    return { kind: 'cond', span: this.from(start), test, then, else: els };
  }

  private binary(min: number): Expr {
    const start = this.tok;
    let left = this.castExpr();
    for (;;) {
      const t = this.tok;
      const p = t.kind === 'punct' ? BINARY_PRECEDENCE.get(t.text) : undefined;
      if (p === undefined || p < min) return left;
      this.next();
      const right = this.binary(p + 1);
      const span = this.from(start);
      if (t.text === '&&' || t.text === '||') left = { kind: 'logical', span, op: t.text, left, right };
      else left = { kind: 'binary', span, op: t.text as BinaryOp, left, right };
    }
  }

  private castExpr(): Expr {
    // Every level of nesting (parentheses, unary operators, statements) passes here or through statement().
    if (++this.depth > MAX_DEPTH) throw new CError(unsupportedSyntax(this.tok.span, `nesting deeper than ${MAX_DEPTH} levels`));
    try {
      return this.castExprInner();
    } finally {
      this.depth--;
    }
  }

  private castExprInner(): Expr {
    const start = this.tok;
    if (this.is('(') && this.startsType(this.peek())) {
      this.next();
      const type = this.typeName();
      this.expect(')');
      if (this.is('{')) throw new CError(unsupportedSyntax(this.tok.span, 'a compound literal'));
      const operand = this.castExpr();
      return { kind: 'cast', span: this.from(start), type, operand };
    }
    return this.unary();
  }

  private unary(): Expr {
    const t = this.tok;
    if (t.kind === 'punct') {
      switch (t.text) {
        case '++':
        case '--': {
          this.next();
          const operand = this.nested(() => this.unary());
          return { kind: 'incdec', span: this.from(t), op: t.text, prefix: true, operand };
        }
        case '&': {
          this.next();
          const operand = this.castExpr();
          return { kind: 'addr', span: this.from(t), operand };
        }
        case '*': {
          this.next();
          const operand = this.castExpr();
          return { kind: 'deref', span: this.from(t), operand };
        }
        case '-':
        case '+':
        case '!':
        case '~': {
          this.next();
          const operand = this.castExpr();
          return { kind: 'unary', span: this.from(t), op: t.text, operand };
        }
        case '&&':
          throw new CError(unsupportedSyntax(t.span, 'taking the address of a label'));
      }
    }
    if (t.kind === 'ident' && t.text === 'sizeof') {
      this.next();
      if (this.is('(') && this.startsType(this.peek())) {
        this.next();
        const type = this.typeName();
        this.expect(')');
        return { kind: 'sizeof-type', span: this.from(t), type };
      }
      const operand = this.nested(() => this.unary());
      return { kind: 'sizeof-expr', span: this.from(t), operand };
    }
    if (t.kind === 'ident' && (t.text === '_Alignof' || t.text === '__alignof__' || t.text === '_Generic')) {
      throw new CError(unsupportedSyntax(t.span, t.text));
    }
    return this.postfix();
  }

  private postfix(): Expr {
    const start = this.tok;
    let e = this.primary();
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct') return e;
      switch (t.text) {
        case '[': {
          this.next();
          const index = this.expression();
          this.expect(']');
          e = { kind: 'index', span: this.from(start), object: e, index };
          break;
        }
        case '(': {
          if (e.kind !== 'ident') throw new CError(unsupportedSyntax(t.span, 'a call through an expression (function pointers)'));
          this.next();
          const args: Expr[] = [];
          if (!this.is(')')) {
            do args.push(this.assignment());
            while (this.accept(','));
          }
          this.expect(')');
          e = { kind: 'call', span: this.from(start), callee: e, args };
          break;
        }
        case '.':
        case '->': {
          this.next();
          const name = this.ident('a member name');
          e = { kind: 'member', span: this.from(start), object: e, name: name.text, nameSpan: name.span, arrow: t.text === '->' };
          break;
        }
        case '++':
        case '--':
          this.next();
          e = { kind: 'incdec', span: this.from(start), op: t.text, prefix: false, operand: e };
          break;
        default:
          return e;
      }
    }
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'ident':
        if (this.startsType(t)) throw new CError(expected(t.span, 'an expression', describe(t)));
        this.next();
        return { kind: 'ident', span: t.span, name: t.text };
      case 'number': {
        this.next();
        const lit = intLiteral(t.text);
        if (!lit.ok) throw new CError(badNumber(t.span, t.text, lit.why));
        return { kind: 'int', span: t.span, value: lit.value, text: t.text, decimal: lit.decimal, unsigned: lit.unsigned, longs: lit.longs };
      }
      case 'char': {
        this.next();
        const c = charLiteral(t.text);
        if (!c.ok) throw new CError(badLiteral(t.span, 'character', t.text, c.why));
        // Plain char is signed: '\xff' is -1.
        const v = c.byte >= 128 ? BigInt(c.byte - 256) : BigInt(c.byte);
        return { kind: 'char', span: t.span, value: v, text: t.text };
      }
      case 'string':
        return this.stringLit();
      case 'punct':
        if (t.text === '(') {
          this.next();
          if (this.is('{')) throw new CError(unsupportedSyntax(this.tok.span, 'a statement expression'));
          const inner = this.expression();
          this.expect(')');
          return { kind: 'paren', span: this.from(t), inner };
        }
    }
    throw new CError(expected(t.span, 'an expression', describe(t)));
  }

  private stringLit(): Expr & { kind: 'string' } {
    const start = this.tok;
    let value = '';
    while (this.tok.kind === 'string') {
      const t = this.next();
      const cs = decodeEscapes(t.text.slice(1, -1));
      if (!cs.ok) throw new CError(badLiteral(t.span, 'string', t.text, cs.why));
      value += String.fromCharCode(...cs.bytes);
    }
    return { kind: 'string', span: this.from(start), value };
  }
}
