/**
 * Declarations and layout: declaration specifiers and declarators resolved
 * to C types (typedefs followed, structs laid out and matched across units,
 * enums valued with gcc's underlying types), and the unit's globals and
 * functions declared into the program being linked. The first layer of the
 * unit checker; typing.ts extends it, and supplies the constant evaluation
 * that array sizes and enumerator values need.
 */
import {
  type Attribute, type CSpan, type Declaration, type DeclSpecs, type Declarator, type Expr, type FunctionDef, type TranslationUnit,
  type TypeName, declaredName, declaredNameSpan,
} from '../ast.ts';
import {
  CError, bitField, conflict, enumOverflow, enumRange, globalInitializer, incompleteType, undeclared, unsupportedSyntax,
  unsupportedType,
} from '../errors.ts';
import {
  BOOL_T, CHAR, type CType, INT, type IntType, LLONG, LONG, SCHAR, SHORT, type StructType, UCHAR, UINT, ULLONG, ULONG,
  USHORT, VOID, alignOf, intType, layoutStruct, pointerTo, sameType, sizeOf, typeName,
} from '../types.ts';
import { normalize } from './const-eval.ts';
import type { EnumConst, FunctionInfo, GlobalVar, Linker, LocalVar, Sema } from './sema.ts';

/** The declarations of one translation unit, in the program being linked. */
export abstract class Declarations {
  protected readonly typedefs = new Map<string, CType>();
  /** What each file-scope typedef names, under the name of its own type (for messages). */
  private readonly typedefOf = new Map<string, CType>();
  private readonly tags = new Map<string, StructType>();
  private readonly enumTags = new Map<string, IntType>();
  protected readonly ordinary = new Map<string, GlobalVar | FunctionInfo | EnumConst>();
  /** What each file-scope identifier of the unit was first declared as, for the rules of C11 6.2.2 and 6.7. */
  private readonly fileScope = new Map<string, FileScopeName>();
  /** Function definitions whose bodies are checked after linking (check.ts). */
  protected readonly pendingBodies: { def: FunctionDef; info: FunctionInfo }[] = [];

  constructor(
    protected readonly unit: TranslationUnit,
    protected readonly linker: Linker,
    private readonly isOverride: boolean,
  ) {}

  protected get sema(): Sema {
    return this.linker.sema;
  }

  /** Evaluates an integer constant expression (typing.ts). */
  abstract constant(e: Expr, what: string): bigint;

  /** Types an expression (typing.ts). */
  abstract expr(e: Expr): CType;

  protected topDeclaration(decl: Declaration): void {
    const base = this.specsType(decl.specs);
    for (const d of decl.declarators) {
      const { name, type, params } = this.applyDeclarator(base, d.declarator);
      const nameSpan = declaredNameSpan(d.declarator);
      if (name === undefined) throw new CError(unsupportedSyntax(d.span, 'a declaration without a name'));
      if (decl.specs.storage === 'typedef') {
        this.declareName(name, nameSpan, 'typedef', undefined);
        // C11 lets a typedef be declared again, as the same type only.
        const before = this.typedefOf.get(name);
        if (before && !sameType(before, type)) {
          throw new CError(conflict(nameSpan, `'${name}' is a typedef of ${typeName(type)} here and of ${typeName(before)} before`));
        }
        this.typedefOf.set(name, type);
        this.typedefs.set(name, named(type, name));
        continue;
      }
      if (type.kind === 'function') {
        this.declareName(name, nameSpan, 'function', decl.specs.storage === 'static' ? 'static' : 'follows');
        const info: FunctionInfo = {
          kind: 'function', name, type, params: params ?? [], span: nameSpan, unit: this.unit.file,
          isStatic: decl.specs.storage === 'static', fromOverride: this.isOverride,
        };
        this.linker.declareFunction(info, undefined);
        this.ordinary.set(name, this.linker.resolveFunction(this.unit.file, name) ?? info);
        continue;
      }
      if (d.init) throw new CError(globalInitializer(d.init.span, name));
      const storage = decl.specs.storage;
      this.declareName(name, nameSpan, 'variable', storage === 'static' ? 'static' : storage === 'extern' ? 'follows' : 'external');
      this.checkGlobalType(type, nameSpan, name);
      const align = Math.max(alignOf(type), this.alignedAttr([...decl.specs.attributes, ...d.attributes]) ?? 1);
      const g: GlobalVar = { kind: 'global', name, type, span: nameSpan, isStatic: decl.specs.storage === 'static', align };
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

  protected functionDefinition(def: FunctionDef): void {
    const base = this.specsType(def.specs);
    const { name, type, params } = this.applyDeclarator(base, def.declarator);
    if (name === undefined || type.kind !== 'function') throw new CError(unsupportedSyntax(def.span, 'this function definition'));
    if (params!.some((p) => p.name === '')) {
      throw new CError(unsupportedSyntax(def.declarator.span, 'a parameter without a name in a definition'));
    }
    this.declareName(name, declaredNameSpan(def.declarator), 'function', def.specs.storage === 'static' ? 'static' : 'follows');
    const info: FunctionInfo = {
      kind: 'function', name, type, params: params!, body: def.body, span: declaredNameSpan(def.declarator),
      unit: this.unit.file, isStatic: def.specs.storage === 'static', fromOverride: this.isOverride,
    };
    this.linker.declareFunction(info, def);
    this.ordinary.set(name, info);
    this.pendingBodies.push({ def, info });
  }

  /**
   * Records a file-scope declaration of `name`, refusing what gcc refuses:
   * an enumerator declared twice, one name as two kinds of thing, and a
   * `static` declaration after one with external linkage (or a definition
   * without `static` after a `static` one). `linkage` is what the
   * declaration says: `static`; `external` (an object defined without a
   * storage class); `follows` (`extern`, or a function without a storage
   * class: the linkage of an earlier declaration, else external).
   */
  private declareName(name: string, span: CSpan, what: FileScopeName['what'], linkage: 'static' | 'external' | 'follows' | undefined): void {
    if (this.inBlock()) return;
    const first = this.fileScope.get(name);
    if (!first) {
      this.fileScope.set(name, { what, span, internal: linkage === 'static' });
      return;
    }
    const at = where(first.span);
    if (what === 'enumerator' && first.what === 'enumerator') throw new CError(conflict(span, `redeclaration of enumerator '${name}' (also at ${at})`));
    if (what !== first.what && (what === 'enumerator' || first.what === 'enumerator' || what === 'typedef' || first.what === 'typedef')) {
      throw new CError(conflict(span, `'${name}' is declared as ${article(what)} here and as ${article(first.what)} at ${at}`));
    }
    if (linkage === 'static' && !first.internal) throw new CError(conflict(span, `static declaration of '${name}' follows a non-static declaration at ${at}`));
    if (linkage === 'external' && first.internal) throw new CError(conflict(span, `non-static declaration of '${name}' follows a static declaration at ${at}`));
  }

  /** Inside a function body (typing.ts keeps block scopes); enumerators and typedefs there are not file-scope names. */
  protected abstract inBlock(): boolean;

  /** The type named by declaration specifiers (defining any struct or enum in them). */
  protected specsType(specs: DeclSpecs): CType {
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

  /**
   * An enum's underlying type and its enumerators' values, as gcc gives
   * them: an enumerator that fits int has type int, any other keeps the
   * type of its value's expression, and an implicit value is the one before
   * plus one in that type, so it must not overflow it.
   */
  private enumType(ts: Extract<DeclSpecs['type'], { kind: 'enum' }>): IntType {
    if (!ts.enumerators) {
      const t = this.enumTags.get(ts.tag!);
      if (!t) throw new CError(incompleteType(ts.span, `enum ${ts.tag}`));
      return t;
    }
    const values: { name: string; value: bigint; span: CSpan }[] = [];
    let prev: { value: bigint; type: IntType } | undefined;
    for (const en of ts.enumerators) {
      this.declareName(en.name, en.span, 'enumerator', undefined);
      let value: bigint;
      let type: IntType;
      if (en.value) {
        value = this.constant(en.value, 'an enumerator value');
        type = fits(value, INT) ? INT : (this.expr(en.value) as IntType);
      } else {
        value = prev ? prev.value + 1n : 0n;
        type = prev?.type ?? INT;
        if (!fits(value, type)) throw new CError(enumOverflow(en.span, en.name, value, typeName(type)));
      }
      values.push({ name: en.name, value, span: en.span });
      // Enumerators can be used by the following ones, with the type they have so far.
      this.ordinary.set(en.name, { kind: 'enum', name: en.name, value, type });
      prev = { value, type };
    }
    const name = ts.tag ? `enum ${ts.tag}` : 'enum';
    // gcc: the underlying type is int if every value fits, else unsigned int,
    // long or unsigned long; an enumerator that fits in int has type int.
    const all = values.map((x) => x.value);
    const fitsAll = (t: IntType) => all.every((v) => fits(v, t));
    let under: IntType;
    if (fitsAll(INT)) under = intType(32, true, name);
    else if (fitsAll(UINT)) under = intType(32, false, name);
    else if (fitsAll(LONG)) under = intType(64, true, name);
    else if (fitsAll(ULONG)) under = intType(64, false, name);
    else throw new CError(enumRange(ts.span));
    for (const v of values) {
      const type = fits(v.value, INT) ? INT : under;
      this.ordinary.set(v.name, { kind: 'enum', name: v.name, value: normalize(v.value, type), type });
    }
    if (ts.tag) this.enumTags.set(ts.tag, under);
    return under;
  }

  /** Applies a declarator to a base type: the declared name, its type, and (for functions) the parameters. */
  protected applyDeclarator(
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

  protected typeNameType(tn: TypeName): CType {
    const known = this.sema.typeNames.get(tn);
    if (known) return known;
    const { type } = this.applyDeclarator(this.specsType(tn.specs), tn.declarator);
    this.sema.typeNames.set(tn, type);
    return type;
  }
}

/** A file-scope identifier as first declared in a unit: what it is, where, and whether it has internal linkage. */
interface FileScopeName {
  readonly what: 'enumerator' | 'typedef' | 'variable' | 'function';
  readonly span: CSpan;
  readonly internal: boolean;
}

function article(what: FileScopeName['what']): string {
  return what === 'enumerator' ? 'an enumerator' : `a ${what}`;
}

function where(s: CSpan): string {
  return `${s.file}:${s.line}:${s.column}`;
}

/** Whether `v` is a value of the integer type `t`. */
function fits(v: bigint, t: IntType): boolean {
  const w = BigInt(t.width);
  return t.signed ? v >= -(1n << (w - 1n)) && v < 1n << (w - 1n) : v >= 0n && v < 1n << w;
}

/** An integer type renamed after its typedef, for messages (types compare structurally). */
export function named(t: CType, name: string): CType {
  return t.kind === 'int' ? { ...t, name } : t;
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
