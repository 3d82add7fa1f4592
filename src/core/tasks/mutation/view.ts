/**
 * One kernel function as the mutation operators see it: its text, where
 * macro uses are, how to build edits at node spans, and the classification of
 * checks (ownership, upper bound, validity) that decides a bug's class.
 *
 * Operators never look inside a macro use (`assert(...)`, `PTE_ADDR(x)`):
 * every token of an expansion carries the span of the whole use, so a
 * sub-node there has no text of its own to rewrite.
 */
import {
  type Binary, type CType, type Expr, type FunctionInfo, type If, type Logical, type Stmt,
  lex, sameType,
} from '../../c/index.ts';
import type { SourceIndex, SourceItem } from '../c-source.ts';
import { leadingCommentStart } from '../c-source.ts';
import { type Node, isStmt, unparen } from '../c-walk.ts';
import type { BugClass } from '../task.ts';
import type { Mutation, MutationContext, OperatorName, TextEdit } from './types.ts';
import {
  CURRENT, OWNER_FIELDS, OWNER_TABLES, OWNERSHIP_PREDICATES, PERMISSION_BITS, PRIVILEGE_ERRNO, PRIVILEGE_FIELD, UPPER_BOUND,
} from './vocabulary.ts';

export class FunctionView {
  readonly text: string;
  readonly macroRanges: [number, number][];
  readonly returnsBool: boolean;
  /** The function is itself an ownership predicate: every check in it is a privilege check. */
  readonly ownership: boolean;

  constructor(
    readonly ctx: MutationContext,
    readonly item: SourceItem,
    readonly info: FunctionInfo,
  ) {
    this.text = ctx.index.files.get(item.file)!;
    this.macroRanges = macroUses(this.text, item, ctx.index);
    const ret = info.type.ret;
    this.returnsBool = ret.kind === 'int' && ret.bool;
    this.ownership = OWNERSHIP_PREDICATES.has(item.name);
  }

  src(n: { span: { offset: number; endOffset: number } }): string {
    return this.text.slice(n.span.offset, n.span.endOffset);
  }

  /** Inside a macro use (sub-nodes of an expansion have no text of their own). */
  inMacro(n: Node): boolean {
    return this.macroRanges.some(([a, b]) => a <= n.span.offset && n.span.endOffset <= b);
  }

  where(offset: number): string {
    const before = this.text.slice(0, offset);
    const line = before.split('\n').length;
    const col = offset - before.lastIndexOf('\n');
    return `${line}:${col}`;
  }

  make(operator: OperatorName, bugClass: BugClass, at: number, edits: TextEdit[], description: string, alt?: string): Mutation {
    return {
      id: `${this.item.name}/${operator}@${this.where(at)}${alt ? `/${alt}` : ''}`,
      operator, bugClass, function: this.item.name, file: this.item.file, edits, description,
    };
  }

  /** An edit removing statement `s` with its own lines and the comment right above it; undefined if it shares a line. */
  removal(s: Stmt): TextEdit | undefined {
    const { offset, endOffset } = s.span;
    const ls = this.text.lastIndexOf('\n', offset - 1) + 1;
    if (this.text.slice(ls, offset).trim() !== '') return undefined;
    let le = this.text.indexOf('\n', endOffset);
    if (le < 0) le = this.text.length;
    if (this.text.slice(endOffset, le).trim() !== '') return undefined;
    return { offset: leadingCommentStart(this.text, ls), end: Math.min(le + 1, this.text.length), text: '' };
  }

  replace(n: Node, text: string): TextEdit {
    return { offset: n.span.offset, end: n.span.endOffset, text };
  }

  /** The edit that swaps the operator token of a binary expression. */
  opEdit(b: Binary | Logical, op: string): TextEdit | undefined {
    const from = b.left.span.endOffset;
    const gap = this.text.slice(from, b.right.span.offset);
    const i = gap.indexOf(b.op);
    if (i < 0) return undefined;
    return { offset: from + i, end: from + i + b.op.length, text: op };
  }

  // ---------------------------------------------------------------- checks

  /** `if (cond) return -E...;` (or `return r;`) with no else: the error it returns, else undefined. */
  checkReturn(s: If): string | undefined {
    if (s.else) return undefined;
    let then: Stmt = s.then;
    if (then.kind === 'block' && then.items.length === 1) then = then.items[0];
    if (then.kind !== 'return' || !then.value) return undefined;
    const v = unparen(then.value);
    if (v.kind === 'unary' && v.op === '-' && /^E[A-Z]+$/.test(this.src(v.operand))) return this.src(v.operand);
    if (v.kind === 'ident') return v.name;
    return undefined;
  }

  /** The class of bug that removing or weakening a check returning `err` plants. */
  checkClass(err: string | undefined, test: Expr): BugClass {
    return err === PRIVILEGE_ERRNO ? 'incorrect-privilege' : this.guardClass(test);
  }

  /** How a check reads in a description: `if (cond) return -EINVAL;`. */
  shownCheck(s: If, err: string): string {
    return `if (${this.src(s.test)}) return ${err === 'r' || !/^E/.test(err) ? err : `-${err}`};`;
  }

  negation(test: Expr): TextEdit | undefined {
    const t = test;
    if (t.kind === 'unary' && t.op === '!') return this.replace(t, this.src(t.operand));
    if (t.kind === 'binary' && (t.op === '!=' || t.op === '==')) return this.opEdit(t, t.op === '!=' ? '==' : '!=');
    return this.replace(t, `!(${this.src(t)})`);
  }

  /** What kind of check a condition is: ownership or permission, an upper bound, or validity. */
  guardClass(e: Expr): BugClass {
    if (this.ownership || this.isOwnership(e)) return 'incorrect-privilege';
    if (this.isUpperBound(e)) return 'buffer-overflow';
    return 'bounds-checking';
  }

  isOwnership(e: Expr): boolean {
    if (PERMISSION_BITS.test(this.src(e))) return true;
    let found = false;
    const visit = (x: Expr): void => {
      if (found) return;
      const u = unparen(x);
      if (u.kind === 'call' && OWNERSHIP_PREDICATES.has(u.callee.name)) found = true;
      else if (u.kind === 'binary' && (u.op === '==' || u.op === '!=') && (this.isOwnerOperand(u.left) || this.isOwnerOperand(u.right))) found = true;
      else if (u.kind === 'member' && u.name === PRIVILEGE_FIELD) found = true;
      else for (const c of children(u)) visit(c);
    };
    visit(e);
    return found;
  }

  isOwnerOperand(e: Expr): boolean {
    const u = unparen(e);
    if (u.kind === 'ident') return u.name === CURRENT;
    if (u.kind === 'member') return OWNER_FIELDS.has(u.name);
    if (u.kind === 'index') {
      const o = unparen(u.object);
      return o.kind === 'ident' && OWNER_TABLES.has(o.name);
    }
    return false;
  }

  isUpperBound(e: Expr): boolean {
    const u = unparen(e);
    if (u.kind === 'unary' && u.op === '!') return false;
    return u.kind === 'binary' && ['<', '<=', '>', '>='].includes(u.op) && UPPER_BOUND.test(this.src(u.right).trim());
  }

  // ---------------------------------------------------------------- pointer positions

  /** Where an identifier is read as a pointer-like value: a call argument, an index, or a compared operand. */
  readPosition(e: Expr, parent: Node | undefined): boolean {
    if (!parent || isStmt(parent)) return false;
    const p = parent as Expr;
    if (p.kind === 'call') return p.callee !== e;
    if (p.kind === 'index') return p.index === e;
    if (p.kind === 'binary') return ['==', '!='].includes(p.op);
    if (p.kind === 'assign') return p.value === e && p.op === '=';
    return false;
  }

  /** The other operand when `e` is compared with ==/!=, else undefined. */
  comparedWith(e: Expr, parent: Node | undefined): string | undefined {
    if (!parent || isStmt(parent)) return undefined;
    const p = parent as Expr;
    if (p.kind !== 'binary' || (p.op !== '==' && p.op !== '!=')) return undefined;
    return this.src(p.left === e ? p.right : p.left).trim();
  }
}

function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'paren': return [e.inner];
    case 'unary': case 'addr': case 'deref': case 'incdec': case 'cast': case 'sizeof-expr': return [e.operand];
    case 'binary': case 'logical': return [e.left, e.right];
    case 'assign': return [e.target, e.value];
    case 'cond': return [e.test, e.then, e.else];
    case 'member': return [e.object];
    case 'index': return [e.object, e.index];
    case 'call': return [...e.args];
    default: return [];
  }
}

export function isNamed(t: CType, name: string): boolean {
  return t.kind === 'int' && t.name === name;
}

/** Same type, and for integers the same spelling (pn_t is not size_t here). */
export function sameNamed(a: CType, b: CType): boolean {
  if (!sameType(a, b)) return false;
  if (a.kind === 'int' && b.kind === 'int') return a.name === b.name;
  if (a.kind === 'array' && b.kind === 'array') return sameNamed(a.of, b.of);
  return true;
}

export function depth(t: CType): number {
  return t.kind === 'array' ? 1 + depth(t.of) : 0;
}

const lexed = new WeakMap<SourceIndex, Map<string, ReturnType<typeof lex>['tokens']>>();

/** The [start, end) ranges of the macro uses inside a function's text. */
function macroUses(text: string, item: SourceItem, index: SourceIndex): [number, number][] {
  let perIndex = lexed.get(index);
  if (!perIndex) lexed.set(index, (perIndex = new Map()));
  let toks = perIndex.get(item.file);
  if (!toks) perIndex.set(item.file, (toks = lex(item.file, text).tokens));
  const out: [number, number][] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.span.offset < item.bodyStart || t.span.offset >= item.end || t.kind !== 'ident') continue;
    const m = index.macros.get(t.text);
    if (!m) continue;
    if (!m.params) {
      out.push([t.span.offset, t.span.endOffset]);
      continue;
    }
    if (toks[i + 1]?.text !== '(') continue;
    let depthN = 0;
    let j = i + 1;
    for (; j < toks.length; j++) {
      if (toks[j].text === '(') depthN++;
      else if (toks[j].text === ')' && --depthN === 0) break;
    }
    out.push([t.span.offset, toks[Math.min(j, toks.length - 1)].span.endOffset]);
  }
  return out;
}
