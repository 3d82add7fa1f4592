/**
 * Mutation operators: the five classes of xv6-style bugs as rewrites of one
 * kernel C function. Each operator finds its sites on the syntax tree (with
 * the names and types Sema resolved) and describes each mutation as text
 * edits at the nodes' spans in the original file, so a mutated function keeps
 * the kernel's formatting and comments everywhere except at the edit.
 *
 * Operators never look inside a macro use (`assert(...)`, `PTE_ADDR(x)`):
 * every token of an expansion carries the span of the whole use, so a
 * sub-node there has no text of its own to rewrite.
 */
import {
  type Binary, type CProgram, type CType, type Expr, type FunctionInfo, type If, type Logical, type Stmt,
  isHook, lex, sameType,
} from '../c/index.ts';
import type { SourceIndex, SourceItem } from './c-source.ts';
import { leadingCommentStart } from './c-source.ts';
import { type Node, isStmt, unparen, walk } from './c-walk.ts';
import type { BugClass } from './task.ts';

/** Replace [offset, end) of the file text with `text`. */
export interface TextEdit {
  readonly offset: number;
  readonly end: number;
  readonly text: string;
}

export interface Mutation {
  /** Stable and unique per kernel: `<function>/<operator>@<line>:<column>[/<alternative>]`. */
  readonly id: string;
  readonly operator: OperatorName;
  readonly bugClass: BugClass;
  readonly function: string;
  readonly file: string;
  /** Edits in the file's text, not overlapping, in any order. */
  readonly edits: readonly TextEdit[];
  /** One line saying what changed. */
  readonly description: string;
}

/** The operators and the bug each one plants. */
export const OPERATORS = {
  'target-to-current': 'incorrect-pointer: a pid argument is replaced by `current` (the caller instead of the target)',
  'current-to-target': 'incorrect-pointer: `current` is replaced by a pid argument (the target instead of the caller)',
  'swap-argument': 'incorrect-pointer: an argument is replaced by another parameter of the same type (`from` for `to`, `oldfd` for `newfd`)',
  'wrong-table': 'incorrect-pointer: a global table is replaced by another with the same element type',
  'wrong-field': 'incorrect-pointer: a struct field is replaced by a neighbouring field of the same type',
  'drop-check': 'a check `if (cond) return -E...;` is removed; the class follows what it checks (ownership or permission: incorrect-privilege; an upper bound on an index: buffer-overflow; validity, type or state: bounds-checking)',
  'invert-check': 'incorrect-privilege: an ownership or permission check has its condition negated',
  'drop-guard': 'one conjunct of a validity predicate (or one disjunct of a rejection condition) is removed; classed like drop-check',
  'loosen-lower-bound': 'bounds-checking: a strict lower bound `x > 0` becomes `x >= 0`',
  'off-by-one-bound': 'buffer-overflow: an upper bound `x < N` becomes `x <= N` (or `x >= N` becomes `x > N`)',
  'index-plus-one': 'buffer-overflow: an index `a[i]` becomes `a[i + 1]`',
  'shrink-divisor': 'buffer-overflow: a word index `x / 64` becomes `x / 32`, past the end of the array',
  'drop-release': 'memory-leak: a call that frees a page, a descriptor or a process slot is removed',
  'drop-decrement': 'memory-leak: a counter decrement on a release path is removed',
  'drop-increment': 'memory-leak: a counter increment is removed (the object is never accounted, so never reclaimed)',
  'flip-counter': 'memory-leak: a counter moves the wrong way (`++` for `--` or the reverse)',
  'drop-clear': 'memory-leak: a store that clears a field (to 0, FREE, NONE or UNUSED) is removed',
  'flip-bit-clear': 'memory-leak: a bit that should be cleared (`x &= ~m`) is set instead (`x |= m`)',
} as const;

export type OperatorName = keyof typeof OPERATORS;

/** What the operators read: the linked kernel and its source index. */
export interface MutationContext {
  readonly program: CProgram;
  readonly index: SourceIndex;
}

/** Ownership predicates: everything they test is a privilege check. */
const OWNERSHIP_PREDICATES = new Set(['is_current_or_embryo', 'is_page_pid', 'is_dmapage_pid', 'is_pcipn_pid']);
/** Release helpers whose call a leak drops. */
const RELEASES = new Set(['free_page', 'clear_fd', 'free_proc']);
/** Spellings of an upper bound: table sizes, the page size, a count parameter. */
const UPPER_BOUND = /^(N[A-Z]+|PAGE_SIZE|npages|PORTS_PER_BITMAP)$/;
/** Spellings of the "empty" values a clearing store writes. */
const CLEARED = /^(0|0UL|NULLPID|[A-Z_]*_(FREE|NONE|UNUSED))$/;
/** Owner tables: comparing an entry is an ownership test. */
const OWNER_TABLES = new Set(['pci_table', 'vector_table', 'io_table']);
const OWNER_FIELDS = new Set(['ppid', 'pid', 'use_io_bitmap']);
const PERMISSION_BITS = /\b(PTE_W|PTE_PERM_MASK|DMAR_PTE_R|DMAR_PTE_W)\b/;

/** All mutations of function `name` (none for modelled built-ins or unknown names). */
export function mutationsOf(ctx: MutationContext, name: string): Mutation[] {
  const item = ctx.index.functions.get(name);
  const info = ctx.program.functions.get(name);
  if (!item?.def || !info || isHook(name)) return [];
  const f = new FunctionView(ctx, item, info);
  const out: Mutation[] = [];
  walk(item.def.body, (node, parents) => f.visit(node, parents, out));
  const seen = new Set<string>();
  return out.filter((m) => !seen.has(m.id) && (seen.add(m.id), true));
}

class FunctionView {
  readonly text: string;
  readonly macroRanges: [number, number][];
  readonly returnsBool: boolean;
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

  visit(n: Node, parents: readonly Node[], out: Mutation[]): void {
    if (this.inMacro(n)) return;
    const parent = parents[parents.length - 1];
    if (isStmt(n)) {
      const inBlock = parent?.kind === 'block';
      if (n.kind === 'if') this.checks(n, inBlock, out);
      if (n.kind === 'return' && n.value && this.returnsBool) this.guards(n.value, 'accept', undefined, out);
      if (n.kind === 'expr' && inBlock) this.effects(n, out);
      return;
    }
    const e = n as Expr;
    switch (e.kind) {
      case 'ident':
        this.pointers(e, parent, out);
        break;
      case 'binary':
        this.bounds(e, out);
        break;
      case 'index':
        this.indices(e, out);
        break;
      case 'member':
        this.fields(e, parent, out);
        break;
      default:
        break;
    }
  }

  // ---------------------------------------------------------------- checks and guards

  /** `if (cond) return -E...;` (or `return r;`) with no else: the error return of a check. */
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

  checks(s: If, inBlock: boolean, out: Mutation[]): void {
    const err = this.checkReturn(s);
    if (!err) return;
    const cls = err === 'EACCES' ? 'incorrect-privilege' : this.guardClass(s.test);
    const shown = `if (${this.src(s.test)}) return ${err === 'r' || !/^E/.test(err) ? err : `-${err}`};`;
    const rm = inBlock ? this.removal(s) : undefined;
    if (rm) out.push(this.make('drop-check', cls, s.span.offset, [rm], `removed the check "${shown}"`));
    if (cls === 'incorrect-privilege') {
      const inv = this.negation(s.test);
      if (inv) out.push(this.make('invert-check', cls, s.test.span.offset, [inv], `negated the check "${shown}"`));
    }
    const t = unparen(s.test);
    if (t.kind === 'logical' && t.op === '||') this.guards(t, 'reject', err, out);
  }

  negation(test: Expr): TextEdit | undefined {
    const t = test;
    if (t.kind === 'unary' && t.op === '!') return this.replace(t, this.src(t.operand));
    if (t.kind === 'binary' && (t.op === '!=' || t.op === '==')) return this.opEdit(t, t.op === '!=' ? '==' : '!=');
    return this.replace(t, `!(${this.src(t)})`);
  }

  /**
   * Drops one guard from a condition. In an acceptance (a predicate's return
   * value) a guard is a conjunct of `&&`, looked for through `||` operands; in
   * a rejection (`if (a || b) return -E`) it is a disjunct.
   */
  guards(e: Expr, mode: 'accept' | 'reject', err: string | undefined, out: Mutation[]): void {
    const t = unparen(e);
    if (t.kind !== 'logical') return;
    const dropOp = mode === 'accept' ? '&&' : '||';
    if (t.op === dropOp) {
      for (const [drop, keep] of [[t.left, t.right], [t.right, t.left]] as const) {
        const cls = err === 'EACCES' ? 'incorrect-privilege' : this.guardClass(drop);
        out.push(
          this.make('drop-guard', cls, drop.span.offset, [this.replace(t, this.src(keep))], `dropped "${this.src(drop)}" from "${this.src(t)}"`),
        );
      }
    }
    this.guards(t.left, mode, err, out);
    this.guards(t.right, mode, err, out);
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
      else if (u.kind === 'member' && u.name === 'use_io_bitmap') found = true;
      else for (const c of children(u)) visit(c);
    };
    visit(e);
    return found;
  }

  isOwnerOperand(e: Expr): boolean {
    const u = unparen(e);
    if (u.kind === 'ident') return u.name === 'current';
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

  // ---------------------------------------------------------------- comparisons and indices

  bounds(b: Binary, out: Mutation[]): void {
    const rhs = this.src(b.right).trim();
    if (UPPER_BOUND.test(rhs) && (b.op === '<' || b.op === '>=')) {
      const op = b.op === '<' ? '<=' : '>';
      const edit = this.opEdit(b, op);
      if (edit) out.push(this.make('off-by-one-bound', 'buffer-overflow', b.span.offset, [edit], `"${this.src(b)}" became "${this.src(b.left)} ${op} ${rhs}"`));
    }
    if (b.op === '>' && rhs === '0') {
      const edit = this.opEdit(b, '>=');
      if (edit) out.push(this.make('loosen-lower-bound', 'bounds-checking', b.span.offset, [edit], `"${this.src(b)}" became "${this.src(b.left)} >= 0"`));
    }
    if (b.op === '/' && b.right.kind === 'int' && !this.inMacro(b.right) && b.right.value >= 4n && (b.right.value & (b.right.value - 1n)) === 0n) {
      const half = (b.right.value / 2n).toString();
      out.push(
        this.make('shrink-divisor', 'buffer-overflow', b.span.offset, [this.replace(b.right, half)], `"${this.src(b)}" became "${this.src(b.left)} / ${half}"`),
      );
    }
  }

  indices(e: Expr & { kind: 'index' }, out: Mutation[]): void {
    const i = unparen(e.index);
    if (i.kind === 'int' || i.kind === 'char' || this.inMacro(e.index)) return;
    const low = e.index.kind === 'cond' || e.index.kind === 'assign' || ((e.index.kind === 'binary' || e.index.kind === 'logical') && !['*', '/', '%'].includes(e.index.op));
    const text = low ? `(${this.src(e.index)}) + 1` : `${this.src(e.index)} + 1`;
    out.push(this.make('index-plus-one', 'buffer-overflow', e.index.span.offset, [this.replace(e.index, text)], `"${this.src(e)}" became "${this.src(e.object)}[${text}]"`));
  }

  // ---------------------------------------------------------------- effects

  effects(s: Stmt & { kind: 'expr' }, out: Mutation[]): void {
    const e = s.expr;
    const rm = this.removal(s);
    if (e.kind === 'call' && RELEASES.has(e.callee.name)) {
      if (rm) out.push(this.make('drop-release', 'memory-leak', s.span.offset, [rm], `removed the call "${this.src(e)}"`));
      return;
    }
    if (e.kind === 'incdec') {
      const dec = e.op === '--';
      if (rm) out.push(this.make(dec ? 'drop-decrement' : 'drop-increment', 'memory-leak', s.span.offset, [rm], `removed "${this.src(s)}"`));
      const opAt = e.prefix ? e.span.offset : e.span.endOffset - 2;
      const flipped = dec ? '++' : '--';
      out.push(
        this.make('flip-counter', 'memory-leak', s.span.offset, [{ offset: opAt, end: opAt + 2, text: flipped }],
          `"${this.src(e)}" became "${e.prefix ? flipped + this.src(e.operand) : this.src(e.operand) + flipped}"`),
      );
      return;
    }
    if (e.kind === 'assign' && e.op === '=' && CLEARED.test(this.src(e.value).trim())) {
      if (rm) out.push(this.make('drop-clear', 'memory-leak', s.span.offset, [rm], `removed the clearing store "${this.src(s)}"`));
      return;
    }
    if (e.kind === 'assign' && e.op === '&=' && e.value.kind === 'unary' && e.value.op === '~') {
      const gap = this.text.slice(e.target.span.endOffset, e.value.span.offset);
      const at = e.target.span.endOffset + gap.indexOf('&=');
      out.push(
        this.make('flip-bit-clear', 'memory-leak', s.span.offset, [
          { offset: at, end: at + 2, text: '|=' },
          { offset: e.value.span.offset, end: e.value.operand.span.offset, text: '' },
        ], `"${this.src(e)}" became "${this.src(e.target)} |= ${this.src(e.value.operand)}"`),
      );
    }
  }

  // ---------------------------------------------------------------- pointers

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

  pointers(e: Expr & { kind: 'ident' }, parent: Node | undefined, out: Mutation[]): void {
    const b = this.ctx.program.sema.bindings.get(e);
    if (!b) return;
    // Never turn a comparison into `x == x`.
    const other = this.comparedWith(e, parent);
    const usable = (name: string) => name !== other;
    const params = this.info.params;
    const pidParams = params.filter((p) => isNamed(p.type, 'pid_t'));
    if (b.kind === 'global' && e.name === 'current' && this.readPosition(e, parent)) {
      for (const p of pidParams.filter((x) => usable(x.name))) {
        out.push(this.make('current-to-target', 'incorrect-pointer', e.span.offset, [this.replace(e, p.name)], `"current" became "${p.name}" in "${this.src(parent as Expr)}"`, p.name));
      }
      return;
    }
    if (b.kind === 'global' && parent && !isStmt(parent) && (parent as Expr).kind === 'index' && (parent as Expr & { kind: 'index' }).object === e) {
      this.tables(e, b.type, out);
      return;
    }
    if (b.kind !== 'local' || !params.some((p) => p.id === b.id) || !this.readPosition(e, parent)) return;
    const where = this.src(parent as Expr);
    if (isNamed(b.type, 'pid_t') && this.ctx.program.globals.has('current') && usable('current')) {
      out.push(this.make('target-to-current', 'incorrect-pointer', e.span.offset, [this.replace(e, 'current')], `"${e.name}" became "current" in "${where}"`));
    }
    for (const p of params) {
      if (p.id === b.id || !sameNamed(p.type, b.type) || !usable(p.name)) continue;
      out.push(this.make('swap-argument', 'incorrect-pointer', e.span.offset, [this.replace(e, p.name)], `"${e.name}" became "${p.name}" in "${where}"`, p.name));
    }
  }

  tables(e: Expr & { kind: 'ident' }, type: CType, out: Mutation[]): void {
    if (type.kind !== 'array') return;
    for (const g of this.ctx.program.globals.values()) {
      if (g.name === e.name || g.type.kind !== 'array') continue;
      if (!sameNamed(g.type.of, type.of) || depth(g.type) !== depth(type)) continue;
      out.push(this.make('wrong-table', 'incorrect-pointer', e.span.offset, [this.replace(e, g.name)], `"${e.name}" became "${g.name}"`, g.name));
    }
  }

  fields(e: Expr & { kind: 'member' }, parent: Node | undefined, out: Mutation[]): void {
    let t = this.ctx.program.sema.types.get(e.object);
    if (!t) return;
    if (e.arrow) {
      if (t.kind !== 'pointer') return;
      t = t.to;
    }
    if (t.kind !== 'struct') return;
    const members = t.members.filter((m) => m.name !== undefined);
    const k = members.findIndex((m) => m.name === e.name);
    if (k < 0) return;
    const same = members.filter((m) => m.name !== e.name && sameNamed(m.type, members[k].type));
    // The nearest neighbours of the same type: a slip of the eye, not a random field.
    same.sort((a, b) => Math.abs(members.indexOf(a) - k) - Math.abs(members.indexOf(b) - k) || members.indexOf(a) - members.indexOf(b));
    const where = parent && !isStmt(parent) ? this.src(parent as Expr) : this.src(e);
    for (const m of same.slice(0, 2)) {
      out.push(
        this.make('wrong-field', 'incorrect-pointer', e.nameSpan.offset, [{ offset: e.nameSpan.offset, end: e.nameSpan.endOffset, text: m.name! }],
          `field "${e.name}" became "${m.name}" in "${where}"`, m.name),
      );
    }
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

function isNamed(t: CType, name: string): boolean {
  return t.kind === 'int' && t.name === name;
}

/** Same type, and for integers the same spelling (pn_t is not size_t here). */
function sameNamed(a: CType, b: CType): boolean {
  if (!sameType(a, b)) return false;
  if (a.kind === 'int' && b.kind === 'int') return a.name === b.name;
  if (a.kind === 'array' && b.kind === 'array') return sameNamed(a.of, b.of);
  return true;
}

function depth(t: CType): number {
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

