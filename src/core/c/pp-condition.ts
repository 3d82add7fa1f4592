/**
 * The expression language of `#if` and `#elif`: literals, character
 * constants and the C operators over 64-bit signed integers, after the
 * preprocessor has decided `defined` and expanded macros (preprocess.ts).
 * A small evaluator of its own, apart from the preprocessor's handling of
 * files, directives and macros.
 */
import type { CSpan } from './ast.ts';
import { CError, badIfExpression } from './errors.ts';
import { type Token, charLiteral, intLiteral } from './lexer.ts';
import { MAX_SOURCE_DEPTH } from './limits.ts';
import { BINARY_PRECEDENCE } from './precedence.ts';

/** The value of a `#if` condition (its tokens, macro-expanded); errors point at `span`. */
export function evalCondition(toks: Token[], span: CSpan): bigint {
  return new IfEval(toks, span).run();
}

/** Evaluates a `#if` condition over 64-bit signed integers. */
class IfEval {
  private k = 0;
  /** Operands being evaluated at once: parentheses, unary operators and '?:' nest. */
  private depth = 0;
  /** Inside an operand C does not evaluate (after `0 &&`, `1 ||`, the other branch of `?:`): no division fails there. */
  private skipped = 0;

  constructor(
    private readonly toks: Token[],
    private readonly span: CSpan,
  ) {}

  run(): bigint {
    const v = this.cond();
    if (this.k < this.toks.length) this.fail(`unexpected '${this.toks[this.k].text}'`);
    return v;
  }

  private fail(why: string): never {
    throw new CError(badIfExpression(this.span, why));
  }

  private cond(): bigint {
    return this.nested(() => this.condInner());
  }

  /** `operand` one level deeper; deeper than the limit is refused before the JavaScript stack runs out, at the directive. */
  private nested(operand: () => bigint): bigint {
    if (++this.depth > MAX_SOURCE_DEPTH) this.fail(`nesting deeper than ${MAX_SOURCE_DEPTH} levels`);
    try {
      return operand();
    } finally {
      this.depth--;
    }
  }

  private condInner(): bigint {
    const c = this.binary(1);
    if (this.toks[this.k]?.text !== '?') return c;
    this.k++;
    const a = this.unevaluatedIf(c === 0n, () => this.cond());
    if (this.toks[this.k]?.text !== ':') this.fail("expected ':'");
    this.k++;
    const b = this.unevaluatedIf(c !== 0n, () => this.cond());
    return c !== 0n ? a : b;
  }

  private unevaluatedIf(skip: boolean, operand: () => bigint): bigint {
    if (skip) this.skipped++;
    try {
      return operand();
    } finally {
      if (skip) this.skipped--;
    }
  }

  private binary(min: number): bigint {
    let left = this.unary();
    for (;;) {
      const t = this.toks[this.k];
      const p = t && t.kind === 'punct' ? BINARY_PRECEDENCE.get(t.text) : undefined;
      if (p === undefined || p < min) return left;
      this.k++;
      const skip = (t.text === '&&' && left === 0n) || (t.text === '||' && left !== 0n);
      const right = this.unevaluatedIf(skip, () => this.binary(p + 1));
      left = BigInt.asIntN(64, this.apply(t.text, left, right));
    }
  }

  private apply(op: string, a: bigint, b: bigint): bigint {
    const bool = (x: boolean) => (x ? 1n : 0n);
    switch (op) {
      case '*': return a * b;
      case '/': if (b === 0n) return this.skipped ? 0n : this.fail('division by zero'); return a / b;
      case '%': if (b === 0n) return this.skipped ? 0n : this.fail('division by zero'); return a % b;
      case '+': return a + b;
      case '-': return a - b;
      case '<<': return a << (b & 63n);
      case '>>': return a >> (b & 63n);
      case '<': return bool(a < b);
      case '>': return bool(a > b);
      case '<=': return bool(a <= b);
      case '>=': return bool(a >= b);
      case '==': return bool(a === b);
      case '!=': return bool(a !== b);
      case '&': return a & b;
      case '^': return a ^ b;
      case '|': return a | b;
      case '&&': return bool(a !== 0n && b !== 0n);
      default: return bool(a !== 0n || b !== 0n);
    }
  }

  private unary(): bigint {
    return this.nested(() => this.unaryInner());
  }

  private unaryInner(): bigint {
    const t = this.toks[this.k++];
    if (!t) this.fail('unexpected end of condition');
    if (t.kind === 'punct') {
      switch (t.text) {
        case '!': return this.unary() === 0n ? 1n : 0n;
        case '~': return BigInt.asIntN(64, ~this.unary());
        case '-': return BigInt.asIntN(64, -this.unary());
        case '+': return this.unary();
        case '(': {
          const v = this.cond();
          if (this.toks[this.k++]?.text !== ')') this.fail("expected ')'");
          return v;
        }
      }
    }
    if (t.kind === 'number') {
      const lit = intLiteral(t.text);
      if (!lit.ok) this.fail(lit.why);
      return BigInt.asIntN(64, lit.value);
    }
    if (t.kind === 'char') {
      const c = charLiteral(t.text);
      if (!c.ok) return this.fail(`bad character literal ${t.text}: ${c.why}`);
      return BigInt(c.byte);
    }
    if (t.kind === 'ident') return 0n; // an identifier that is not a macro counts as 0
    return this.fail(`unexpected '${t.text}'`);
  }
}
