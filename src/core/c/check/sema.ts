/**
 * What the checker produces and what it needs: the bindings an identifier
 * can resolve to, the side tables (`Sema`) the symbolic executor reads, and
 * the `Linker`, the program being linked as the checker of one unit sees it
 * (program.ts implements it). Apart from the checker so that the executor
 * and the linker depend on the results, not on how they are computed.
 */
import type { Block, Call, CSpan, Expr, FunctionDef, Ident, InitDeclarator, TypeName } from '../ast.ts';
import type { CType, FunctionType, IntType, StructType } from '../types.ts';

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
  /** The alignment this declaration gives the global's address, in bytes: its type's, or a larger `aligned(N)`. */
  readonly align: number;
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
