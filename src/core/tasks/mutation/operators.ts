/**
 * The mutation operators as a table: each has a name, the class of bug it
 * plants, a description, and `sites`, the mutations it makes at one syntax
 * node. `mutationsOf` (../mutate.ts) walks a function once and asks every
 * operator at every node, in the order of this table; that order is part of
 * the task generator's determinism (the same kernel gives the same task set),
 * so new operators go at the end.
 */
import type { Binary, Expr, If, Stmt } from '../../c/index.ts';
import { type Node, isStmt, unparen } from '../c-walk.ts';
import type { BugClass } from '../task.ts';
import type { Mutation, OperatorName } from './types.ts';
import { type FunctionView, depth, isNamed, sameNamed } from './view.ts';
import { CLEARED, CURRENT, PID_TYPE, RELEASES, UPPER_BOUND } from './vocabulary.ts';

export interface Operator {
  /** The bug class it plants; `by-check` when it follows what the weakened check tests. */
  readonly bugClass: BugClass | 'by-check';
  /** What it does, for `osvlab task show` and docs. */
  readonly description: string;
  /** The mutations it makes at node `n` (never inside a macro use; the caller filters those). */
  sites(f: FunctionView, n: Node, parent: Node | undefined): Mutation[];
}

type IfCheck = { readonly s: If; readonly err: string; readonly inBlock: boolean };
type ExprStmt = Stmt & { kind: 'expr' };

/** `n` as a check (`if (cond) return -E...;`), else undefined. */
function check(f: FunctionView, n: Node, parent: Node | undefined): IfCheck | undefined {
  if (!isStmt(n) || n.kind !== 'if') return undefined;
  const err = f.checkReturn(n);
  return err ? { s: n, err, inBlock: parent?.kind === 'block' } : undefined;
}

/** `n` as an expression statement directly in a block, else undefined. */
function effect(n: Node, parent: Node | undefined): ExprStmt | undefined {
  return isStmt(n) && n.kind === 'expr' && parent?.kind === 'block' ? n : undefined;
}

function expr<K extends Expr['kind']>(n: Node, kind: K): (Expr & { kind: K }) | undefined {
  return !isStmt(n) && (n as Expr).kind === kind ? (n as Expr & { kind: K }) : undefined;
}

/**
 * Drops one guard from a condition. In an acceptance (a predicate's return
 * value) a guard is a conjunct of `&&`, looked for through `||` operands; in
 * a rejection (`if (a || b) return -E`) it is a disjunct.
 */
function dropGuards(f: FunctionView, e: Expr, mode: 'accept' | 'reject', err: string | undefined, out: Mutation[]): void {
  const t = unparen(e);
  if (t.kind !== 'logical') return;
  if (t.op === (mode === 'accept' ? '&&' : '||')) {
    for (const [drop, keep] of [[t.left, t.right], [t.right, t.left]] as const) {
      out.push(f.make('drop-guard', f.checkClass(err, drop), drop.span.offset, [f.replace(t, f.src(keep))], `dropped "${f.src(drop)}" from "${f.src(t)}"`));
    }
  }
  dropGuards(f, t.left, mode, err, out);
  dropGuards(f, t.right, mode, err, out);
}

/** An identifier as a pointer-like read: its binding and the names it may not become. */
function pointerRead(f: FunctionView, n: Node, parent: Node | undefined) {
  const e = expr(n, 'ident');
  if (!e) return undefined;
  const b = f.ctx.program.sema.bindings.get(e);
  if (!b) return undefined;
  // Never turn a comparison into `x == x`.
  const other = f.comparedWith(e, parent);
  return { e, b, usable: (name: string) => name !== other, read: f.readPosition(e, parent) };
}

/** A parameter read where another value of its type could stand. */
function paramRead(f: FunctionView, n: Node, parent: Node | undefined) {
  const r = pointerRead(f, n, parent);
  const b = r?.b;
  if (!r || b?.kind !== 'local' || !r.read || !f.info.params.some((p) => p.id === b.id)) return undefined;
  return { e: r.e, b, usable: r.usable, where: f.src(parent as Expr) };
}

function bound(f: FunctionView, n: Node): { b: Binary; rhs: string } | undefined {
  const b = expr(n, 'binary');
  return b ? { b, rhs: f.src(b.right).trim() } : undefined;
}

export const OPERATORS: Readonly<Record<OperatorName, Operator>> = {
  'drop-check': {
    bugClass: 'by-check',
    description: 'a check `if (cond) return -E...;` is removed; the class follows what it checks (ownership or permission: incorrect-privilege; an upper bound on an index: buffer-overflow; validity, type or state: bounds-checking)',
    sites(f, n, parent) {
      const c = check(f, n, parent);
      const rm = c?.inBlock ? f.removal(c.s) : undefined;
      if (!c || !rm) return [];
      return [f.make('drop-check', f.checkClass(c.err, c.s.test), c.s.span.offset, [rm], `removed the check "${f.shownCheck(c.s, c.err)}"`)];
    },
  },
  'invert-check': {
    bugClass: 'incorrect-privilege',
    description: 'incorrect-privilege: an ownership or permission check has its condition negated',
    sites(f, n, parent) {
      const c = check(f, n, parent);
      if (!c || f.checkClass(c.err, c.s.test) !== 'incorrect-privilege') return [];
      const inv = f.negation(c.s.test);
      return inv ? [f.make('invert-check', 'incorrect-privilege', c.s.test.span.offset, [inv], `negated the check "${f.shownCheck(c.s, c.err)}"`)] : [];
    },
  },
  'drop-guard': {
    bugClass: 'by-check',
    description: 'one conjunct of a validity predicate (or one disjunct of a rejection condition) is removed; classed like drop-check',
    sites(f, n, parent) {
      const out: Mutation[] = [];
      const c = check(f, n, parent);
      if (c && unparen(c.s.test).kind === 'logical' && (unparen(c.s.test) as Expr & { kind: 'logical' }).op === '||') {
        dropGuards(f, unparen(c.s.test), 'reject', c.err, out);
      }
      if (isStmt(n) && n.kind === 'return' && n.value && f.returnsBool) dropGuards(f, n.value, 'accept', undefined, out);
      return out;
    },
  },
  'drop-release': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a call that frees a page, a descriptor or a process slot is removed',
    sites(f, n, parent) {
      const s = effect(n, parent);
      if (!s || s.expr.kind !== 'call' || !RELEASES.has(s.expr.callee.name)) return [];
      const rm = f.removal(s);
      return rm ? [f.make('drop-release', 'memory-leak', s.span.offset, [rm], `removed the call "${f.src(s.expr)}"`)] : [];
    },
  },
  'drop-decrement': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a counter decrement on a release path is removed',
    sites(f, n, parent) {
      const s = effect(n, parent);
      const rm = s?.expr.kind === 'incdec' && s.expr.op === '--' ? f.removal(s) : undefined;
      return s && rm ? [f.make('drop-decrement', 'memory-leak', s.span.offset, [rm], `removed "${f.src(s)}"`)] : [];
    },
  },
  'drop-increment': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a counter increment is removed (the object is never accounted, so never reclaimed)',
    sites(f, n, parent) {
      const s = effect(n, parent);
      const rm = s?.expr.kind === 'incdec' && s.expr.op === '++' ? f.removal(s) : undefined;
      return s && rm ? [f.make('drop-increment', 'memory-leak', s.span.offset, [rm], `removed "${f.src(s)}"`)] : [];
    },
  },
  'flip-counter': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a counter moves the wrong way (`++` for `--` or the reverse)',
    sites(f, n, parent) {
      const s = effect(n, parent);
      const e = s?.expr;
      if (!s || e?.kind !== 'incdec') return [];
      const opAt = e.prefix ? e.span.offset : e.span.endOffset - 2;
      const flipped = e.op === '--' ? '++' : '--';
      return [
        f.make('flip-counter', 'memory-leak', s.span.offset, [{ offset: opAt, end: opAt + 2, text: flipped }],
          `"${f.src(e)}" became "${e.prefix ? flipped + f.src(e.operand) : f.src(e.operand) + flipped}"`),
      ];
    },
  },
  'drop-clear': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a store that clears a field (to 0, FREE, NONE or UNUSED) is removed',
    sites(f, n, parent) {
      const s = effect(n, parent);
      const e = s?.expr;
      if (!s || e?.kind !== 'assign' || e.op !== '=' || !CLEARED.test(f.src(e.value).trim())) return [];
      const rm = f.removal(s);
      return rm ? [f.make('drop-clear', 'memory-leak', s.span.offset, [rm], `removed the clearing store "${f.src(s)}"`)] : [];
    },
  },
  'flip-bit-clear': {
    bugClass: 'memory-leak',
    description: 'memory-leak: a bit that should be cleared (`x &= ~m`) is set instead (`x |= m`)',
    sites(f, n, parent) {
      const s = effect(n, parent);
      const e = s?.expr;
      if (!s || e?.kind !== 'assign' || e.op !== '&=' || e.value.kind !== 'unary' || e.value.op !== '~') return [];
      const gap = f.text.slice(e.target.span.endOffset, e.value.span.offset);
      const at = e.target.span.endOffset + gap.indexOf('&=');
      return [
        f.make('flip-bit-clear', 'memory-leak', s.span.offset, [
          { offset: at, end: at + 2, text: '|=' },
          { offset: e.value.span.offset, end: e.value.operand.span.offset, text: '' },
        ], `"${f.src(e)}" became "${f.src(e.target)} |= ${f.src(e.value.operand)}"`),
      ];
    },
  },
  'current-to-target': {
    bugClass: 'incorrect-pointer',
    description: 'incorrect-pointer: `current` is replaced by a pid argument (the target instead of the caller)',
    sites(f, n, parent) {
      const r = pointerRead(f, n, parent);
      if (!r || r.b.kind !== 'global' || r.e.name !== CURRENT || !r.read) return [];
      return f.info.params
        .filter((p) => isNamed(p.type, PID_TYPE) && r.usable(p.name))
        .map((p) => f.make('current-to-target', 'incorrect-pointer', r.e.span.offset, [f.replace(r.e, p.name)], `"${CURRENT}" became "${p.name}" in "${f.src(parent as Expr)}"`, p.name));
    },
  },
  'wrong-table': {
    bugClass: 'incorrect-pointer',
    description: 'incorrect-pointer: a global table is replaced by another with the same element type',
    sites(f, n, parent) {
      const r = pointerRead(f, n, parent);
      if (!r || r.b.kind !== 'global' || (r.e.name === CURRENT && r.read)) return [];
      const p = parent && !isStmt(parent) ? (parent as Expr) : undefined;
      const type = r.b.type;
      if (p?.kind !== 'index' || p.object !== r.e || type.kind !== 'array') return [];
      const out: Mutation[] = [];
      for (const g of f.ctx.program.globals.values()) {
        if (g.name === r.e.name || g.type.kind !== 'array') continue;
        if (!sameNamed(g.type.of, type.of) || depth(g.type) !== depth(type)) continue;
        out.push(f.make('wrong-table', 'incorrect-pointer', r.e.span.offset, [f.replace(r.e, g.name)], `"${r.e.name}" became "${g.name}"`, g.name));
      }
      return out;
    },
  },
  'target-to-current': {
    bugClass: 'incorrect-pointer',
    description: 'incorrect-pointer: a pid argument is replaced by `current` (the caller instead of the target)',
    sites(f, n, parent) {
      const r = paramRead(f, n, parent);
      if (!r || !isNamed(r.b.type, PID_TYPE) || !f.ctx.program.globals.has(CURRENT) || !r.usable(CURRENT)) return [];
      return [f.make('target-to-current', 'incorrect-pointer', r.e.span.offset, [f.replace(r.e, CURRENT)], `"${r.e.name}" became "${CURRENT}" in "${r.where}"`)];
    },
  },
  'swap-argument': {
    bugClass: 'incorrect-pointer',
    description: 'incorrect-pointer: an argument is replaced by another parameter of the same type (`from` for `to`, `oldfd` for `newfd`)',
    sites(f, n, parent) {
      const r = paramRead(f, n, parent);
      if (!r) return [];
      return f.info.params
        .filter((p) => p.id !== r.b.id && sameNamed(p.type, r.b.type) && r.usable(p.name))
        .map((p) => f.make('swap-argument', 'incorrect-pointer', r.e.span.offset, [f.replace(r.e, p.name)], `"${r.e.name}" became "${p.name}" in "${r.where}"`, p.name));
    },
  },
  'off-by-one-bound': {
    bugClass: 'buffer-overflow',
    description: 'buffer-overflow: an upper bound `x < N` becomes `x <= N` (or `x >= N` becomes `x > N`)',
    sites(f, n) {
      const x = bound(f, n);
      if (!x || !UPPER_BOUND.test(x.rhs) || (x.b.op !== '<' && x.b.op !== '>=')) return [];
      const op = x.b.op === '<' ? '<=' : '>';
      const edit = f.opEdit(x.b, op);
      return edit ? [f.make('off-by-one-bound', 'buffer-overflow', x.b.span.offset, [edit], `"${f.src(x.b)}" became "${f.src(x.b.left)} ${op} ${x.rhs}"`)] : [];
    },
  },
  'loosen-lower-bound': {
    bugClass: 'bounds-checking',
    description: 'bounds-checking: a strict lower bound `x > 0` becomes `x >= 0`',
    sites(f, n) {
      const x = bound(f, n);
      if (!x || x.b.op !== '>' || x.rhs !== '0') return [];
      const edit = f.opEdit(x.b, '>=');
      return edit ? [f.make('loosen-lower-bound', 'bounds-checking', x.b.span.offset, [edit], `"${f.src(x.b)}" became "${f.src(x.b.left)} >= 0"`)] : [];
    },
  },
  'shrink-divisor': {
    bugClass: 'buffer-overflow',
    description: 'buffer-overflow: a word index `x / 64` becomes `x / 32`, past the end of the array',
    sites(f, n) {
      const b = expr(n, 'binary');
      const d = b?.right;
      if (!b || b.op !== '/' || d?.kind !== 'int' || f.inMacro(d) || d.value < 4n || (d.value & (d.value - 1n)) !== 0n) return [];
      const half = (d.value / 2n).toString();
      return [f.make('shrink-divisor', 'buffer-overflow', b.span.offset, [f.replace(d, half)], `"${f.src(b)}" became "${f.src(b.left)} / ${half}"`)];
    },
  },
  'index-plus-one': {
    bugClass: 'buffer-overflow',
    description: 'buffer-overflow: an index `a[i]` becomes `a[i + 1]`',
    sites(f, n) {
      const e = expr(n, 'index');
      if (!e) return [];
      const i = unparen(e.index);
      if (i.kind === 'int' || i.kind === 'char' || f.inMacro(e.index)) return [];
      const low = e.index.kind === 'cond' || e.index.kind === 'assign' || ((e.index.kind === 'binary' || e.index.kind === 'logical') && !['*', '/', '%'].includes(e.index.op));
      const text = low ? `(${f.src(e.index)}) + 1` : `${f.src(e.index)} + 1`;
      return [f.make('index-plus-one', 'buffer-overflow', e.index.span.offset, [f.replace(e.index, text)], `"${f.src(e)}" became "${f.src(e.object)}[${text}]"`)];
    },
  },
  'wrong-field': {
    bugClass: 'incorrect-pointer',
    description: 'incorrect-pointer: a struct field is replaced by a neighbouring field of the same type',
    sites(f, n, parent) {
      const e = expr(n, 'member');
      let t = e && f.ctx.program.sema.types.get(e.object);
      if (!e || !t) return [];
      if (e.arrow) {
        if (t.kind !== 'pointer') return [];
        t = t.to;
      }
      if (t.kind !== 'struct') return [];
      const members = t.members.filter((m) => m.name !== undefined);
      const k = members.findIndex((m) => m.name === e.name);
      if (k < 0) return [];
      const same = members.filter((m) => m.name !== e.name && sameNamed(m.type, members[k].type));
      // The nearest neighbours of the same type: a slip of the eye, not a random field.
      same.sort((a, b) => Math.abs(members.indexOf(a) - k) - Math.abs(members.indexOf(b) - k) || members.indexOf(a) - members.indexOf(b));
      const where = parent && !isStmt(parent) ? f.src(parent as Expr) : f.src(e);
      return same.slice(0, 2).map((m) =>
        f.make('wrong-field', 'incorrect-pointer', e.nameSpan.offset, [{ offset: e.nameSpan.offset, end: e.nameSpan.endOffset, text: m.name! }],
          `field "${e.name}" became "${m.name}" in "${where}"`, m.name),
      );
    },
  },
};
