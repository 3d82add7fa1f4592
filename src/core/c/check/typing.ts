/**
 * Typing: every identifier bound (block scopes, then the unit, then the
 * rest of the program), every expression given its C type and recorded in
 * `Sema`, assignments, conditions, calls and lvalues checked, and constructs
 * outside the subset rejected with a span. The second layer of the unit
 * checker, over declarations.ts; check.ts walks the statements with it.
 */
import type { Call, Expr, IntLit } from '../ast.ts';
import {
  CError, addressOfLocal, argCount, incompleteType, noMember, notAFunction, notConstant, notLvalue, pointerArithmetic,
  structValue, typeMismatch, undeclared, unsupportedType, voidValue,
} from '../errors.ts';
import {
  CHAR, type CType, INT, type IntType, LLONG, LONG, SIZE_T, UINT, ULLONG, ULONG, VOID, decay, findMember, pointerTo, promote,
  sameType, sizeOf, typeName, usualArithmetic,
} from '../types.ts';
import { evalConst } from './const-eval.ts';
import { Declarations } from './declarations.ts';
import type { Binding, LocalVar } from './sema.ts';

/** Literal types, C11 6.4.4.1: the first of a list that holds the value. */
function literalType(lit: IntLit): IntType {
  const fits = (t: IntType) => lit.value <= (t.signed ? (1n << BigInt(t.width - 1)) - 1n : (1n << BigInt(t.width)) - 1n);
  let candidates: IntType[];
  if (lit.unsigned) candidates = lit.longs === 0 ? [UINT, ULONG] : lit.longs === 1 ? [ULONG] : [ULLONG];
  else if (lit.decimal) candidates = lit.longs === 0 ? [INT, LONG] : lit.longs === 1 ? [LONG] : [LLONG];
  else candidates = lit.longs === 0 ? [INT, UINT, LONG, ULONG] : lit.longs === 1 ? [LONG, ULONG] : [LLONG, ULLONG];
  // A decimal literal too large for long is unsigned long in gcc (with a warning).
  return candidates.find(fits) ?? ULONG;
}

const isNullConstant = (e: Expr): boolean =>
  (e.kind === 'int' && e.value === 0n) ||
  (e.kind === 'paren' && isNullConstant(e.inner)) ||
  (e.kind === 'cast' && isNullConstant(e.operand));

interface Scope {
  readonly names: Map<string, LocalVar>;
}

export abstract class Typing extends Declarations {
  protected scopes: Scope[] = [];

  /** Evaluates an integer constant expression (array sizes, enum values, static assertions). */
  override constant(e: Expr, what: string): bigint {
    const t = this.expr(e);
    if (t.kind !== 'int') throw new CError(notConstant(e.span, what));
    return evalConst(this.sema, e, what);
  }

  /** A controlling expression: any scalar. */
  protected condition(e: Expr): void {
    const t = decay(this.expr(e));
    if (t.kind !== 'int' && t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `a condition must be a number or a pointer, not ${typeName(t)}`));
  }

  /** Checks that `e` can be assigned to an object of type `to`. */
  protected assignable(to: CType, e: Expr, what: string): void {
    const from = decay(this.expr(e));
    if (to.kind === 'int' && from.kind === 'int') return;
    if (to.kind === 'pointer') {
      if (from.kind === 'pointer' && compatiblePointers(to, from)) return;
      if (from.kind === 'int' && isNullConstant(e)) return;
    }
    if (from.kind === 'void') throw new CError(voidValue(e.span));
    if (from.kind === 'struct') throw new CError(structValue(e.span, typeName(from)));
    throw new CError(typeMismatch(e.span, `${what} has type ${typeName(from)}, which does not convert to ${typeName(to)}`));
  }

  private lookup(name: string): Binding | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const v = this.scopes[k].names.get(name);
      if (v) return v;
    }
    const own = this.ordinary.get(name);
    if (own) {
      if (own.kind === 'function') return this.linker.resolveFunction(this.unit.file, name) ?? own;
      return own;
    }
    // Lenient: an override unit may use another unit's static helpers and tables.
    return this.linker.global(name) ?? this.linker.resolveFunction(this.unit.file, name);
  }

  private isLvalue(e: Expr): boolean {
    switch (e.kind) {
      case 'ident': {
        const b = this.sema.bindings.get(e);
        return b?.kind === 'local' || b?.kind === 'global';
      }
      case 'paren':
        return this.isLvalue(e.inner);
      case 'index':
      case 'deref':
        return true;
      case 'member':
        return e.arrow || this.isLvalue(e.object);
      default:
        return false;
    }
  }

  private modifiable(e: Expr, what: string): CType {
    const t = this.expr(e);
    if (!this.isLvalue(e)) throw new CError(notLvalue(e.span, what));
    if (t.kind === 'array') throw new CError(notLvalue(e.span, `${what} (an array)`));
    if (t.kind === 'struct') throw new CError(structValue(e.span, typeName(t)));
    return t;
  }

  /** Types an expression (and its parts), recording the results in `sema`. */
  expr(e: Expr): CType {
    const known = this.sema.types.get(e);
    if (known) return known;
    const t = this.exprType(e);
    this.sema.types.set(e, t);
    return t;
  }

  private intOperand(e: Expr, what: string): IntType {
    const t = decay(this.expr(e));
    if (t.kind === 'int') return t;
    if (t.kind === 'pointer') throw new CError(pointerArithmetic(e.span));
    if (t.kind === 'void') throw new CError(voidValue(e.span));
    throw new CError(typeMismatch(e.span, `${what} needs an integer, not ${typeName(t)}`));
  }

  private exprType(e: Expr): CType {
    switch (e.kind) {
      case 'int':
        return literalType(e);
      case 'char':
        return INT;
      case 'string':
        return pointerTo(CHAR);
      case 'ident': {
        const b = this.lookup(e.name);
        if (!b) throw new CError(undeclared(e.span, e.name));
        this.sema.bindings.set(e, b);
        return b.type;
      }
      case 'paren':
        return this.expr(e.inner);
      case 'unary': {
        if (e.op === '!') {
          const t = decay(this.expr(e.operand));
          if (t.kind !== 'int' && t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `'!' needs a number or a pointer, not ${typeName(t)}`));
          return INT;
        }
        return promote(this.intOperand(e.operand, `'${e.op}'`));
      }
      case 'addr': {
        const t = this.expr(e.operand);
        const inner = stripParens(e.operand);
        if (inner.kind === 'ident') {
          const b = this.sema.bindings.get(inner);
          if (b?.kind === 'local') throw new CError(addressOfLocal(e.span, b.name));
          if (b?.kind === 'function') throw new CError(unsupportedType(e.span, 'a function pointer'));
        }
        if (!this.isLvalue(e.operand)) throw new CError(notLvalue(e.operand.span, "'&'"));
        return pointerTo(t);
      }
      case 'deref': {
        const t = decay(this.expr(e.operand));
        if (t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `'*' needs a pointer, not ${typeName(t)}`));
        if (t.to.kind === 'void') throw new CError(voidValue(e.span));
        return t.to;
      }
      case 'incdec': {
        const t = this.modifiable(e.operand, `'${e.op}'`);
        if (t.kind === 'pointer') throw new CError(pointerArithmetic(e.span));
        return t;
      }
      case 'binary':
        return this.binaryType(e);
      case 'logical':
        this.condition(e.left);
        this.condition(e.right);
        return INT;
      case 'assign': {
        const t = this.modifiable(e.target, 'an assignment');
        if (e.op === '=') this.assignable(t, e.value, 'the assigned value');
        else {
          if (t.kind === 'pointer') throw new CError(pointerArithmetic(e.span));
          this.intOperand(e.value, `'${e.op}'`);
        }
        return t;
      }
      case 'cond': {
        this.condition(e.test);
        const a = decay(this.expr(e.then));
        const b = decay(this.expr(e.else));
        if (a.kind === 'int' && b.kind === 'int') return usualArithmetic(a, b);
        if (a.kind === 'void' && b.kind === 'void') return VOID;
        if (a.kind === 'pointer' && b.kind === 'pointer' && compatiblePointers(a, b)) return a.to.kind === 'void' ? b : a;
        if (a.kind === 'pointer' && isNullConstant(e.else)) return a;
        if (b.kind === 'pointer' && isNullConstant(e.then)) return b;
        throw new CError(typeMismatch(e.span, `the branches of '?:' have types ${typeName(a)} and ${typeName(b)}`));
      }
      case 'cast': {
        const to = this.typeNameType(e.type);
        const from = decay(this.expr(e.operand));
        if (to.kind === 'void') return VOID;
        if (to.kind === 'int' && (from.kind === 'int' || from.kind === 'pointer')) return to;
        if (to.kind === 'pointer') {
          if (from.kind === 'pointer') return to;
          if (from.kind === 'int' && isNullConstant(e.operand)) return to;
          if (from.kind === 'int') throw new CError(unsupportedType(e.span, 'converting an integer to a pointer'));
        }
        if (from.kind === 'struct' || to.kind === 'struct') throw new CError(structValue(e.span, typeName(from.kind === 'struct' ? from : to)));
        throw new CError(typeMismatch(e.span, `cannot cast ${typeName(from)} to ${typeName(to)}`));
      }
      case 'sizeof-type': {
        const t = this.typeNameType(e.type);
        if (sizeOf(t) === undefined) throw new CError(incompleteType(e.type.span, typeName(t)));
        return SIZE_T;
      }
      case 'sizeof-expr': {
        const t = this.expr(e.operand);
        if (sizeOf(t) === undefined) throw new CError(incompleteType(e.operand.span, typeName(t)));
        return SIZE_T;
      }
      case 'member': {
        let t = this.expr(e.object);
        if (e.arrow) {
          t = decay(t);
          if (t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `'->' needs a pointer to a struct, not ${typeName(t)}`));
          t = t.to;
        }
        if (t.kind !== 'struct') throw new CError(typeMismatch(e.span, `'${e.arrow ? '->' : '.'}${e.name}' needs a struct, not ${typeName(t)}`));
        if (!t.complete) throw new CError(incompleteType(e.object.span, typeName(t)));
        const path = findMember(t, e.name);
        if (!path) throw new CError(noMember(e.nameSpan, typeName(t), e.name));
        return path[path.length - 1].type;
      }
      case 'index': {
        const t = decay(this.expr(e.object));
        if (t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `only arrays and pointers can be indexed, not ${typeName(t)}`));
        if (t.to.kind === 'void') throw new CError(voidValue(e.span));
        this.intOperand(e.index, 'an array index');
        return t.to;
      }
      case 'call':
        return this.callType(e);
    }
  }

  private binaryType(e: Extract<Expr, { kind: 'binary' }>): CType {
    const op = e.op;
    if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
      const a = decay(this.expr(e.left));
      const b = decay(this.expr(e.right));
      if (a.kind === 'int' && b.kind === 'int') return INT;
      if (a.kind === 'pointer' && b.kind === 'pointer' && compatiblePointers(a, b)) return INT;
      if (a.kind === 'pointer' && isNullConstant(e.right)) return INT;
      if (b.kind === 'pointer' && isNullConstant(e.left)) return INT;
      throw new CError(typeMismatch(e.span, `cannot compare ${typeName(a)} with ${typeName(b)}`));
    }
    const a = this.intOperand(e.left, `'${op}'`);
    const b = this.intOperand(e.right, `'${op}'`);
    if (op === '<<' || op === '>>') return promote(a);
    return usualArithmetic(a, b);
  }

  private callType(e: Call): CType {
    const name = e.callee.name;
    const b = this.lookup(name);
    if (!b) throw new CError(undeclared(e.callee.span, name));
    if (b.kind !== 'function') throw new CError(notAFunction(e.callee.span, name));
    this.sema.bindings.set(e.callee, b);
    this.sema.types.set(e.callee, b.type);
    this.sema.callees.set(e, b);
    const ft = b.type;
    if (e.args.length < ft.params.length || (!ft.variadic && e.args.length > ft.params.length)) {
      throw new CError(argCount(e.span, name, ft.params.length, e.args.length));
    }
    e.args.forEach((a, i) => {
      if (i < ft.params.length) this.assignable(ft.params[i], a, `argument ${i + 1} of '${name}'`);
      else {
        const t = decay(this.expr(a));
        if (t.kind === 'struct') throw new CError(structValue(a.span, typeName(t)));
      }
    });
    return ft.ret;
  }
}

function stripParens(e: Expr): Expr {
  return e.kind === 'paren' ? stripParens(e.inner) : e;
}

function compatiblePointers(a: CType & { kind: 'pointer' }, b: CType & { kind: 'pointer' }): boolean {
  if (a.to.kind === 'void' || b.to.kind === 'void') return true;
  if (a.to.kind === 'int' && b.to.kind === 'int') return a.to.width === b.to.width;
  return sameType(a.to, b.to);
}
