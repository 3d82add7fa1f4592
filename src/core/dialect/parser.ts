/**
 * Recursive-descent parser for the spec dialect, following Python 2's
 * grammar (hv6's specs are Python 2: the print statement, backquotes) for
 * the constructs specs use. Constructs outside the dialect
 * (loops, classes, try, ...) are recognised and rejected with SPEC003 so the
 * user learns what to write instead; everything else that does not fit the
 * grammar is a SPEC002 naming what was expected.
 */
import { type Span, cover } from '../span.ts';
import type * as A from './ast.ts';
import { expectedError, nestingLimit, syntaxError, unsupportedConstruct } from './errors.ts';
import { leadingFeatures } from './future.ts';
import { lex } from './lexer.ts';
import { type Token, describeToken } from './tokens.ts';

/**
 * Parses a whole spec file. Throws SpecError. The future statements at its
 * top decide how the rest reads (future.ts): the text is tokenised again
 * when they turn on print_function or unicode_literals.
 */
export function parseModule(source: string): A.Module {
  let tokens = lex(source);
  const features = leadingFeatures(tokens);
  const printFunction = features.has('print_function');
  const unicodeLiterals = features.has('unicode_literals');
  if (printFunction || unicodeLiterals) tokens = lex(source, { printFunction, unicodeLiterals });
  return new Parser(tokens, features.has('division')).module();
}

const MAX_NESTING = 100;

// Maps, not object literals: a word such as 'constructor' must find nothing.
const AUG_OPS: ReadonlyMap<string, A.AugOp> = new Map([
  ['+=', '+'], ['-=', '-'], ['*=', '*'], ['/=', '/'], ['//=', '//'], ['%=', '%'], ['&=', '&'], ['|=', '|'],
  ['^=', '^'], ['<<=', '<<'], ['>>=', '>>'], ['**=', '**'],
]);

const UNSUPPORTED_STMT: ReadonlyMap<string, string> = new Map([
  ['class', 'class definitions'],
  ['while', "'while' loops"],
  ['for', "'for' loops"],
  ['try', "'try' statements"],
  ['with', "'with' statements"],
  ['global', "'global' declarations"],
  ['nonlocal', "'nonlocal' declarations"],
  ['del', "'del' statements"],
  ['raise', "'raise' statements"],
  ['async', 'async functions'],
  ['await', "'await' expressions"],
  ['break', "'break' statements"],
  ['continue', "'continue' statements"],
  ['exec', "'exec' statements"],
]);

/** How 'cannot assign to ...' names an expression that is no target. */
const NOT_ASSIGNABLE: ReadonlyMap<string, string> = new Map(Object.entries({
  Call: 'function call', Constant: 'literal', BinOp: 'expression', UnaryOp: 'expression',
  BoolOp: 'expression', Compare: 'comparison', Lambda: 'lambda', IfExp: 'conditional expression',
  Comprehension: 'comprehension', Starred: 'starred expression', Slice: 'slice', Repr: 'repr',
} satisfies Partial<Record<A.Expr['kind'], string>>));

const UNSUPPORTED_HINT: ReadonlyMap<string, string> = new Map([
  ['while', 'state effects with util.If and whole-map lambdas instead of loops'],
  ['for', 'state effects with util.If and whole-map lambdas instead of loops'],
  ['raise', 'a spec expresses failure through its condition, not exceptions'],
  ['try', 'a spec expresses failure through its condition, not exceptions'],
]);

class Parser {
  private pos = 0;
  private nesting = 0;

  constructor(
    private readonly toks: Token[],
    /** `/` is true division (`from __future__ import division`). */
    private readonly trueDivision = false,
  ) {}

  // -------------------------------------------------------------- token helpers

  private get tok(): Token {
    return this.toks[this.pos];
  }

  /** Like `tok.kind === kind`, without TypeScript narrowing `tok` across `next()`. */
  private at(kind: Token['kind']): boolean {
    return this.toks[this.pos].kind === kind;
  }

  private peek(k = 1): Token {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)];
  }

  private next(): Token {
    const t = this.toks[this.pos];
    if (this.pos < this.toks.length - 1) this.pos++;
    return t;
  }

  private isOp(v: string, t = this.tok): boolean {
    return t.kind === 'op' && t.value === v;
  }

  private isKw(v: string, t = this.tok): boolean {
    return t.kind === 'keyword' && t.value === v;
  }

  private eatOp(v: string): boolean {
    if (this.isOp(v)) {
      this.next();
      return true;
    }
    return false;
  }

  private expectOp(v: string, what = `'${v}'`): Token {
    if (!this.isOp(v)) throw this.expected(what);
    return this.next();
  }

  private expectKw(v: string): Token {
    if (!this.isKw(v)) throw this.expected(`'${v}'`);
    return this.next();
  }

  private expectName(what = 'a name'): Token {
    if (this.tok.kind !== 'name') throw this.expected(what);
    return this.next();
  }

  private expected(what: string) {
    const t = this.tok;
    if (t.kind === 'indent') return syntaxError(t.span, 'unexpected indent');
    return expectedError(t.span, what, describeToken(t));
  }

  private prevEnd(): Span {
    return this.toks[Math.max(0, this.pos - 1)].span;
  }

  private from(start: Span): Span {
    return cover(start, this.prevEnd());
  }

  private enter(span: Span): void {
    if (++this.nesting > MAX_NESTING) throw nestingLimit(span);
  }

  private leave(): void {
    this.nesting--;
  }

  // -------------------------------------------------------------- statements

  module(): A.Module {
    const body: A.Stmt[] = [];
    const start = this.tok.span;
    while (this.tok.kind !== 'eof') {
      if (this.tok.kind === 'newline') {
        this.next();
        continue;
      }
      body.push(...this.statement());
    }
    return { kind: 'Module', body, span: this.from(start) };
  }

  /** One statement line (simple statements separated by ';') or one compound statement. */
  private statement(): A.Stmt[] {
    const t = this.tok;
    if (t.kind === 'indent') throw syntaxError(t.span, 'unexpected indent');
    if (t.kind === 'keyword') {
      if (t.value === 'def') return [this.funcDef()];
      if (t.value === 'if') return [this.ifStmt()];
      const unsupported = UNSUPPORTED_STMT.get(t.value);
      if (unsupported) throw unsupportedConstruct(t.span, unsupported, UNSUPPORTED_HINT.get(t.value));
      if (t.value === 'elif' || t.value === 'else') throw syntaxError(t.span, `'${t.value}' without a matching 'if'`);
      if (t.value === 'except' || t.value === 'finally') throw unsupportedConstruct(t.span, "'try' statements");
    }
    if (this.isOp('@')) throw unsupportedConstruct(t.span, 'decorators');
    const out = [this.simpleStatement()];
    while (this.eatOp(';')) {
      if (this.tok.kind === 'newline') break;
      out.push(this.simpleStatement());
    }
    if (this.tok.kind !== 'newline') throw this.expected('end of line');
    this.next();
    return out;
  }

  private simpleStatement(): A.Stmt {
    const t = this.tok;
    if (t.kind === 'keyword') {
      switch (t.value) {
        case 'pass':
          this.next();
          return { kind: 'Pass', span: t.span };
        case 'return': {
          this.next();
          if (this.tok.kind === 'newline' || this.isOp(';')) return { kind: 'Return', span: t.span };
          const value = this.testList();
          return { kind: 'Return', value, span: this.from(t.span) };
        }
        case 'print':
          return this.printStmt();
        case 'import':
          return this.importStmt();
        case 'from':
          return this.fromImport();
        case 'assert': {
          this.next();
          const test = this.test();
          const msg = this.eatOp(',') ? this.test() : undefined;
          return { kind: 'Assert', test, msg, span: this.from(t.span) };
        }
        default:
          const unsupported = UNSUPPORTED_STMT.get(t.value);
          if (unsupported) throw unsupportedConstruct(t.span, unsupported, UNSUPPORTED_HINT.get(t.value));
      }
    }
    return this.exprStatement();
  }

  /** Python 2's print statement: `print`, `print a, b,` or `print >>dest, a`. */
  private printStmt(): A.Print {
    const start = this.next().span;
    let dest: A.Expr | undefined;
    const values: A.Expr[] = [];
    const atEnd = () => this.tok.kind === 'newline' || this.tok.kind === 'eof' || this.isOp(';');
    const done = (newline: boolean): A.Print => ({ kind: 'Print', dest, values, newline, span: this.from(start) });
    if (this.eatOp('>>')) {
      dest = this.test();
      if (!this.eatOp(',')) return done(true);
      // `print >>f,` needs a value after the comma.
      values.push(this.test());
      if (!this.eatOp(',')) return done(true);
      if (atEnd()) return done(false);
    }
    while (!atEnd()) {
      values.push(this.test());
      if (!this.eatOp(',')) return done(true);
    }
    return done(values.length === 0);
  }

  /** `yield [testlist]`, at the keyword. */
  private yieldExpr(): A.Yield {
    const start = this.next().span;
    const value = this.atExprEnd() || this.isOp(')') ? undefined : this.testList();
    return { kind: 'Yield', value, span: this.from(start) };
  }

  /** The right of `=`: a yield or a test list. */
  private assignedValue(): A.Expr {
    return this.isKw('yield') ? this.yieldExpr() : this.testList(true);
  }

  private exprStatement(): A.Stmt {
    const start = this.tok.span;
    if (this.isKw('yield')) {
      const y = this.yieldExpr();
      return { kind: 'ExprStmt', expr: y, span: this.from(start) };
    }
    const first = this.testList(true);
    const t = this.tok;
    const aug = t.kind === 'op' ? AUG_OPS.get(t.value) : undefined;
    if (aug) {
      this.next();
      this.checkTarget(first, true);
      const value = this.testList();
      return { kind: 'AugAssign', target: first, op: aug, value, span: this.from(start), ...(aug === '/' && this.trueDivision ? { trueDivision: true } : {}) };
    }
    if (this.isOp(':')) {
      throw unsupportedConstruct(t.span, 'variable annotations');
    }
    if (this.isOp(':=')) throw unsupportedConstruct(t.span, "assignment expressions ':='");
    if (!this.isOp('=')) {
      if (first.kind === 'Starred') throw syntaxError(first.span, "can't use starred expression here");
      return { kind: 'ExprStmt', expr: first, span: this.from(start) };
    }
    const targets: A.Expr[] = [first];
    let value: A.Expr = first;
    while (this.eatOp('=')) {
      value = this.assignedValue();
      targets.push(value);
    }
    targets.pop();
    for (const tg of targets) this.checkTarget(tg, false);
    return { kind: 'Assign', targets, value, span: this.from(start) };
  }

  /** Rejects what Python refuses to assign to (`f() = 1`, `1 = x`, ...). */
  private checkTarget(e: A.Expr, aug: boolean): void {
    switch (e.kind) {
      case 'Name':
      case 'Attribute':
      case 'Subscript':
        return;
      case 'Tuple':
      case 'List':
        if (aug) throw syntaxError(e.span, `'${e.kind.toLowerCase()}' is an illegal expression for augmented assignment`);
        for (const x of e.elts) {
          if (x.kind === 'Starred') throw unsupportedConstruct(x.span, 'starred assignment targets');
          this.checkTarget(x, false);
        }
        return;
      default: {
        throw syntaxError(e.span, `cannot assign to ${NOT_ASSIGNABLE.get(e.kind) ?? 'expression'}`);
      }
    }
  }

  private dotted(): { path: string[]; span: Span } {
    const first = this.expectName('a module name');
    const path = [first.value];
    while (this.eatOp('.')) path.push(this.expectName('a module name').value);
    return { path, span: this.from(first.span) };
  }

  private importStmt(): A.Import {
    const start = this.next().span;
    const names: A.ImportName[] = [];
    do {
      const { path, span } = this.dotted();
      let asname: string | undefined;
      if (this.isKw('as')) {
        this.next();
        asname = this.expectName().value;
      }
      names.push({ module: path, asname, span: asname ? this.from(span) : span });
    } while (this.eatOp(','));
    return { kind: 'Import', names, span: this.from(start) };
  }

  private fromImport(): A.ImportFrom {
    const start = this.next().span;
    if (this.isOp('.') || this.isOp('...')) throw unsupportedConstruct(this.tok.span, 'relative imports');
    const { path, span: moduleSpan } = this.dotted();
    this.expectKw('import');
    if (this.isOp('*')) {
      this.next();
      return { kind: 'ImportFrom', module: path, moduleSpan, names: '*', span: this.from(start) };
    }
    const paren = this.eatOp('(');
    const names: A.ImportAlias[] = [];
    for (;;) {
      const n = this.expectName('a name to import');
      let asname: string | undefined;
      if (this.isKw('as')) {
        this.next();
        asname = this.expectName().value;
      }
      names.push({ name: n.value, asname, span: this.from(n.span) });
      if (!this.eatOp(',')) break;
      if (paren && this.isOp(')')) break;
    }
    if (paren) this.expectOp(')');
    return { kind: 'ImportFrom', module: path, moduleSpan, names, span: this.from(start) };
  }

  private block(): A.Stmt[] {
    this.expectOp(':');
    if (!this.at('newline')) {
      // `if x: stmt` on one line
      const out = [this.simpleStatement()];
      while (this.eatOp(';')) {
        if (this.at('newline')) break;
        out.push(this.simpleStatement());
      }
      if (!this.at('newline')) throw this.expected('end of line');
      this.next();
      return out;
    }
    this.next();
    if (!this.at('indent')) throw expectedError(this.tok.span, 'an indented block', describeToken(this.tok));
    this.enter(this.tok.span);
    this.next();
    const body: A.Stmt[] = [];
    while (this.tok.kind !== 'dedent' && this.tok.kind !== 'eof') {
      if (this.tok.kind === 'newline') {
        this.next();
        continue;
      }
      body.push(...this.statement());
    }
    this.next();
    this.leave();
    return body;
  }

  private funcDef(): A.FunctionDef {
    const start = this.next().span;
    const name = this.expectName('a function name');
    this.expectOp('(');
    const params = this.params(')');
    this.expectOp(')');
    if (this.eatOp('->')) this.test(); // return annotation: parsed, ignored
    const body = this.block();
    return { kind: 'FunctionDef', name: name.value, nameSpan: name.span, params, body, span: this.from(start) };
  }

  /** Parameters up to `end` (')' for def, ':' for lambda). Annotations only in def. */
  private params(end: string): A.Param[] {
    const params: A.Param[] = [];
    const allowAnnotations = end === ')';
    while (!this.isOp(end)) {
      const t = this.tok;
      if (this.isOp('**')) throw unsupportedConstruct(t.span, "'**' keyword-argument parameters");
      const star = this.eatOp('*');
      if (star && (this.isOp(',') || this.isOp(end))) throw unsupportedConstruct(t.span, 'keyword-only parameters');
      if (this.isOp('/')) throw unsupportedConstruct(t.span, 'positional-only parameter markers');
      if (this.isOp('(') && !star) {
        // Python 2's tuple parameter: the argument is unpacked into the names.
        const unpack = this.paramTuple();
        let def: A.Expr | undefined;
        if (this.eatOp('=')) def = this.test();
        params.push({ name: `.${params.length}`, default: def, star: false, unpack, span: this.from(t.span) });
        if (!this.eatOp(',')) break;
        continue;
      }
      const n = this.expectName('a parameter name');
      if (allowAnnotations && this.eatOp(':')) this.test(); // annotation: parsed, ignored
      let def: A.Expr | undefined;
      if (this.eatOp('=')) {
        if (star) throw syntaxError(this.prevEnd(), "a '*' parameter cannot have a default value");
        def = this.test();
      }
      params.push({ name: n.value, default: def, star, span: this.from(t.span) });
      if (!this.eatOp(',')) break;
    }
    if (!this.isOp(end)) throw this.expected(`',' or '${end}'`);
    return params;
  }

  /** `(a, (b, c))` in a parameter list: names and nested tuples, at the '('. */
  private paramTuple(): A.TupleExpr {
    const open = this.next();
    this.enter(open.span);
    const elts: A.Expr[] = [];
    while (!this.isOp(')')) {
      if (this.isOp('(')) elts.push(this.paramTuple());
      else {
        const n = this.expectName('a parameter name');
        elts.push({ kind: 'Name', id: n.value, span: n.span });
      }
      if (!this.eatOp(',')) break;
    }
    this.expectOp(')', "',' or ')'");
    this.leave();
    return { kind: 'Tuple', elts, span: this.from(open.span) };
  }

  private ifStmt(): A.If {
    const start = this.next().span;
    const test = this.test();
    const body = this.block();
    let orelse: A.Stmt[] = [];
    if (this.isKw('elif')) {
      orelse = [this.ifStmt()];
    } else if (this.isKw('else')) {
      this.next();
      orelse = this.block();
    }
    return { kind: 'If', test, body, orelse, span: this.from(start) };
  }

  // -------------------------------------------------------------- expressions

  /** `a, b, c` (a tuple when there is a comma), allowing `*x` items when `star`. */
  private testList(star = false): A.Expr {
    const start = this.tok.span;
    const first = this.starOrTest(star);
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.eatOp(',')) {
      if (this.atExprEnd()) break;
      elts.push(this.starOrTest(star));
    }
    return { kind: 'Tuple', elts, span: this.from(start) };
  }

  private atExprEnd(): boolean {
    const t = this.tok;
    if (t.kind === 'newline' || t.kind === 'eof') return true;
    return t.kind === 'op' && (t.value === '=' || t.value === ')' || t.value === ']' || t.value === ';' || AUG_OPS.has(t.value));
  }

  private starOrTest(allowStar: boolean): A.Expr {
    if (this.isOp('*')) {
      const t = this.next();
      const value = this.expr();
      if (!allowStar) throw syntaxError(t.span, "can't use starred expression here");
      return { kind: 'Starred', value, span: this.from(t.span) };
    }
    return this.test();
  }

  private test(): A.Expr {
    if (this.isKw('lambda')) return this.lambda();
    const start = this.tok.span;
    this.enter(start);
    const body = this.orTest();
    if (this.isKw('if')) {
      this.next();
      const test = this.orTest();
      this.expectKw('else');
      const orelse = this.test();
      this.leave();
      return { kind: 'IfExp', test, body, orelse, span: this.from(start) };
    }
    this.leave();
    return body;
  }

  private lambda(): A.Lambda {
    const start = this.next().span;
    this.enter(start);
    const params = this.params(':');
    this.expectOp(':');
    const body = this.test();
    this.leave();
    return { kind: 'Lambda', params, body, span: this.from(start) };
  }

  private orTest(): A.Expr {
    const start = this.tok.span;
    const first = this.andTest();
    if (!this.isKw('or')) return first;
    const values = [first];
    while (this.isKw('or')) {
      this.next();
      values.push(this.andTest());
    }
    return { kind: 'BoolOp', op: 'or', values, span: this.from(start) };
  }

  private andTest(): A.Expr {
    const start = this.tok.span;
    const first = this.notTest();
    if (!this.isKw('and')) return first;
    const values = [first];
    while (this.isKw('and')) {
      this.next();
      values.push(this.notTest());
    }
    return { kind: 'BoolOp', op: 'and', values, span: this.from(start) };
  }

  private notTest(): A.Expr {
    if (this.isKw('not')) {
      const t = this.next();
      this.enter(t.span);
      const operand = this.notTest();
      this.leave();
      return { kind: 'UnaryOp', op: 'not', operand, span: this.from(t.span) };
    }
    return this.comparison();
  }

  private compOp(): A.CmpOp | undefined {
    const t = this.tok;
    if (t.kind === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) {
      this.next();
      return t.value as A.CmpOp;
    }
    if (this.isOp('<>')) {
      // Python 2's other spelling of !=.
      this.next();
      return '!=';
    }
    if (this.isKw('in')) {
      this.next();
      return 'in';
    }
    if (this.isKw('not') && this.isKw('in', this.peek())) {
      this.next();
      this.next();
      return 'not in';
    }
    if (this.isKw('is')) {
      this.next();
      if (this.isKw('not')) {
        this.next();
        return 'is not';
      }
      return 'is';
    }
    return undefined;
  }

  private comparison(): A.Expr {
    const start = this.tok.span;
    const left = this.expr();
    const ops: A.CmpOp[] = [];
    const comparators: A.Expr[] = [];
    for (let op = this.compOp(); op; op = this.compOp()) {
      ops.push(op);
      comparators.push(this.expr());
    }
    if (ops.length === 0) return left;
    return { kind: 'Compare', left, ops, comparators, span: this.from(start) };
  }

  private binary(ops: readonly string[], sub: () => A.Expr): A.Expr {
    const start = this.tok.span;
    let left = sub();
    while (this.tok.kind === 'op' && ops.includes(this.tok.value)) {
      const opTok = this.next();
      const right = sub();
      const op = opTok.value as A.BinaryOp;
      left = { kind: 'BinOp', op, left, right, span: this.from(start), opSpan: opTok.span, ...(op === '/' && this.trueDivision ? { trueDivision: true } : {}) };
    }
    return left;
  }

  private expr(): A.Expr {
    return this.binary(['|'], () => this.xorExpr());
  }

  private xorExpr(): A.Expr {
    return this.binary(['^'], () => this.andExpr());
  }

  private andExpr(): A.Expr {
    return this.binary(['&'], () => this.shiftExpr());
  }

  private shiftExpr(): A.Expr {
    return this.binary(['<<', '>>'], () => this.arith());
  }

  private arith(): A.Expr {
    return this.binary(['+', '-'], () => this.term());
  }

  private term(): A.Expr {
    if (this.isOp('@')) throw unsupportedConstruct(this.tok.span, "'@' operators (matrix products, which Python 2 does not have)");
    const e = this.binary(['*', '/', '//', '%'], () => this.factor());
    if (this.isOp('@')) throw unsupportedConstruct(this.tok.span, "'@' operators (matrix products, which Python 2 does not have)");
    return e;
  }

  private factor(): A.Expr {
    const t = this.tok;
    if (t.kind === 'op' && (t.value === '-' || t.value === '+' || t.value === '~')) {
      this.next();
      this.enter(t.span);
      const operand = this.factor();
      this.leave();
      return { kind: 'UnaryOp', op: t.value as '-' | '+' | '~', operand, span: this.from(t.span) };
    }
    return this.power();
  }

  private power(): A.Expr {
    const start = this.tok.span;
    if (this.isKw('await')) throw unsupportedConstruct(this.tok.span, "'await' expressions");
    const base = this.atomExpr();
    if (this.isOp('**')) {
      const opTok = this.next();
      this.enter(opTok.span);
      const exp = this.factor();
      this.leave();
      return { kind: 'BinOp', op: '**', left: base, right: exp, span: this.from(start), opSpan: opTok.span };
    }
    return base;
  }

  private atomExpr(): A.Expr {
    const start = this.tok.span;
    let e = this.atom();
    for (;;) {
      if (this.isOp('(')) {
        this.next();
        this.enter(start);
        const { args, keywords } = this.arguments();
        this.leave();
        this.expectOp(')', "',' or ')'");
        e = { kind: 'Call', func: e, args, keywords, span: this.from(start) };
      } else if (this.isOp('[')) {
        this.next();
        this.enter(start);
        const index = this.subscriptList();
        this.leave();
        this.expectOp(']', "',' or ']'");
        e = { kind: 'Subscript', value: e, index, span: this.from(start) };
      } else if (this.isOp('.')) {
        this.next();
        const n = this.tok;
        if (n.kind !== 'name' && n.kind !== 'keyword') throw this.expected('an attribute name');
        this.next();
        e = { kind: 'Attribute', value: e, attr: n.value, attrSpan: n.span, span: this.from(start) };
      } else {
        return e;
      }
    }
  }

  private arguments(): { args: A.Expr[]; keywords: A.Keyword[] } {
    const args: A.Expr[] = [];
    const keywords: A.Keyword[] = [];
    while (!this.isOp(')')) {
      const t = this.tok;
      if (this.isOp('**')) throw unsupportedConstruct(t.span, "'**' keyword-argument unpacking");
      if (this.isOp('*')) {
        this.next();
        const value = this.test();
        if (keywords.length) throw syntaxError(t.span, 'iterable argument unpacking follows keyword argument');
        args.push({ kind: 'Starred', value, span: this.from(t.span) });
      } else if (t.kind === 'name' && this.isOp('=', this.peek())) {
        this.next();
        this.next();
        const value = this.test();
        keywords.push({ name: t.value, value, span: this.from(t.span) });
      } else {
        const value = this.test();
        if (this.isKw('for')) {
          const comp = this.comprehension(value, t.span, false);
          args.push(comp);
        } else {
          if (keywords.length) throw syntaxError(value.span, 'positional argument follows keyword argument');
          args.push(value);
        }
      }
      if (!this.eatOp(',')) break;
    }
    return { args, keywords };
  }

  private subscriptList(): A.Expr {
    const start = this.tok.span;
    const first = this.subscript();
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.eatOp(',')) {
      if (this.isOp(']')) break;
      elts.push(this.subscript());
    }
    return { kind: 'Tuple', elts, span: this.from(start) };
  }

  private subscript(): A.Expr {
    const start = this.tok.span;
    let lower: A.Expr | undefined;
    if (!this.isOp(':')) {
      lower = this.test();
      if (!this.isOp(':')) return lower;
    }
    this.next();
    let upper: A.Expr | undefined;
    let step: A.Expr | undefined;
    if (!this.isOp(']') && !this.isOp(',') && !this.isOp(':')) upper = this.test();
    if (this.eatOp(':') && !this.isOp(']') && !this.isOp(',')) step = this.test();
    return { kind: 'Slice', lower, upper, step, span: this.from(start) };
  }

  /** `` `x` ``, Python 2's repr(x). */
  private backquotes(): A.Repr {
    const open = this.next();
    this.enter(open.span);
    try {
      const value = this.testList();
      this.expectOp('`');
      return { kind: 'Repr', value, span: this.from(open.span) };
    } finally {
      this.leave();
    }
  }

  private comprehension(elt: A.Expr, start: Span, list: boolean): A.Comprehension {
    const generators: A.ComprehensionFor[] = [];
    while (this.isKw('for')) {
      this.next();
      const target = this.targetList();
      this.expectKw('in');
      const iter = this.orTest();
      const ifs: A.Expr[] = [];
      while (this.isKw('if')) {
        this.next();
        ifs.push(this.orTest());
      }
      generators.push({ target, iter, ifs });
    }
    if (this.isKw('async')) throw unsupportedConstruct(this.tok.span, 'async comprehensions');
    return { kind: 'Comprehension', list, elt, generators, span: this.from(start) };
  }

  /** The target of a comprehension's `for`: a name or a tuple of names. */
  private targetList(): A.Expr {
    const start = this.tok.span;
    const first = this.expr();
    if (!this.isOp(',')) {
      this.checkTarget(first, false);
      return first;
    }
    const elts = [first];
    while (this.eatOp(',')) {
      if (this.isKw('in')) break;
      elts.push(this.expr());
    }
    const t: A.Expr = { kind: 'Tuple', elts, span: this.from(start) };
    this.checkTarget(t, false);
    return t;
  }

  private atom(): A.Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'name':
        this.next();
        return { kind: 'Name', id: t.value, span: t.span };
      case 'number':
        this.next();
        return { kind: 'Constant', value: t.num!, ...(t.long ? { literal: 'long' as const } : {}), span: t.span };
      case 'string': {
        // Adjacent literals join; one unicode part makes the whole unicode (its byte parts must be ASCII).
        const parts: Token[] = [];
        const start = t.span;
        while (this.tok.kind === 'string') {
          const st = this.next();
          if (st.fstring) throw unsupportedConstruct(st.span, 'f-strings');
          parts.push(st);
        }
        if (!parts.some((p) => p.unicode)) return { kind: 'Constant', value: parts.map((p) => p.str!).join(''), span: this.from(start) };
        for (const p of parts) {
          if (!p.unicode && /[^\x00-\x7f]/.test(p.str!)) throw syntaxError(p.span, "(unicode error) 'ascii' codec can't decode a byte of this str literal, joined to a unicode literal");
        }
        return { kind: 'Constant', value: parts.map((p) => p.str!).join(''), literal: 'unicode', span: this.from(start) };
      }
      case 'keyword':
        if (t.value === 'True' || t.value === 'False') {
          this.next();
          return { kind: 'Constant', value: t.value === 'True', span: t.span };
        }
        if (t.value === 'None') {
          this.next();
          return { kind: 'Constant', value: null, span: t.span };
        }
        if (t.value === 'yield') throw syntaxError(t.span, "a 'yield' inside an expression needs parentheses: (yield x)");
        if (t.value === 'await') throw unsupportedConstruct(t.span, "'await' expressions");
        if (t.value === 'lambda') return this.lambda();
        throw this.expected('an expression');
      case 'op':
        if (t.value === '(') return this.parenthesised();
        if (t.value === '[') return this.listDisplay();
        if (t.value === '`') return this.backquotes();
        if (t.value === '{') throw unsupportedConstruct(t.span, 'dict and set literals');
        if (t.value === '...') throw unsupportedConstruct(t.span, 'Ellipsis literals');
        throw this.expected('an expression');
      default:
        throw this.expected('an expression');
    }
  }

  private parenthesised(): A.Expr {
    const open = this.next();
    this.enter(open.span);
    try {
      if (this.isOp(')')) {
        this.next();
        return { kind: 'Tuple', elts: [], span: this.from(open.span) };
      }
      if (this.isKw('yield')) {
        const y = this.yieldExpr();
        this.expectOp(')');
        return y;
      }
      const first = this.starOrTest(true);
      if (this.isKw('for')) {
        const comp = this.comprehension(first, open.span, false);
        this.expectOp(')');
        return { ...comp, span: this.from(open.span) };
      }
      if (this.isOp(')')) {
        this.next();
        if (first.kind === 'Starred') throw syntaxError(first.span, "can't use starred expression here");
        return first; // a parenthesised expression keeps its inner span
      }
      const elts = [first];
      while (this.eatOp(',')) {
        if (this.isOp(')')) break;
        elts.push(this.starOrTest(true));
      }
      this.expectOp(')', "',' or ')'");
      return { kind: 'Tuple', elts, span: this.from(open.span) };
    } finally {
      this.leave();
    }
  }

  private listDisplay(): A.Expr {
    const open = this.next();
    this.enter(open.span);
    try {
      if (this.isOp(']')) {
        this.next();
        return { kind: 'List', elts: [], span: this.from(open.span) };
      }
      const first = this.starOrTest(true);
      if (this.isKw('for')) {
        const comp = this.comprehension(first, open.span, true);
        this.expectOp(']');
        return { ...comp, span: this.from(open.span) };
      }
      const elts = [first];
      while (this.eatOp(',')) {
        if (this.isOp(']')) break;
        elts.push(this.starOrTest(true));
      }
      this.expectOp(']', "',' or ']'");
      return { kind: 'List', elts, span: this.from(open.span) };
    } finally {
      this.leave();
    }
  }
}
