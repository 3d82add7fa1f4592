/**
 * Semantic analysis of one translation unit: resolves declarations to C
 * types (structs laid out, enums valued, typedefs followed), declares the
 * unit's globals and functions into the program being linked, and checks
 * function bodies: every identifier is bound, every expression gets a type,
 * and constructs outside the subset are rejected with a span. The results
 * live in side tables (`Sema`) that the symbolic executor reads.
 */
import type {
  Block, Call, CSpan, Declaration, DeclSpecs, Declarator, Expr, FunctionDef, Ident, InitDeclarator,
  IntLit, Stmt, TranslationUnit, TypeName, Attribute,
} from './ast.ts';
import {
  CError, addressOfLocal, argCount, bitField, conflict, globalInitializer, incompleteType, noMember,
  notAFunction, notConstant, notLvalue, pointerArithmetic, staticAssertFailed, structValue, typeMismatch,
  undeclared, unsupportedSyntax, unsupportedType, voidValue, type CDiagnostic,
} from './errors.ts';
import { declaredName, declaredNameSpan } from './parser.ts';
import {
  BOOL_T, CHAR, type CType, type FunctionType, INT, type IntType, LLONG, LONG, SCHAR, SHORT, SIZE_T,
  type StructType, UCHAR, UINT, ULLONG, ULONG, USHORT, VOID, alignOf, findMember, intType, layoutStruct,
  pointerTo, promote, sameType, sizeOf, typeName, usualArithmetic,
} from './types.ts';

export interface LocalVar {
  readonly kind: 'local';
  readonly name: string;
  readonly type: CType;
  readonly span: CSpan;
  /** Unique in the program (locals of different functions never share one). */
  readonly id: number;
}

export interface GlobalVar {
  readonly kind: 'global';
  readonly name: string;
  readonly type: CType;
  readonly span: CSpan;
  readonly isStatic: boolean;
}

export interface FunctionInfo {
  readonly kind: 'function';
  readonly name: string;
  readonly type: FunctionType;
  readonly params: readonly LocalVar[];
  /** Undefined for a declaration without a definition (a hook, or an error when called). */
  readonly body?: Block;
  readonly span: CSpan;
  /** The translation unit it was defined (or first declared) in. */
  readonly unit: string;
  readonly isStatic: boolean;
  readonly fromOverride: boolean;
}

export interface EnumConst {
  readonly kind: 'enum';
  readonly name: string;
  readonly value: bigint;
  readonly type: IntType;
}

export type Binding = LocalVar | GlobalVar | FunctionInfo | EnumConst;

/** Side tables filled by the checker, read by the executor. */
export class Sema {
  readonly types = new Map<Expr, CType>();
  readonly bindings = new Map<Ident, Binding>();
  readonly callees = new Map<Call, FunctionInfo>();
  readonly locals = new Map<InitDeclarator, LocalVar>();
  readonly typeNames = new Map<TypeName, CType>();

  typeOf(e: Expr): CType {
    const t = this.types.get(e);
    if (!t) throw new Error(`internal: expression at ${e.span.file}:${e.span.line}:${e.span.column} has no type`);
    return t;
  }
}

/** What the checker needs from the program being linked. */
export interface Linker {
  readonly sema: Sema;
  /** The canonical struct with this identity, if one exists. */
  struct(id: string): StructType | undefined;
  addStruct(s: StructType, site: string): void;
  structSite(id: string): string | undefined;
  declareGlobal(g: GlobalVar, defined: boolean): void;
  global(name: string): GlobalVar | undefined;
  declareFunction(f: FunctionInfo, def: FunctionDef | undefined): void;
  /** The function a call to `name` from `unit` reaches (after overrides). */
  resolveFunction(unit: string, name: string): FunctionInfo | undefined;
  nextLocalId(): number;
}

/** Literal types, C11 6.4.4.1: the first of a list that holds the value. */
export function literalType(lit: IntLit): IntType {
  const fits = (t: IntType) => lit.value <= (t.signed ? (1n << BigInt(t.width - 1)) - 1n : (1n << BigInt(t.width)) - 1n);
  let candidates: IntType[];
  if (lit.unsigned) candidates = lit.longs === 0 ? [UINT, ULONG] : lit.longs === 1 ? [ULONG] : [ULLONG];
  else if (lit.decimal) candidates = lit.longs === 0 ? [INT, LONG] : lit.longs === 1 ? [LONG] : [LLONG];
  else candidates = lit.longs === 0 ? [INT, UINT, LONG, ULONG] : lit.longs === 1 ? [LONG, ULONG] : [LLONG, ULLONG];
  // A decimal literal too large for long is unsigned long in gcc (with a warning).
  return candidates.find(fits) ?? ULONG;
}

/** Reduces `v` to the values of type `t`. */
export function normalize(v: bigint, t: IntType): bigint {
  if (t.bool) return v !== 0n ? 1n : 0n;
  return t.signed ? BigInt.asIntN(t.width, v) : BigInt.asUintN(t.width, v);
}

const isNullConstant = (e: Expr): boolean =>
  (e.kind === 'int' && e.value === 0n) ||
  (e.kind === 'paren' && isNullConstant(e.inner)) ||
  (e.kind === 'cast' && isNullConstant(e.operand));

interface Scope {
  readonly names: Map<string, LocalVar>;
}

interface FnContext {
  readonly fn: FunctionInfo;
  loops: number;
}

/** Checks one translation unit against the program being linked. */
export class UnitChecker {
  private readonly typedefs = new Map<string, CType>();
  private readonly tags = new Map<string, StructType>();
  private readonly enumTags = new Map<string, IntType>();
  private readonly ordinary = new Map<string, GlobalVar | FunctionInfo | EnumConst>();
  private scopes: Scope[] = [];
  private ctx?: FnContext;
  private readonly pendingBodies: { def: FunctionDef; info: FunctionInfo }[] = [];
  readonly errors: CDiagnostic[] = [];

  constructor(
    private readonly unit: TranslationUnit,
    private readonly linker: Linker,
    private readonly isOverride: boolean,
  ) {}

  private get sema(): Sema {
    return this.linker.sema;
  }

  /** Phase 1: the unit's top-level declarations, in order. Stops at the first error. */
  declarations(): void {
    try {
      for (const item of this.unit.items) {
        if (item.kind === 'static-assert') {
          const v = this.constant(item.test, 'a static assertion');
          if (v === 0n) throw new CError(staticAssertFailed(item.span, item.message ?? ''));
        } else if (item.kind === 'declaration') {
          this.topDeclaration(item);
        } else {
          this.functionDefinition(item);
        }
      }
    } catch (e) {
      if (!(e instanceof CError)) throw e;
      this.errors.push(e.diagnostic);
    }
  }

  /** Phase 2 (after linking): the bodies of the unit's functions. */
  bodies(): void {
    for (const { def, info } of this.pendingBodies) {
      try {
        this.functionBody(def, info);
      } catch (e) {
        if (!(e instanceof CError)) throw e;
        this.errors.push(e.diagnostic);
      } finally {
        this.scopes = [];
        this.ctx = undefined;
      }
    }
  }

  // ---------------------------------------------------------------- declarations

  private topDeclaration(decl: Declaration): void {
    const base = this.specsType(decl.specs);
    for (const d of decl.declarators) {
      const { name, type, params } = this.applyDeclarator(base, d.declarator);
      const nameSpan = declaredNameSpan(d.declarator);
      if (name === undefined) throw new CError(unsupportedSyntax(d.span, 'a declaration without a name'));
      if (decl.specs.storage === 'typedef') {
        this.typedefs.set(name, named(type, name));
        continue;
      }
      if (type.kind === 'function') {
        const info: FunctionInfo = {
          kind: 'function', name, type, params: params ?? [], span: nameSpan, unit: this.unit.file,
          isStatic: decl.specs.storage === 'static', fromOverride: this.isOverride,
        };
        this.linker.declareFunction(info, undefined);
        this.ordinary.set(name, this.linker.resolveFunction(this.unit.file, name) ?? info);
        continue;
      }
      if (d.init) throw new CError(globalInitializer(d.init.span, name));
      this.checkGlobalType(type, nameSpan, name);
      const g: GlobalVar = { kind: 'global', name, type, span: nameSpan, isStatic: decl.specs.storage === 'static' };
      this.linker.declareGlobal(g, decl.specs.storage !== 'extern');
      this.ordinary.set(name, this.linker.global(name) ?? g);
    }
  }

  private checkGlobalType(t: CType, span: CSpan, name: string): void {
    switch (t.kind) {
      case 'int':
        return;
      case 'array':
        return this.checkGlobalType(t.of, span, name);
      case 'struct':
        if (!t.complete) throw new CError(incompleteType(span, typeName(t)));
        for (const m of t.members) this.checkGlobalType(m.type, m.span, name);
        return;
      case 'pointer':
        throw new CError(unsupportedType(span, `the pointer-typed global '${name}' (globals hold scalars, arrays and structs)`));
      default:
        throw new CError(unsupportedType(span, `a global of type ${typeName(t)}`));
    }
  }

  private functionDefinition(def: FunctionDef): void {
    const base = this.specsType(def.specs);
    const { name, type, params } = this.applyDeclarator(base, def.declarator);
    if (name === undefined || type.kind !== 'function') throw new CError(unsupportedSyntax(def.span, 'this function definition'));
    if (params!.some((p) => p.name === '')) {
      throw new CError(unsupportedSyntax(def.declarator.span, 'a parameter without a name in a definition'));
    }
    const info: FunctionInfo = {
      kind: 'function', name, type, params: params!, body: def.body, span: declaredNameSpan(def.declarator),
      unit: this.unit.file, isStatic: def.specs.storage === 'static', fromOverride: this.isOverride,
    };
    this.linker.declareFunction(info, def);
    this.ordinary.set(name, info);
    this.pendingBodies.push({ def, info });
  }

  /** The type named by declaration specifiers (defining any struct or enum in them). */
  private specsType(specs: DeclSpecs): CType {
    const ts = specs.type;
    switch (ts.kind) {
      case 'builtin':
        return builtinType(ts.words, ts.span);
      case 'typedef-name': {
        const t = this.typedefs.get(ts.name);
        if (!t) throw new CError(undeclared(ts.span, ts.name));
        return t;
      }
      case 'enum':
        return this.enumType(ts);
      case 'struct':
        return this.structType(ts);
    }
  }

  private structType(ts: Extract<DeclSpecs['type'], { kind: 'struct' }>): StructType {
    if (ts.union) throw new CError(unsupportedType(ts.span, 'a union'));
    if (ts.attributes.some((a) => a.name === 'packed' || a.name === '__packed__')) {
      throw new CError(unsupportedType(ts.span, 'a packed struct'));
    }
    if (!ts.members) {
      const known = this.tags.get(ts.tag!) ?? this.linker.struct(ts.tag!);
      if (known) {
        this.tags.set(ts.tag!, known);
        return known;
      }
      const fwd: StructType = { kind: 'struct', tag: ts.tag, id: ts.tag!, members: [], size: 0, align: 1, complete: false };
      this.linker.addStruct(fwd, '');
      this.tags.set(ts.tag!, fwd);
      return fwd;
    }
    const site = `${ts.span.file}:${ts.span.offset}`;
    const id = ts.tag ?? site;
    const existing = this.linker.struct(id);
    if (existing?.complete && this.linker.structSite(id) === site) {
      // The same definition seen again through a header included by another unit.
      if (ts.tag) this.tags.set(ts.tag, existing);
      return existing;
    }
    // The object this definition names: a forward declaration it completes, or
    // (when another unit defined the tag already) that definition, which the
    // members must then match.
    const s: StructType = existing ?? { kind: 'struct', tag: ts.tag, id, members: [], size: 0, align: 1, complete: false };
    if (ts.tag) this.tags.set(ts.tag, s);
    const members: { name?: string; type: CType; span: CSpan; align?: number; bitField?: boolean }[] = [];
    for (const md of ts.members) {
      const base = this.specsType(md.specs);
      for (const m of md.declarators) {
        if (!m.declarator) {
          if (base.kind !== 'struct') throw new CError(unsupportedSyntax(m.span, 'a member without a name'));
          members.push({ type: base, span: m.span });
          continue;
        }
        const { name, type } = this.applyDeclarator(base, m.declarator);
        const span = declaredNameSpan(m.declarator);
        if (type.kind === 'function') throw new CError(unsupportedType(span, 'a function member'));
        if (sizeOf(type) === undefined) throw new CError(incompleteType(span, typeName(type)));
        if (m.bitWidth) {
          const w = this.constant(m.bitWidth, 'a bit-field width');
          if (w !== 64n || type.kind !== 'int' || type.width !== 64) throw new CError(bitField(m.bitWidth.span, String(w)));
        }
        if (name !== undefined && members.some((x) => x.name === name)) {
          throw new CError(conflict(span, `duplicate member '${name}'`));
        }
        members.push({ name, type, span, align: this.alignedAttr([...md.specs.attributes, ...m.attributes]), bitField: m.bitWidth !== undefined });
      }
    }
    const fresh: StructType = { kind: 'struct', tag: ts.tag, id, members: [], size: 0, align: 1, complete: false };
    layoutStruct(fresh, members, this.alignedAttr(ts.attributes) ?? 1);
    if (existing?.complete) {
      if (!sameLayout(existing, fresh)) {
        throw new CError(conflict(ts.span, `struct ${ts.tag} is defined twice with different members`));
      }
      return existing;
    }
    s.members = fresh.members;
    s.size = fresh.size;
    s.align = fresh.align;
    s.complete = true;
    this.linker.addStruct(s, site);
    return s;
  }

  private alignedAttr(attrs: readonly Attribute[]): number | undefined {
    let a: number | undefined;
    for (const at of attrs) {
      if (at.name !== 'aligned' && at.name !== '__aligned__') continue;
      const n = at.args.length ? Number(this.constant(at.args[0], 'an alignment')) : 16;
      a = Math.max(a ?? 1, n);
    }
    return a;
  }

  private enumType(ts: Extract<DeclSpecs['type'], { kind: 'enum' }>): IntType {
    if (!ts.enumerators) {
      const t = this.enumTags.get(ts.tag!);
      if (!t) throw new CError(incompleteType(ts.span, `enum ${ts.tag}`));
      return t;
    }
    const values: { name: string; value: bigint; span: CSpan }[] = [];
    let next = 0n;
    for (const en of ts.enumerators) {
      const v = en.value ? this.constant(en.value, 'an enumerator value') : next;
      values.push({ name: en.name, value: v, span: en.span });
      // Enumerators can be used by the following ones; give them int type for now.
      this.ordinary.set(en.name, { kind: 'enum', name: en.name, value: v, type: INT });
      next = v + 1n;
    }
    const name = ts.tag ? `enum ${ts.tag}` : 'enum';
    // gcc: the underlying type is int if every value fits, else unsigned int,
    // long or unsigned long; an enumerator that fits in int has type int.
    const all = values.map((x) => x.value);
    const fitsIn = (lo: bigint, hi: bigint) => all.every((v) => v >= lo && v <= hi);
    let under: IntType;
    if (fitsIn(-(1n << 31n), (1n << 31n) - 1n)) under = intType(32, true, name);
    else if (fitsIn(0n, (1n << 32n) - 1n)) under = intType(32, false, name);
    else if (fitsIn(-(1n << 63n), (1n << 63n) - 1n)) under = intType(64, true, name);
    else under = intType(64, false, name);
    for (const v of values) {
      const fitsInt = v.value >= -(1n << 31n) && v.value <= (1n << 31n) - 1n;
      const type = fitsInt ? INT : under;
      this.ordinary.set(v.name, { kind: 'enum', name: v.name, value: normalize(v.value, type), type });
    }
    if (ts.tag) this.enumTags.set(ts.tag, under);
    return under;
  }

  /** Applies a declarator to a base type: the declared name, its type, and (for functions) the parameters. */
  private applyDeclarator(
    base: CType,
    d: Declarator,
  ): { name?: string; type: CType; params?: LocalVar[] } {
    let t = base;
    let params: LocalVar[] | undefined;
    let node = d;
    for (;;) {
      switch (node.kind) {
        case 'name':
          return { name: node.name, type: t, params };
        case 'pointer':
          if (t.kind === 'function') throw new CError(unsupportedType(node.span, 'a function pointer'));
          t = pointerTo(t);
          node = node.inner;
          break;
        case 'array': {
          if (!node.size) throw new CError(unsupportedType(node.span, 'an array without a size'));
          const n = this.constant(node.size, 'an array size');
          if (n <= 0n || n > 1n << 40n) throw new CError(unsupportedType(node.size.span, `an array of ${n} elements`));
          if (t.kind === 'function' || t.kind === 'void') throw new CError(unsupportedType(node.span, `an array of ${typeName(t)}`));
          if (sizeOf(t) === undefined) throw new CError(incompleteType(node.span, typeName(t)));
          t = { kind: 'array', of: t, length: Number(n) };
          node = node.inner;
          break;
        }
        case 'function': {
          if (t.kind === 'function' || t.kind === 'array') throw new CError(unsupportedType(node.span, `a function returning ${typeName(t)}`));
          if (node.inner.kind !== 'name') throw new CError(unsupportedType(node.span, 'a function pointer'));
          const ps: LocalVar[] = [];
          for (const p of node.params) {
            const pb = this.specsType(p.specs);
            let { type: pt } = this.applyDeclarator(pb, p.declarator);
            if (pt.kind === 'array') pt = pointerTo(pt.of);
            if (pt.kind === 'function') throw new CError(unsupportedType(p.span, 'a function pointer'));
            if (pt.kind === 'void') throw new CError(unsupportedType(p.span, 'a void parameter'));
            ps.push({ kind: 'local', name: declaredName(p.declarator) ?? '', type: pt, span: declaredNameSpan(p.declarator), id: this.linker.nextLocalId() });
          }
          params = ps;
          t = { kind: 'function', ret: t, params: ps.map((p) => p.type), variadic: node.variadic };
          node = node.inner;
          break;
        }
      }
    }
  }

  private typeNameType(tn: TypeName): CType {
    const known = this.sema.typeNames.get(tn);
    if (known) return known;
    const { type } = this.applyDeclarator(this.specsType(tn.specs), tn.declarator);
    this.sema.typeNames.set(tn, type);
    return type;
  }

  // ---------------------------------------------------------------- constants

  /** Evaluates an integer constant expression (array sizes, enum values, static assertions). */
  constant(e: Expr, what: string): bigint {
    const t = this.expr(e);
    if (t.kind !== 'int') throw new CError(notConstant(e.span, what));
    return this.evalConst(e, what);
  }

  private evalConst(e: Expr, what: string): bigint {
    const t = this.sema.typeOf(e);
    const norm = (v: bigint) => (t.kind === 'int' ? normalize(v, t) : v);
    switch (e.kind) {
      case 'int':
      case 'char':
        return norm(e.value);
      case 'ident': {
        const b = this.sema.bindings.get(e);
        if (b?.kind === 'enum') return b.value;
        break;
      }
      case 'paren':
        return this.evalConst(e.inner, what);
      case 'sizeof-type':
        return BigInt(sizeOf(this.typeNameType(e.type))!);
      case 'sizeof-expr':
        return BigInt(sizeOf(this.sema.typeOf(e.operand))!);
      case 'cast':
        if (t.kind === 'int') return norm(this.evalConst(e.operand, what));
        break;
      case 'unary': {
        const v = this.evalConst(e.operand, what);
        switch (e.op) {
          case '-': return norm(-v);
          case '+': return norm(v);
          case '~': return norm(~v);
          case '!': return v === 0n ? 1n : 0n;
        }
        break;
      }
      case 'logical': {
        const a = this.evalConst(e.left, what) !== 0n;
        if (e.op === '&&' ? !a : a) return e.op === '&&' ? 0n : 1n;
        return this.evalConst(e.right, what) !== 0n ? 1n : 0n;
      }
      case 'cond':
        return norm(this.evalConst(e.test, what) !== 0n ? this.evalConst(e.then, what) : this.evalConst(e.else, what));
      case 'binary': {
        const lt = this.sema.typeOf(e.left) as IntType;
        const rt = this.sema.typeOf(e.right) as IntType;
        const a = this.evalConst(e.left, what);
        const b = this.evalConst(e.right, what);
        if (e.op === '<<' || e.op === '>>') {
          const pt = promote(lt);
          if (b < 0n || b >= BigInt(pt.width)) throw new CError(notConstant(e.span, `${what} (shift out of range)`));
          return norm(e.op === '<<' ? normalize(a, pt) << b : normalize(a, pt) >> b);
        }
        const ct = usualArithmetic(lt, rt);
        const x = normalize(a, ct);
        const y = normalize(b, ct);
        const bool = (c: boolean) => (c ? 1n : 0n);
        switch (e.op) {
          case '+': return norm(x + y);
          case '-': return norm(x - y);
          case '*': return norm(x * y);
          case '/':
          case '%':
            if (y === 0n) throw new CError(notConstant(e.span, `${what} (division by zero)`));
            return norm(e.op === '/' ? x / y : x % y);
          case '&': return norm(x & y);
          case '|': return norm(x | y);
          case '^': return norm(x ^ y);
          case '<': return bool(x < y);
          case '>': return bool(x > y);
          case '<=': return bool(x <= y);
          case '>=': return bool(x >= y);
          case '==': return bool(x === y);
          case '!=': return bool(x !== y);
        }
      }
    }
    throw new CError(notConstant(e.span, what));
  }

  // ---------------------------------------------------------------- function bodies

  private functionBody(def: FunctionDef, info: FunctionInfo): void {
    const t = info.type;
    if (t.ret.kind === 'struct' || t.ret.kind === 'array') throw new CError(structValue(def.declarator.span, typeName(t.ret)));
    for (const p of info.params) if (p.type.kind === 'struct') throw new CError(structValue(p.span, typeName(p.type)));
    this.ctx = { fn: info, loops: 0 };
    this.scopes = [{ names: new Map(info.params.map((p) => [p.name, p])) }];
    this.block(def.body, false);
  }

  private block(b: Block, newScope = true): void {
    if (newScope) this.scopes.push({ names: new Map() });
    for (const s of b.items) this.stmt(s);
    if (newScope) this.scopes.pop();
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'block':
        return this.block(s);
      case 'expr':
        this.expr(s.expr);
        return;
      case 'declaration':
        return this.localDeclaration(s);
      case 'if':
        this.condition(s.test);
        this.scoped(() => this.stmt(s.then));
        if (s.else) this.scoped(() => this.stmt(s.else!));
        return;
      case 'for':
        this.scopes.push({ names: new Map() });
        if (s.init) this.stmt(s.init);
        if (s.test) this.condition(s.test);
        if (s.step) this.expr(s.step);
        this.ctx!.loops++;
        this.scoped(() => this.stmt(s.body));
        this.ctx!.loops--;
        this.scopes.pop();
        return;
      case 'return': {
        const ret = this.ctx!.fn.type.ret;
        if (!s.value) {
          if (ret.kind !== 'void') throw new CError(typeMismatch(s.span, `'${this.ctx!.fn.name}' must return a value of type ${typeName(ret)}`));
          return;
        }
        const vt = this.expr(s.value);
        if (ret.kind === 'void') {
          if (vt.kind !== 'void') throw new CError(typeMismatch(s.value.span, `'${this.ctx!.fn.name}' returns void`));
          return;
        }
        this.assignable(ret, s.value, 'the return value');
        return;
      }
      case 'break':
      case 'continue':
        if (this.ctx!.loops === 0) throw new CError(unsupportedSyntax(s.span, `'${s.kind}' outside a loop`));
        return;
      case 'empty':
        return;
      default: {
        const never: never = s;
        throw new Error(`unknown statement ${(never as Stmt).kind}`);
      }
    }
  }

  private scoped(f: () => void): void {
    this.scopes.push({ names: new Map() });
    f();
    this.scopes.pop();
  }

  private localDeclaration(decl: Declaration): void {
    if (decl.specs.storage === 'static' || decl.specs.storage === 'extern') {
      throw new CError(unsupportedType(decl.specs.span, `a ${decl.specs.storage} local variable`));
    }
    const base = this.specsType(decl.specs);
    for (const d of decl.declarators) {
      const { name, type } = this.applyDeclarator(base, d.declarator);
      if (name === undefined) continue;
      if (decl.specs.storage === 'typedef') {
        this.typedefs.set(name, named(type, name));
        continue;
      }
      const span = declaredNameSpan(d.declarator);
      if (type.kind !== 'int' && type.kind !== 'pointer') {
        throw new CError(unsupportedType(span, `a local variable of type ${typeName(type)} (locals are scalars or pointers)`));
      }
      if (d.init) this.assignable(type, d.init, `the initializer of '${name}'`);
      const v: LocalVar = { kind: 'local', name, type, span, id: this.linker.nextLocalId() };
      const scope = this.scopes[this.scopes.length - 1];
      if (scope.names.has(name)) throw new CError(conflict(span, `'${name}' is declared twice in this block`));
      scope.names.set(name, v);
      this.sema.locals.set(d, v);
    }
  }

  /** A controlling expression: any scalar. */
  private condition(e: Expr): void {
    const t = decay(this.expr(e));
    if (t.kind !== 'int' && t.kind !== 'pointer') throw new CError(typeMismatch(e.span, `a condition must be a number or a pointer, not ${typeName(t)}`));
  }

  /** Checks that `e` can be assigned to an object of type `to`. */
  private assignable(to: CType, e: Expr, what: string): void {
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

/** An integer type renamed after its typedef, for messages (types compare structurally). */
function named(t: CType, name: string): CType {
  return t.kind === 'int' ? { ...t, name } : t;
}

function stripParens(e: Expr): Expr {
  return e.kind === 'paren' ? stripParens(e.inner) : e;
}

/** Array-to-pointer decay. */
export function decay(t: CType): CType {
  return t.kind === 'array' ? pointerTo(t.of) : t;
}

function compatiblePointers(a: CType & { kind: 'pointer' }, b: CType & { kind: 'pointer' }): boolean {
  if (a.to.kind === 'void' || b.to.kind === 'void') return true;
  if (a.to.kind === 'int' && b.to.kind === 'int') return a.to.width === b.to.width;
  return sameType(a.to, b.to);
}

function sameLayout(a: StructType, b: StructType): boolean {
  return (
    a.size === b.size &&
    a.members.length === b.members.length &&
    a.members.every((m, i) => m.name === b.members[i].name && m.offset === b.members[i].offset && sameType(m.type, b.members[i].type))
  );
}

/** The type of a list of type keywords (`unsigned long`, `_Bool`, ...). */
function builtinType(words: readonly string[], span: CSpan): CType {
  const count = (w: string) => words.filter((x) => x === w).length;
  const longs = count('long');
  const unsigned = count('unsigned') > 0;
  const signed = count('signed') > 0;
  const bad = () => new CError(unsupportedType(span, `the type '${words.join(' ')}'`));
  if (count('float') || count('double')) throw new CError(unsupportedType(span, 'floating point'));
  if (count('__int128')) throw new CError(unsupportedType(span, '__int128'));
  if (unsigned && signed) throw bad();
  if (count('void')) {
    if (words.length !== 1) throw bad();
    return VOID;
  }
  if (count('_Bool')) {
    if (words.length !== 1) throw bad();
    return BOOL_T;
  }
  if (count('char')) {
    if (words.length !== 1 + (unsigned || signed ? 1 : 0)) throw bad();
    return unsigned ? UCHAR : signed ? SCHAR : CHAR;
  }
  if (count('short')) {
    if (longs || count('short') > 1) throw bad();
    return unsigned ? USHORT : SHORT;
  }
  if (count('int') > 1 || longs > 2) throw bad();
  if (longs === 2) return unsigned ? ULLONG : LLONG;
  if (longs === 1) return unsigned ? ULONG : LONG;
  return unsigned ? UINT : INT;
}

export { alignOf };
