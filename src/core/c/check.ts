/**
 * Semantic analysis of one translation unit: resolves declarations to C
 * types (structs laid out, enums valued, typedefs followed), declares the
 * unit's globals and functions into the program being linked, and checks
 * function bodies: every identifier is bound, every expression gets a type,
 * and constructs outside the subset are rejected with a span. The results
 * live in side tables (`Sema`) that the symbolic executor reads.
 *
 * This file is the checker of one unit and of its statements; its parts are
 * in check/: sema.ts (the side tables and the linker contract),
 * declarations.ts (types, layout, globals and functions), typing.ts
 * (expressions), const-eval.ts (integer constant expressions). Each layer
 * extends the one below: Declarations, Typing, UnitChecker.
 */
import { type Block, type Declaration, type FunctionDef, type Stmt, declaredNameSpan } from './ast.ts';
import {
  CError, conflict, staticAssertFailed, structValue, typeMismatch, unsupportedSyntax, unsupportedType, type CDiagnostic,
} from './errors.ts';
import { typeName } from './types.ts';
import { named } from './check/declarations.ts';
import type { FunctionInfo, LocalVar } from './check/sema.ts';
import { Typing } from './check/typing.ts';

interface FnContext {
  readonly fn: FunctionInfo;
  loops: number;
}

/** Checks one translation unit against the program being linked. */
export class UnitChecker extends Typing {
  private ctx?: FnContext;
  readonly errors: CDiagnostic[] = [];

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

  private functionBody(def: FunctionDef, info: FunctionInfo): void {
    const t = info.type;
    if (t.ret.kind === 'struct' || t.ret.kind === 'array') throw new CError(structValue(def.declarator.span, typeName(t.ret)));
    for (const p of info.params) if (p.type.kind === 'struct') throw new CError(structValue(p.span, typeName(p.type)));
    this.ctx = { fn: info, loops: 0 };
    this.scopes = [{ names: new Map(info.params.map((p) => [p.name, p])) }];
    this.block(def.body, false);
  }

  protected block(b: Block, newScope = true): void {
    if (newScope) this.scopes.push({ names: new Map() });
    for (const s of b.items) this.stmt(s);
    if (newScope) this.scopes.pop();
  }

  protected stmt(s: Stmt): void {
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
}
