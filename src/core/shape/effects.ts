/**
 * What a statement of the shown C reads and writes, for the shape's
 * question "may these two assignments swap?" (docs/shape.md §2). Only
 * what can be proved from the syntax and the subset's memory model
 * (docs/c-subset.md "Memory model") is answered; anything else makes the
 * statement a barrier that nothing crosses.
 *
 * The subset's memory is one map per scalar leaf of a global, named by
 * the global and its field path, and pointers only point into globals, with
 * no pointer arithmetic and no casts between pointer types. So two scalar
 * accesses can be the same cell only when they end in the same struct
 * field, or both name the same global without a field; a dereference of a
 * pointer without a field (`*p`, `p[i]`) may be any cell of any global.
 * Each access gets a key:
 *
 * - `v:x` a local variable or parameter (no pointer ever points at one);
 * - `g:x` a global without a field (`current`, `pages[pn][i]`);
 * - `f:x` any struct field named `x`, whatever its struct and however it is
 *   reached (`p->x`, `proc_table[i].x`, `p->r.x`);
 * - `m:*` any cell of any global (a dereference without a field).
 *
 * A statement is simple when it is one assignment or `++`/`--` with no call
 * (a call may do anything: `assert` is one), no other assignment inside,
 * and every access is of a scalar (a struct read or written whole, or a
 * field of struct type, is refused).
 */
import type { Expr, Stmt } from '../c/index.ts';

export interface Effects {
  readonly reads: ReadonlySet<string>;
  readonly writes: ReadonlySet<string>;
}

/** What the analysis knows of the shown code's names. */
export interface ShapeScope {
  /** Locals and parameters of the function the statement is in. */
  readonly locals: ReadonlySet<string>;
  /** Globals whose elements are structs (read or written whole when no field follows). */
  readonly structGlobals: ReadonlySet<string>;
  /** Struct fields declared, somewhere in the shown code, with a struct type (not a pointer). */
  readonly structFields: ReadonlySet<string>;
}

class Refused extends Error {}

/** The effects of `s` when it is a simple assignment, else undefined (a barrier). */
export function simpleEffects(s: Stmt, scope: ShapeScope): Effects | undefined {
  if (s.kind !== 'expr') return undefined;
  const reads = new Set<string>();
  const writes = new Set<string>();
  const e = unparen(s.expr);
  try {
    if (e.kind === 'assign') {
      const key = place(e.target, scope, reads);
      writes.add(key);
      if (e.op !== '=') reads.add(key);
      value(e.value, scope, reads);
    } else if (e.kind === 'incdec') {
      const key = place(e.operand, scope, reads);
      writes.add(key);
      reads.add(key);
    } else return undefined;
  } catch (err) {
    if (err instanceof Refused) return undefined;
    throw err;
  }
  return { reads, writes };
}

/** Whether two keys may name the same cell. */
function keysMeet(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === 'm:*') return b.startsWith('g:') || b.startsWith('f:');
  if (b === 'm:*') return a.startsWith('g:') || a.startsWith('f:');
  return false;
}

/** Whether `a` and `b` may not swap: one writes what the other reads or writes. */
export function conflict(a: Effects, b: Effects): boolean {
  const meets = (xs: ReadonlySet<string>, ys: ReadonlySet<string>) => [...xs].some((x) => [...ys].some((y) => keysMeet(x, y)));
  return meets(a.writes, b.writes) || meets(a.writes, b.reads) || meets(b.writes, a.reads);
}

function unparen(e: Expr): Expr {
  return e.kind === 'paren' ? unparen(e.inner) : e;
}

/**
 * The key of the scalar cell `e` names (an lvalue), adding to `reads` what
 * computing its address reads (indices, the pointer it goes through).
 */
function place(expr: Expr, scope: ShapeScope, reads: Set<string>): string {
  const e = unparen(expr);
  switch (e.kind) {
    case 'ident':
      if (scope.locals.has(e.name)) return `v:${e.name}`;
      if (scope.structGlobals.has(e.name)) throw new Refused();
      return `g:${e.name}`;
    case 'member':
      if (scope.structFields.has(e.name)) throw new Refused();
      address(e.object, e.arrow, scope, reads);
      return `f:${e.name}`;
    case 'index': {
      value(e.index, scope, reads);
      const base = arrayBase(e.object, scope, reads);
      if (base.startsWith('g:') && scope.structGlobals.has(base.slice(2))) throw new Refused();
      if (base.startsWith('f:') && scope.structFields.has(base.slice(2))) throw new Refused();
      return base;
    }
    case 'deref':
      value(e.operand, scope, reads);
      return 'm:*';
    default:
      throw new Refused();
  }
}

/**
 * The key of the array `e` is an element of: a global array, an array
 * field, or (a pointer indexed) any cell.
 */
function arrayBase(expr: Expr, scope: ShapeScope, reads: Set<string>): string {
  const e = unparen(expr);
  if (e.kind === 'ident' && !scope.locals.has(e.name)) return `g:${e.name}`;
  if (e.kind === 'member') {
    address(e.object, e.arrow, scope, reads);
    return `f:${e.name}`;
  }
  if (e.kind === 'index') {
    // A row of a multi-dimensional array: the same array (a pointer read from a
    // table of pointers is not in the subset's globals, which hold no pointers).
    value(e.index, scope, reads);
    return arrayBase(e.object, scope, reads);
  }
  // A pointer (a local, a parameter, a computed one) indexed: any cell.
  value(e, scope, reads);
  return 'm:*';
}

/** What reaching the struct `e` (`e.f`, or `e->f` when `arrow`) reads. */
function address(e: Expr, arrow: boolean, scope: ShapeScope, reads: Set<string>): void {
  if (arrow) value(e, scope, reads);
  else within(e, scope, reads);
}

/** The reads of naming the object `expr` without reading it (its indices, its pointers). */
function within(expr: Expr, scope: ShapeScope, reads: Set<string>): void {
  const e = unparen(expr);
  switch (e.kind) {
    case 'ident':
      return;
    case 'member':
      return address(e.object, e.arrow, scope, reads);
    case 'index':
      value(e.index, scope, reads);
      return within(e.object, scope, reads);
    case 'deref':
      return value(e.operand, scope, reads);
    default:
      throw new Refused();
  }
}

/** Adds the cells evaluating `expr` reads; refuses calls and side effects. */
function value(expr: Expr, scope: ShapeScope, reads: Set<string>): void {
  const e = unparen(expr);
  switch (e.kind) {
    case 'int':
    case 'char':
    case 'string':
    case 'sizeof-type':
    case 'sizeof-expr':
      return;
    case 'ident':
      // A local, a global scalar or array (its address), or a constant: reading one
      // whole struct global is not a scalar read.
      if (!scope.locals.has(e.name) && scope.structGlobals.has(e.name)) throw new Refused();
      reads.add(scope.locals.has(e.name) ? `v:${e.name}` : `g:${e.name}`);
      return;
    case 'member':
    case 'index':
    case 'deref':
      reads.add(place(e, scope, reads));
      return;
    case 'addr':
      // `&x`: no cell is read, only what locating x reads.
      return within(e.operand, scope, reads);
    case 'unary':
    case 'cast':
      return value(e.operand, scope, reads);
    case 'binary':
    case 'logical':
      value(e.left, scope, reads);
      return value(e.right, scope, reads);
    case 'cond':
      value(e.test, scope, reads);
      value(e.then, scope, reads);
      return value(e.else, scope, reads);
    case 'call':
    case 'assign':
    case 'incdec':
    case 'paren':
      throw new Refused();
  }
}
