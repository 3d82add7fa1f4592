/**
 * The symbolic executor: runs a C function of a checked program on symbolic
 * arguments and memory, exploring every path and merging them, and returns
 * the return value and final memory as terms, plus the safety conditions
 * the caller must prove (array bounds, division by zero, shift amounts,
 * `assert`, unreachable `panic`).
 *
 * Paths. The executor keeps one current state (path condition, memory,
 * locals). An `if` runs both branches under their conditions and merges
 * them with `If` where they differ. A `return` (at any depth), `break`,
 * `continue` or `panic` ends the current path: its state is stashed and the
 * path condition of what follows is narrowed; stashed states are merged
 * where control meets again (end of function, loop exit, end of loop body).
 * Calls are inlined. Loops must have a constant trip count and are
 * unrolled. After a safety condition the path continues as if it held; its
 * condition is assumed in the antecedents of later conditions.
 *
 * Facts. The conjuncts of the path condition and of the passed safety
 * conditions decide later tests and checks syntactically: an accessor's
 * `assert(is_pid_valid(pid))` after the handler's own check records
 * nothing, and `if (r != 0) return r;` on a helper's merged error code
 * teaches the rest of the path that the helper's checks passed.
 */
import type { MapFn } from '../smt/fn.ts';
import * as o from '../smt/ops.ts';
import { Term, bvConst, fresh, isFalse, isTrue } from '../smt/term.ts';
import type { Block, Call, CSpan, Expr, Stmt } from './ast.ts';
import { type FunctionInfo, type LocalVar, decay } from './check.ts';
import {
  type CDiagnostic, CError, badArguments, badPointer, callDepth, execTooDeep, internal, loopBound, loopLimit, noSuchFunction,
  notLvalue, nowhere, stringDeref, recursion, stepLimit, structValue, termTooLarge, tooManyPaths, unknownFunction, withDetail,
} from './errors.ts';
import { HOOKS, type HookContext, type HookModel, type Val } from './hooks.ts';
import type { SafetyCondition, SafetyKind } from './safety.ts';
export type { SafetyCondition, SafetyKind } from './safety.ts';
import {
  DEFAULT_MAX_STEPS, MAX_CALL_DEPTH, MAX_EXEC_DEPTH, MAX_PATHS, MAX_TERM_DEPTH, mapDepth, termDepth,
} from './limits.ts';
import {
  type CMemory, NULL_PTR, iteMap, type ObjPtr, type Ptr, type Step, accessibleAs, address, globalPtr, leafKey, mapPtr, mkIfPtr,
  ptrCases, ptrEquals, ptrNonNull, readScalar, writeScalar,
} from './memory.ts';
import { printExpr } from './print.ts';
import type { CProgram } from './program.ts';
import {
  type CType, type IntType, boolToInt, convertInt, eqTerm, findMember, promote, resizeTerm, sizeOf, truthOf, typeName,
  usualArithmetic,
} from './types.ts';

export interface ExecOptions {
  /** Statement and expression evaluations before giving up (default 200,000, limits.ts). */
  readonly maxSteps?: number;
}

export type ExecResult =
  | {
      readonly ok: true;
      /** The merged return value (sort = the return width; the Bool `true` for a void function). */
      readonly ret: Term;
      readonly mem: CMemory;
      readonly safety: SafetyCondition[];
      readonly stats: { readonly paths: number; readonly steps: number };
    }
  | { readonly ok: false; readonly error: CDiagnostic };

// Below the step limit, so that an endless loop gets the message that says so.
const MAX_LOOP_ITERATIONS = 20_000;

/** Thrown when the current path ends inside an expression (every path of a call panicked). */
class PathDied {}

interface State {
  pc: Term;
  /** Safety conditions already passed on this path (assumed from now on). */
  asm: Term;
  mem: CMemory;
  locals: Map<number, Val>;
  dead: boolean;
}

/** A stashed path: where control left (return, break, continue) and with what. */
interface Exit {
  readonly pc: Term;
  readonly asm: Term;
  readonly mem: CMemory;
  readonly locals?: Map<number, Val>;
  readonly value?: Val;
}

interface LoopCtx {
  readonly breaks: Exit[];
  continues: Exit[];
}

interface Frame {
  readonly fn: FunctionInfo;
  readonly returns: Exit[];
  readonly loops: LoopCtx[];
}

type Loc = { readonly kind: 'local'; readonly v: LocalVar } | { readonly kind: 'mem'; readonly ptr: Ptr };

function isTerm(v: Val | undefined): v is Term {
  return v instanceof Term;
}

/**
 * Runs function `name` of `program` on `args` (one term per parameter, of
 * its width) from memory `mem`. Returns the merged return value, the final
 * memory and the safety conditions, or an error with a span.
 */
export function execFunction(
  program: CProgram,
  name: string,
  mem: CMemory,
  args: readonly Term[],
  opts: ExecOptions = {},
): ExecResult {
  const fn = program.functions.get(name);
  const where = fn?.span ?? nowhere(program.units[0]?.file ?? '<program>');
  if (!fn || !fn.body) return failed(noSuchFunction(where, name), program);
  if (args.length !== fn.params.length) {
    return failed(badArguments(where, `'${name}' takes ${fn.params.length} arguments, got ${args.length}`), program);
  }
  for (let i = 0; i < args.length; i++) {
    const p = fn.params[i];
    if (p.type.kind !== 'int') return failed(badArguments(p.span, `parameter '${p.name}' is a pointer; only integer arguments can be given`), program);
    if (args[i].sort !== p.type.width) {
      return failed(badArguments(p.span, `argument ${i + 1} ('${p.name}') must be ${p.type.width} bits wide, got sort ${args[i].sort}`), program);
    }
  }
  const ex = new Executor(program, opts.maxSteps ?? DEFAULT_MAX_STEPS);
  const st: State = { pc: o.TRUE, asm: o.TRUE, mem, locals: new Map(), dead: false };
  const width = fn.type.ret.kind === 'int' ? fn.type.ret.width : fn.type.ret.kind === 'pointer' ? 64 : 0;
  try {
    let value: Val | undefined;
    let paths = 0;
    try {
      const r = ex.inline(st, fn, [...args], fn.span);
      value = r.value;
      paths = r.paths;
    } catch (e) {
      if (!(e instanceof PathDied)) throw e;
      st.mem = mem; // every path panics: nothing is reachable
    }
    let ret: Term;
    if (width === 0) ret = o.TRUE;
    else if (value === undefined) ret = bvConst(0n, width);
    else ret = isTerm(value) ? value : address(value);
    return { ok: true, ret, mem: st.mem, safety: ex.safety, stats: { paths, steps: ex.steps } };
  } catch (e) {
    if (e instanceof CError) return failed(e.diagnostic, program);
    // The depth limits should make this unreachable; if not, it is still the input's nesting, not a bug.
    if (e instanceof RangeError && /call stack/i.test(e.message)) return failed(execTooDeep(ex.at, MAX_EXEC_DEPTH), program);
    const why = e instanceof Error ? e.message : String(e);
    return failed(internal(ex.at, why), program);
  }
}

function failed(d: CDiagnostic, program: CProgram): ExecResult {
  return { ok: false, error: withDetail(d, program.files) };
}

/** The conjuncts of a Bool term. */
function conjuncts(t: Term): readonly Term[] {
  return t.op === 'and' ? t.args : isTrue(t) ? [] : [t];
}

/** `pc` without the conjuncts it shares with `base` (valid wherever `base` holds). */
function relGuard(pc: Term, base: Term): Term {
  if (pc === base) return o.TRUE;
  const b = new Set(conjuncts(base).map((c) => c.id));
  return o.and(...conjuncts(pc).filter((c) => !b.has(c.id)));
}

/** The disjunction of path conditions that all extend `base`. */
function joinPc(pcs: readonly Term[], base: Term): Term {
  return o.and(base, o.or(...pcs.map((p) => relGuard(p, base))));
}

/**
 * Guards for an If-chain `If(g1, v1, If(g2, v2, ...))`: in the else branch
 * of g1, conjuncts of later guards that say `not g1` are dropped.
 */
function chainGuards(gs: readonly Term[]): Term[] {
  const known = new Set<number>();
  return gs.map((g) => {
    const kept = conjuncts(g).filter((c) => !known.has(c.id));
    const h = kept.length === conjuncts(g).length ? g : o.and(...kept);
    // In the else branch, not(g) holds, and so does each of its conjuncts.
    for (const c of [...conjuncts(o.not(g)), ...conjuncts(o.not(h))]) known.add(c.id);
    return h;
  });
}

/** Folds `If(g1, v1, If(g2, v2, ... vn))`, skipping equal neighbours and undefined values. */
function foldChain<T>(guards: readonly Term[], vals: readonly (T | undefined)[], ite: (c: Term, a: T, b: T) => T): T | undefined {
  let i = vals.length - 1;
  while (i >= 0 && vals[i] === undefined) i--;
  if (i < 0) return undefined;
  let acc: T = vals[i] as T;
  i--;
  while (i >= 0) {
    const v = vals[i];
    if (v === undefined || v === acc) {
      i--;
      continue;
    }
    const gs = [guards[i]];
    let j = i - 1;
    while (j >= 0 && (vals[j] === v || vals[j] === undefined)) {
      if (vals[j] === v) gs.push(guards[j]);
      j--;
    }
    acc = ite(o.or(...gs), v as T, acc);
    i = j;
  }
  return acc;
}

/**
 * Merges the assumptions of paths under an If-chain, keeping the conjuncts
 * they all share as plain conjuncts (so they stay usable as facts).
 */
function mergeAssumptions(guards: readonly Term[], asms: readonly Term[]): Term {
  if (asms.every((a) => a === asms[0])) return asms[0];
  const sets = asms.map((a) => new Set(conjuncts(a).map((c) => c.id)));
  const common = conjuncts(asms[0]).filter((c) => sets.every((set) => set.has(c.id)));
  const shared = new Set(common.map((c) => c.id));
  const rests = asms.map((a) => o.and(...conjuncts(a).filter((c) => !shared.has(c.id))));
  return o.and(...common, foldChain(guards, rests, o.ite)!);
}

function mergeVal(c: Term, a: Val, b: Val): Val {
  if (a === b) return a;
  if (isTerm(a) && isTerm(b)) return o.ite(c, a, b);
  if (!isTerm(a) && !isTerm(b)) return mkIfPtr(c, a, b);
  throw new Error('merging an integer with a pointer');
}

function mergeMem(c: Term, a: CMemory, b: CMemory): CMemory {
  if (a === b) return a;
  const out = new Map<string, MapFn>();
  for (const [k, fa] of a) {
    const fb = b.get(k)!;
    out.set(k, fa === fb ? fa : iteMap(c, fa, fb));
  }
  return out;
}

function mergeLocals(c: Term, a: Map<number, Val>, b: Map<number, Val>): Map<number, Val> {
  const out = new Map<number, Val>();
  for (const [k, va] of a) {
    const vb = b.get(k);
    if (vb !== undefined) out.set(k, mergeVal(c, va, vb));
  }
  return out;
}

/** Merges stashed paths that all extend `base`, in the order they were stashed. */
function mergeExits(exits: readonly Exit[], base: Term): Exit {
  if (exits.length === 1) return exits[0];
  const guards = chainGuards(exits.map((x) => relGuard(x.pc, base)));
  const pc = joinPc(exits.map((x) => x.pc), base);
  const asm = mergeAssumptions(guards, exits.map((x) => x.asm));
  const mem = new Map<string, MapFn>();
  for (const k of exits[0].mem.keys()) {
    mem.set(k, foldChain(guards, exits.map((x) => x.mem.get(k)!), iteMap)!);
  }
  const value = foldChain<Val>(guards, exits.map((x) => x.value), mergeVal);
  let locals: Map<number, Val> | undefined;
  if (exits.every((x) => x.locals)) {
    locals = new Map();
    for (const k of exits[0].locals!.keys()) {
      const vs = exits.map((x) => x.locals!.get(k));
      if (vs.some((v) => v === undefined)) continue;
      locals.set(k, foldChain<Val>(guards, vs, mergeVal)!);
    }
  }
  return { pc, asm, mem, locals, value };
}

class Executor {
  readonly safety: SafetyCondition[] = [];
  steps = 0;
  /** The statement or expression being executed (for internal errors). */
  at: CSpan;
  private readonly frames: Frame[] = [];
  private deaths = 0;
  private returns = 0;
  private breaks = 0;
  /** Paths stashed by return, break and continue (bounded by MAX_PATHS). */
  private exits = 0;
  /** Statements and expressions being executed (bounded by MAX_EXEC_DEPTH). */
  private depth = 0;
  private factsOf?: { pc: Term; asm: Term; set: Set<number> };

  constructor(
    private readonly program: CProgram,
    private readonly maxSteps: number,
  ) {
    this.at = nowhere(program.units[0]?.file ?? '<program>');
  }

  private get sema() {
    return this.program.sema;
  }

  private tick(span: CSpan): void {
    this.at = span;
    if (++this.steps > this.maxSteps) throw new CError(stepLimit(span, this.maxSteps));
  }

  private frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  private enter(span: CSpan): void {
    if (++this.depth > MAX_EXEC_DEPTH) throw new CError(execTooDeep(span, MAX_EXEC_DEPTH));
  }

  /** Stashes one more path; refuses more than MAX_PATHS. */
  private exit(span: CSpan): void {
    if (++this.exits > MAX_PATHS) throw new CError(tooManyPaths(span, MAX_PATHS));
  }

  /** Refuses a value too deep for the term passes that recurse (limits.ts). */
  private bounded(v: Val | undefined, span: CSpan): void {
    if (v !== undefined && valDepth(v) > MAX_TERM_DEPTH) throw new CError(termTooLarge(span, MAX_TERM_DEPTH));
  }

  /** Refuses a memory whose reads would build terms too deep, and a path condition or assumption too deep. */
  private boundedState(st: { pc: Term; asm: Term; mem: CMemory; locals?: Map<number, Val> }, span: CSpan): void {
    for (const f of st.mem.values()) if (mapDepth(f) > MAX_TERM_DEPTH) throw new CError(termTooLarge(span, MAX_TERM_DEPTH));
    this.bounded(st.pc, span);
    this.bounded(st.asm, span);
    if (st.locals) for (const v of st.locals.values()) this.bounded(v, span);
  }

  /** The conjuncts known on the current path: its condition and the safety conditions it passed. */
  private facts(st: State): Set<number> {
    if (this.factsOf?.pc === st.pc && this.factsOf.asm === st.asm) return this.factsOf.set;
    const set = new Set<number>();
    // Closed under the obvious consequences: a conjunction gives its
    // conjuncts, a negated disjunction each negated disjunct.
    const add = (c: Term, depth: number): void => {
      if (set.has(c.id) || depth > 8) return;
      set.add(c.id);
      if (c.op === 'and') for (const a of c.args) add(a, depth + 1);
      if (c.op === 'not' && c.args[0].op === 'or') for (const a of c.args[0].args) add(o.not(a), depth + 1);
    };
    for (const c of conjuncts(st.pc)) add(c, 0);
    for (const c of conjuncts(st.asm)) add(c, 0);
    this.factsOf = { pc: st.pc, asm: st.asm, set };
    return set;
  }

  /**
   * Simplifies a Bool using the facts of the path: a known conjunct is true,
   * its negation false, through `and`, `or` and `not`. Handlers re-test what
   * they checked already (an accessor asserting a pid the handler
   * validated), so this drops conditions and paths that cannot matter.
   */
  private simplify(st: State, c: Term): Term {
    if (c.op === 'const') return c;
    const facts = this.facts(st);
    if (facts.size === 0) return c;
    const go = (t: Term): Term => {
      if (facts.has(t.id)) return o.TRUE;
      switch (t.op) {
        case 'not': {
          const a = go(t.args[0]);
          return a === t.args[0] ? t : o.not(a);
        }
        case 'and':
        case 'or': {
          const args = t.args.map(go);
          return args.every((a, i) => a === t.args[i]) ? t : t.op === 'and' ? o.and(...args) : o.or(...args);
        }
        default:
          return facts.has(o.not(t).id) ? o.FALSE : t;
      }
    };
    return go(c);
  }

  /** Records a safety condition on the current path and assumes it from now on. */
  private check(st: State, kind: SafetyKind, cond: Term, span: CSpan, message: string): void {
    cond = this.simplify(st, cond);
    if (isTrue(cond)) return;
    const ok = o.implies(o.and(st.pc, st.asm), cond);
    if (!isTrue(ok)) this.safety.push({ kind, ok, span, file: span.file, message });
    st.asm = o.and(st.asm, cond);
  }

  private die(st: State): never {
    this.deaths++;
    st.dead = true;
    throw new PathDied();
  }

  private fork(st: State, c: Term): State {
    return { pc: o.and(st.pc, c), asm: st.asm, mem: st.mem, locals: new Map(st.locals), dead: false };
  }

  /** Runs `f` on a forked state; a path that ends inside it leaves the state dead. */
  private inFork<T>(s: State, f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      if (e instanceof PathDied) {
        s.dead = true;
        return undefined;
      }
      throw e;
    }
  }

  /** Joins the two sides of a branch on `c` (at `span`) back into `st`. */
  private join(st: State, c: Term, t: State, e: State, span: CSpan): void {
    if (t.dead && e.dead) {
      st.dead = true;
      return;
    }
    const from = t.dead ? e : e.dead ? t : undefined;
    if (from) {
      st.pc = from.pc;
      st.asm = from.asm;
      st.mem = from.mem;
      st.locals = from.locals;
      return;
    }
    st.mem = mergeMem(c, t.mem, e.mem);
    st.locals = mergeLocals(c, t.locals, e.locals);
    st.asm = mergeAssumptions([c], [t.asm, e.asm]);
    st.pc = joinPc([t.pc, e.pc], st.pc);
    this.boundedState(st, span);
  }

  // ---------------------------------------------------------------- calls

  /** Inlines `fn` on `args` (already converted to the parameter types). */
  inline(st: State, fn: FunctionInfo, args: Val[], span: CSpan): { value?: Val; paths: number } {
    if (!fn.body) throw new CError(unknownFunction(span, fn.name));
    if (this.frames.some((f) => f.fn.name === fn.name)) throw new CError(recursion(span, fn.name));
    if (this.frames.length >= MAX_CALL_DEPTH) throw new CError(callDepth(span, fn.name, MAX_CALL_DEPTH));
    const frame: Frame = { fn, returns: [], loops: [] };
    this.frames.push(frame);
    const saved = st.locals;
    st.locals = new Map(fn.params.map((p, i) => [p.id, args[i]]));
    const entryPc = st.pc;
    const deaths = this.deaths;
    try {
      this.block(st, fn.body);
      if (!st.dead) frame.returns.push({ pc: st.pc, asm: st.asm, mem: st.mem });
    } finally {
      this.frames.pop();
      st.locals = saved;
    }
    if (frame.returns.length === 0) {
      st.dead = true;
      throw new PathDied();
    }
    const m = mergeExits(frame.returns, entryPc);
    this.boundedState(m, span);
    this.bounded(m.value, span);
    st.pc = this.deaths === deaths ? entryPc : m.pc;
    st.asm = m.asm;
    st.mem = m.mem;
    st.dead = false;
    return { value: m.value, paths: frame.returns.length };
  }

  private call(st: State, e: Call): Val | undefined {
    const fn = this.sema.callees.get(e)!;
    const ps = fn.type.params;
    const args: Val[] = e.args.map((a, i) => {
      const v = this.rvalue(st, a);
      return i < ps.length ? this.convert(v, this.typeOf(a), ps[i], a.span) : v;
    });
    const model = HOOKS.get(fn.name);
    if (model) {
      const v = this.hook(st, e, fn, args, model);
      this.boundedState(st, e.span);
      this.bounded(v, e.span);
      return v;
    }
    return this.inline(st, fn, args, e.span).value;
  }

  private hook(st: State, call: Call, fn: FunctionInfo, args: Val[], model: HookModel): Val | undefined {
    const ctx: HookContext = {
      call,
      args,
      retType: fn.type.ret,
      get mem() {
        return st.mem;
      },
      set mem(m: CMemory) {
        st.mem = m;
      },
      check: (kind, cond, message) => this.check(st, kind, cond, call.span, message),
      die: () => this.die(st),
      fail: (d) => {
        throw new CError(d);
      },
    };
    return model(ctx);
  }

  // ---------------------------------------------------------------- statements

  private block(st: State, b: Block): void {
    for (const s of b.items) {
      if (st.dead) return;
      this.stmt(st, s);
    }
  }

  private stmt(st: State, s: Stmt): void {
    this.tick(s.span);
    this.enter(s.span);
    try {
      this.stmtInner(st, s);
    } catch (e) {
      if (e instanceof PathDied) st.dead = true;
      else throw e;
    } finally {
      this.depth--;
    }
  }

  private stmtInner(st: State, s: Stmt): void {
    switch (s.kind) {
      case 'block':
        return this.block(st, s);
      case 'expr':
        this.eval(st, s.expr);
        return;
      case 'empty':
        return;
      case 'declaration':
        for (const d of s.declarators) {
          const v = this.sema.locals.get(d);
          if (!v) continue;
          let value: Val;
          if (d.init) value = this.convert(this.rvalue(st, d.init), this.typeOf(d.init), v.type, d.init.span);
          else value = v.type.kind === 'int' ? fresh(`undef:${v.name}`, v.type.width) : NULL_PTR;
          this.bounded(value, d.span);
          st.locals.set(v.id, value);
        }
        return;
      case 'if': {
        const c = this.cond(st, s.test);
        if (isTrue(c)) return this.stmt(st, s.then);
        if (isFalse(c)) {
          if (s.else) this.stmt(st, s.else);
          return;
        }
        const t = this.fork(st, c);
        const e = this.fork(st, o.not(c));
        this.stmt(t, s.then);
        if (s.else) this.stmt(e, s.else);
        this.join(st, c, t, e, s.span);
        return;
      }
      case 'return': {
        const fn = this.frame().fn;
        let value: Val | undefined;
        if (s.value) {
          const v = this.rvalue(st, s.value);
          if (fn.type.ret.kind !== 'void') value = this.convert(v, this.typeOf(s.value), fn.type.ret, s.value.span);
        }
        this.exit(s.span);
        this.frame().returns.push({ pc: st.pc, asm: st.asm, mem: st.mem, value });
        this.returns++;
        st.dead = true;
        return;
      }
      case 'break': {
        const loop = this.frame().loops[this.frame().loops.length - 1];
        this.exit(s.span);
        loop.breaks.push({ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals });
        this.breaks++;
        st.dead = true;
        return;
      }
      case 'continue': {
        const loop = this.frame().loops[this.frame().loops.length - 1];
        this.exit(s.span);
        loop.continues.push({ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals });
        st.dead = true;
        return;
      }
      case 'for':
        return this.forLoop(st, s);
      default: {
        const never: never = s;
        throw new CError(internal((never as Stmt).span, 'an unknown statement'));
      }
    }
  }

  private forLoop(st: State, s: Extract<Stmt, { kind: 'for' }>): void {
    if (s.init) this.stmt(st, s.init);
    if (st.dead) return;
    const loop: LoopCtx = { breaks: [], continues: [] };
    const frame = this.frame();
    frame.loops.push(loop);
    const entryPc = st.pc;
    const returns0 = this.returns;
    const deaths0 = this.deaths;
    try {
      for (let iter = 0; ; iter++) {
        if (iter > MAX_LOOP_ITERATIONS) throw new CError(loopLimit(s.span, MAX_LOOP_ITERATIONS));
        if (s.test) {
          let c: Term;
          try {
            c = this.cond(st, s.test);
          } catch (e) {
            if (!(e instanceof PathDied)) throw e;
            st.dead = true;
            break;
          }
          if (isFalse(c)) break;
          if (!isTrue(c)) throw new CError(loopBound(s.test.span));
        }
        const bodyPc = st.pc;
        const before = { returns: this.returns, deaths: this.deaths, breaks: this.breaks };
        loop.continues = [];
        this.stmt(st, s.body);
        if (loop.continues.length) {
          const exits = [...loop.continues, ...(st.dead ? [] : [{ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals }])];
          const m = mergeExits(exits, bodyPc);
          this.boundedState(m, s.span);
          const untouched = this.returns === before.returns && this.deaths === before.deaths && this.breaks === before.breaks;
          st.pc = untouched ? bodyPc : m.pc;
          st.asm = m.asm;
          st.mem = m.mem;
          st.locals = m.locals!;
          st.dead = false;
        }
        if (st.dead) break;
        if (s.step) {
          this.tick(s.step.span);
          try {
            this.eval(st, s.step);
          } catch (e) {
            if (!(e instanceof PathDied)) throw e;
            st.dead = true;
            break;
          }
        }
      }
    } finally {
      frame.loops.pop();
    }
    const exits = [...loop.breaks, ...(st.dead ? [] : [{ pc: st.pc, asm: st.asm, mem: st.mem, locals: st.locals }])];
    if (exits.length === 0) {
      st.dead = true;
      return;
    }
    const m = mergeExits(exits, entryPc);
    this.boundedState(m, s.span);
    st.pc = this.returns === returns0 && this.deaths === deaths0 ? entryPc : m.pc;
    st.asm = m.asm;
    st.mem = m.mem;
    st.locals = m.locals!;
    st.dead = false;
  }

  // ---------------------------------------------------------------- expressions

  private typeOf(e: Expr): CType {
    return decay(this.sema.typeOf(e));
  }

  /** A controlling expression as a Bool, simplified by what the path knows. */
  private cond(st: State, e: Expr): Term {
    const v = this.rvalue(st, e);
    return this.simplify(st, isTerm(v) ? truthOf(v) : ptrNonNull(v));
  }

  /** The value of an expression that must have one. */
  private rvalue(st: State, e: Expr): Val {
    const v = this.eval(st, e);
    if (v === undefined) throw new CError(internal(e.span, 'a void expression used as a value'));
    return v;
  }

  /** Converts a value between C types (assignment, cast, argument, return). */
  private convert(v: Val, from: CType, to: CType, span: CSpan): Val {
    if (to.kind === 'int') {
      if (isTerm(v)) return convertInt(v, from as IntType, to);
      if (to.bool) return boolToInt(ptrNonNull(v), 8);
      return resizeTerm(address(v), to.width, false);
    }
    if (to.kind === 'pointer') {
      if (!isTerm(v)) return v;
      if (v.op === 'const' && v.value === 0n) return NULL_PTR;
      throw new CError(badPointer(span, 'an integer cannot become a pointer'));
    }
    return v;
  }

  private eval(st: State, e: Expr): Val | undefined {
    this.tick(e.span);
    this.enter(e.span);
    try {
      return this.evalInner(st, e);
    } finally {
      this.depth--;
    }
  }

  private evalInner(st: State, e: Expr): Val | undefined {
    const t = this.sema.typeOf(e);
    if (t.kind === 'array' && e.kind !== 'string') return this.decayPtr(st, e);
    if (t.kind === 'struct') throw new CError(structValue(e.span, typeName(t)));
    switch (e.kind) {
      case 'int':
      case 'char':
        return bvConst(e.value, (t as IntType).width);
      case 'string':
        return { kind: 'str', value: e.value };
      case 'ident': {
        const b = this.sema.bindings.get(e)!;
        switch (b.kind) {
          case 'local': {
            const v = st.locals.get(b.id);
            if (v !== undefined) return v;
            const u = b.type.kind === 'int' ? fresh(`undef:${b.name}`, b.type.width) : NULL_PTR;
            st.locals.set(b.id, u);
            return u;
          }
          case 'enum':
            return bvConst(b.value, b.type.width);
          case 'global':
            return this.load(st, { kind: 'mem', ptr: globalPtr(b.name, b.type) }, t, e);
          case 'function':
            throw new CError(badPointer(e.span, `the function '${b.name}' used as a value`));
        }
        break;
      }
      case 'paren':
        return this.eval(st, e.inner);
      case 'unary': {
        const v = this.rvalue(st, e.operand);
        if (e.op === '!') return boolToInt(o.not(isTerm(v) ? truthOf(v) : ptrNonNull(v)), 32);
        const ot = this.typeOf(e.operand) as IntType;
        const x = convertInt(v as Term, ot, t as IntType);
        return e.op === '-' ? o.neg(x) : e.op === '~' ? o.bvnot(x) : x;
      }
      case 'addr': {
        const loc = this.lvalue(st, e.operand);
        if (loc.kind !== 'mem') throw new CError(notLvalue(e.span, "'&'"));
        return loc.ptr;
      }
      case 'deref':
      case 'member':
      case 'index':
        return this.load(st, this.lvalue(st, e), t, e);
      case 'incdec': {
        const loc = this.lvalue(st, e.operand);
        const ty = t as IntType;
        const old = this.load(st, loc, ty, e.operand) as Term;
        const pt = promote(ty);
        const x = convertInt(old, ty, pt);
        const one = bvConst(1n, pt.width);
        const nv = convertInt(e.op === '++' ? o.add(x, one) : o.sub(x, one), pt, ty);
        this.store(st, loc, nv, ty, e.operand);
        return e.prefix ? nv : old;
      }
      case 'binary':
        return this.binary(st, e);
      case 'logical':
        return this.logical(st, e);
      case 'assign': {
        const loc = this.lvalue(st, e.target);
        const tt = t;
        let nv: Val;
        if (e.op === '=') {
          nv = this.convert(this.rvalue(st, e.value), this.typeOf(e.value), tt, e.value.span);
        } else {
          const old = this.load(st, loc, tt, e.target) as Term;
          const rhs = this.rvalue(st, e.value) as Term;
          const op = e.op.slice(0, -1);
          const r = this.arith(st, op, old, tt as IntType, rhs, this.typeOf(e.value) as IntType, e, e.value);
          nv = convertInt(r.value, r.type, tt as IntType);
        }
        this.store(st, loc, nv, tt, e.target);
        return nv;
      }
      case 'cond':
        return this.ternary(st, e, t);
      case 'cast': {
        const v = this.eval(st, e.operand);
        if (t.kind === 'void') return undefined;
        return this.convert(v!, this.typeOf(e.operand), t, e.span);
      }
      case 'sizeof-type':
        return bvConst(BigInt(sizeOf(this.sema.typeNames.get(e.type)!)!), 64);
      case 'sizeof-expr':
        return bvConst(BigInt(sizeOf(this.sema.typeOf(e.operand))!), 64);
      case 'call':
        return this.call(st, e);
    }
    const never: never = e;
    throw new CError(internal((never as Expr).span, 'an unknown expression'));
  }

  /** An array-typed expression as a pointer to its first element. */
  private decayPtr(st: State, e: Expr): Ptr {
    const loc = this.lvalue(st, e);
    if (loc.kind !== 'mem') throw new CError(internal(e.span, 'a local array'));
    return mapPtr(loc.ptr, (q) => {
      if (q.kind !== 'obj' || q.type.kind !== 'array') return q;
      const arr = q.type;
      const step: Step = { kind: 'index', index: bvConst(0n, 64), length: arr.length, elemSize: sizeOf(arr.of)! };
      return { kind: 'obj', base: q.base, steps: [...q.steps, step], type: arr.of };
    });
  }

  private lvalue(st: State, e: Expr): Loc {
    switch (e.kind) {
      case 'paren':
        return this.lvalue(st, e.inner);
      case 'ident': {
        const b = this.sema.bindings.get(e)!;
        if (b.kind === 'local') return { kind: 'local', v: b };
        if (b.kind === 'global') return { kind: 'mem', ptr: globalPtr(b.name, b.type) };
        break;
      }
      case 'deref':
        return { kind: 'mem', ptr: this.pointer(st, e.operand) };
      case 'member': {
        let base: Ptr;
        if (e.arrow) base = this.pointer(st, e.object);
        else {
          const l = this.lvalue(st, e.object);
          if (l.kind !== 'mem') throw new CError(notLvalue(e.span, "'.'"));
          base = l.ptr;
        }
        const st0 = this.sema.typeOf(e.object);
        const structT = (e.arrow ? (decay(st0) as { to: CType }).to : st0) as Extract<CType, { kind: 'struct' }>;
        const path = findMember(structT, e.name)!;
        return {
          kind: 'mem',
          ptr: mapPtr(base, (q) => {
            if (q.kind !== 'obj') return q;
            if (!accessibleAs(q.type, structT)) {
              throw new CError(badPointer(e.span, `access to ${typeName(structT)} through a pointer to ${typeName(q.type)}`));
            }
            const steps: Step[] = [...q.steps, ...path.map((m): Step => ({ kind: 'field', member: m }))];
            return { kind: 'obj', base: q.base, steps, type: path[path.length - 1].type };
          }),
        };
      }
      case 'index': {
        const ot = this.sema.typeOf(e.object);
        const iv = this.rvalue(st, e.index) as Term;
        const it = this.typeOf(e.index) as IntType;
        const i64 = resizeTerm(iv, 64, it.signed);
        if (ot.kind === 'array') {
          const l = this.lvalue(st, e.object);
          if (l.kind !== 'mem') throw new CError(internal(e.span, 'a local array'));
          return { kind: 'mem', ptr: this.indexArray(st, l.ptr, i64, e) };
        }
        return { kind: 'mem', ptr: this.indexPointer(st, this.pointer(st, e.object), i64, e) };
      }
    }
    throw new CError(notLvalue(e.span, 'this use'));
  }

  private pointer(st: State, e: Expr): Ptr {
    const v = this.rvalue(st, e);
    if (isTerm(v)) throw new CError(badPointer(e.span, 'an integer used as a pointer'));
    return v;
  }

  private boundsMessage(e: Extract<Expr, { kind: 'index' }>, n: number): string {
    return `index ${printExpr(e.index)} out of bounds of ${printExpr(e.object)}[${n}]`;
  }

  /** `a[i]` where `a` designates a whole array. */
  private indexArray(st: State, p: Ptr, i: Term, e: Extract<Expr, { kind: 'index' }>): Ptr {
    const cases = ptrCases(p);
    return mapPtr(p, (q) => {
      if (q.kind !== 'obj') return q;
      if (q.type.kind !== 'array') throw new CError(badPointer(e.span, `indexing ${typeName(q.type)}`));
      const arr = q.type;
      const guard = cases.find((c) => c.ptr === q)?.guard ?? o.TRUE;
      if (upperBound(i) >= BigInt(arr.length)) {
        this.check(st, 'bounds', o.implies(guard, o.ult(i, bvConst(BigInt(arr.length), 64))), e.span, this.boundsMessage(e, arr.length));
      }
      const step: Step = { kind: 'index', index: i, length: arr.length, elemSize: sizeOf(arr.of)! };
      return { kind: 'obj', base: q.base, steps: [...q.steps, step], type: arr.of };
    });
  }

  /** `p[i]` for a pointer: moves the last index of the path by `i`. */
  private indexPointer(st: State, p: Ptr, i: Term, e: Extract<Expr, { kind: 'index' }>): Ptr {
    const cases = ptrCases(p);
    const want = this.sema.typeOf(e);
    return mapPtr(p, (q) => {
      const guard = cases.find((c) => c.ptr === q)?.guard ?? o.TRUE;
      if (q.kind === 'null') {
        this.check(st, 'bounds', o.not(guard), e.span, `${printExpr(e.object)} may be a null pointer`);
        return q;
      }
      if (q.kind === 'str') throw new CError(stringDeref(e.span));
      if (!accessibleAs(q.type, want)) throw new CError(badPointer(e.span, `access to ${typeName(want)} through a pointer to ${typeName(q.type)}`));
      const last = q.steps[q.steps.length - 1];
      if (last?.kind !== 'index') {
        if (i.op === 'const' && i.value === 0n) return q;
        throw new CError(badPointer(e.span, `${printExpr(e.object)} does not point into an array, so it cannot be indexed`));
      }
      const k = o.add(last.index, i);
      if (upperBound(k) >= BigInt(last.length)) {
        this.check(st, 'bounds', o.implies(guard, o.ult(k, bvConst(BigInt(last.length), 64))), e.span, this.boundsMessage(e, last.length));
      }
      return { kind: 'obj', base: q.base, steps: [...q.steps.slice(0, -1), { ...last, index: k }], type: q.type };
    });
  }

  private load(st: State, loc: Loc, type: CType, e: Expr): Val {
    if (loc.kind === 'local') {
      const v = st.locals.get(loc.v.id);
      if (v !== undefined) return v;
      const u = loc.v.type.kind === 'int' ? fresh(`undef:${loc.v.name}`, loc.v.type.width) : NULL_PTR;
      st.locals.set(loc.v.id, u);
      return u;
    }
    if (type.kind !== 'int') throw new CError(structValue(e.span, typeName(type)));
    const cases = ptrCases(loc.ptr);
    const vals: Term[] = [];
    const guards: Term[] = [];
    for (const c of cases) {
      guards.push(c.guard);
      if (c.ptr.kind === 'obj') {
        if (!accessibleAs(c.ptr.type, type)) {
          throw new CError(badPointer(e.span, `read of ${typeName(type)} through a pointer to ${typeName(c.ptr.type)}`));
        }
        vals.push(readScalar(st.mem, c.ptr));
      } else if (c.ptr.kind === 'null') {
        this.check(st, 'bounds', o.not(c.guard), e.span, `null pointer dereference in ${printExpr(e)}`);
        vals.push(bvConst(0n, type.width));
      } else throw new CError(stringDeref(e.span));
    }
    let v = vals[vals.length - 1];
    for (let k = vals.length - 2; k >= 0; k--) v = o.ite(guards[k], vals[k], v);
    return v;
  }

  private store(st: State, loc: Loc, v: Val, type: CType, e: Expr): void {
    if (loc.kind === 'local') {
      this.bounded(v, e.span);
      st.locals.set(loc.v.id, v);
      return;
    }
    if (!isTerm(v) || type.kind !== 'int') throw new CError(structValue(e.span, typeName(type)));
    this.bounded(v, e.span);
    for (const c of ptrCases(loc.ptr)) {
      if (c.ptr.kind === 'obj') {
        if (!accessibleAs(c.ptr.type, type)) {
          throw new CError(badPointer(e.span, `write of ${typeName(type)} through a pointer to ${typeName(c.ptr.type)}`));
        }
        st.mem = writeScalar(st.mem, c.ptr as ObjPtr, v, c.guard);
        if (mapDepth(st.mem.get(leafKey(c.ptr))!) > MAX_TERM_DEPTH) throw new CError(termTooLarge(e.span, MAX_TERM_DEPTH));
      } else if (c.ptr.kind === 'null') {
        this.check(st, 'bounds', o.not(c.guard), e.span, `null pointer dereference in ${printExpr(e)}`);
      } else throw new CError(stringDeref(e.span));
    }
  }

  /** Integer arithmetic with C's conversions; records division and shift conditions. */
  private arith(
    st: State,
    op: string,
    a: Term,
    at: IntType,
    b: Term,
    bt: IntType,
    e: Expr,
    right: Expr,
  ): { value: Term; type: IntType } {
    if (op === '<<' || op === '>>') {
      const pa = promote(at);
      const pb = promote(bt);
      const x = convertInt(a, at, pa);
      const y = convertInt(b, bt, pb);
      this.check(st, 'shift', o.ult(y, bvConst(BigInt(pa.width), pb.width)), e.span,
        `shift amount ${printExpr(right)} may not be below ${pa.width} in ${printExpr(e)}`);
      const n = resizeTerm(y, pa.width, false);
      const value = op === '<<' ? o.shl(x, n) : pa.signed ? o.ashr(x, n) : o.lshr(x, n);
      return { value, type: pa };
    }
    const ct = usualArithmetic(at, bt);
    const x = convertInt(a, at, ct);
    const y = convertInt(b, bt, ct);
    let value: Term;
    switch (op) {
      case '+': value = o.add(x, y); break;
      case '-': value = o.sub(x, y); break;
      case '*': value = o.mul(x, y); break;
      case '/':
      case '%':
        this.check(st, 'div-zero', o.not(o.eq(y, bvConst(0n, ct.width))), e.span,
          `${op === '/' ? 'division' : 'remainder'} by zero: ${printExpr(right)} may be 0 in ${printExpr(e)}`);
        value = op === '/' ? (ct.signed ? o.sdiv(x, y) : o.udiv(x, y)) : ct.signed ? o.srem(x, y) : o.urem(x, y);
        break;
      case '&': value = o.bvand(x, y); break;
      case '|': value = o.bvor(x, y); break;
      case '^': value = o.bvxor(x, y); break;
      default:
        throw new CError(internal(e.span, `operator ${op}`));
    }
    return { value, type: ct };
  }

  private binary(st: State, e: Extract<Expr, { kind: 'binary' }>): Val {
    const a = this.rvalue(st, e.left);
    const b = this.rvalue(st, e.right);
    const at = this.typeOf(e.left);
    const bt = this.typeOf(e.right);
    const op = e.op;
    if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
      let c: Term;
      if (isTerm(a) && isTerm(b)) {
        const ct = usualArithmetic(at as IntType, bt as IntType);
        const x = convertInt(a, at as IntType, ct);
        const y = convertInt(b, bt as IntType, ct);
        c = compare(op, x, y, ct.signed);
      } else {
        const pa = isTerm(a) ? NULL_PTR : a;
        const pb = isTerm(b) ? NULL_PTR : b;
        if (op === '==' || op === '!=') {
          const eqv = ptrEquals(pa, pb);
          c = op === '==' ? eqv : o.not(eqv);
        } else c = compare(op, address(pa), address(pb), false);
      }
      return boolToInt(c, 32);
    }
    return this.arith(st, op, a as Term, at as IntType, b as Term, bt as IntType, e, e.right).value;
  }

  private logical(st: State, e: Extract<Expr, { kind: 'logical' }>): Val {
    const a = this.cond(st, e.left);
    const and = e.op === '&&';
    if (isFalse(a) && and) return bvConst(0n, 32);
    if (isTrue(a) && !and) return bvConst(1n, 32);
    if (isTrue(a) || isFalse(a)) return boolToInt(this.cond(st, e.right), 32);
    // The right operand runs only where the left one does not decide.
    const go = and ? a : o.not(a);
    const r = this.fork(st, go);
    const b = this.inFork(r, () => this.cond(r, e.right));
    const rest: State = { pc: o.and(st.pc, o.not(go)), asm: st.asm, mem: st.mem, locals: st.locals, dead: false };
    this.join(st, go, r, rest, e.span);
    if (r.dead || b === undefined) return bvConst(and ? 0n : 1n, 32);
    return boolToInt(and ? o.and(a, b) : o.or(a, b), 32);
  }

  private ternary(st: State, e: Extract<Expr, { kind: 'cond' }>, t: CType): Val | undefined {
    const c = this.cond(st, e.test);
    const branch = (s: State, x: Expr): Val | undefined => {
      const v = this.eval(s, x);
      return t.kind === 'void' || v === undefined ? undefined : this.convert(v, this.typeOf(x), t, x.span);
    };
    if (isTrue(c)) return branch(st, e.then);
    if (isFalse(c)) return branch(st, e.else);
    const th = this.fork(st, c);
    const el = this.fork(st, o.not(c));
    const vt = this.inFork(th, () => branch(th, e.then));
    const ve = this.inFork(el, () => branch(el, e.else));
    this.join(st, c, th, el, e.span);
    if (st.dead) throw new PathDied();
    if (t.kind === 'void') return undefined;
    if (th.dead) return ve;
    if (el.dead) return vt;
    return mergeVal(c, vt!, ve!);
  }
}

/**
 * An upper bound on the unsigned value of a bit-vector term, from its shape
 * alone (constants, masks, zero extension, remainders, right shifts), so
 * that `a[x & 7]` or `vector_table[(uint8_t)v]` need no bounds condition.
 */
function upperBound(t: Term, memo = new Map<Term, bigint>(), depth = 0): bigint {
  const hit = memo.get(t);
  if (hit !== undefined) return hit;
  // Deeper shapes are not worth the stack; without a bound, the check is kept.
  const b = depth > 64 ? (1n << BigInt(t.sort)) - 1n : upperBoundOf(t, (u) => upperBound(u, memo, depth + 1));
  memo.set(t, b);
  return b;
}

function upperBoundOf(t: Term, upperBound: (u: Term) => bigint): bigint {
  const all = (1n << BigInt(t.sort)) - 1n;
  const k = (x: Term) => (x.op === 'const' ? (x.value as bigint) : undefined);
  switch (t.op) {
    case 'const':
      return t.value as bigint;
    case 'zext':
      return upperBound(t.args[0]);
    case 'sext': {
      // Sign extension keeps the value when the sign bit is known clear.
      const x = t.args[0];
      const b = upperBound(x);
      return b < 1n << BigInt(x.sort - 1) ? b : all;
    }
    case 'bvand':
      return upperBound(t.args[0]) < upperBound(t.args[1]) ? upperBound(t.args[0]) : upperBound(t.args[1]);
    case 'urem': {
      const c = k(t.args[1]);
      return c !== undefined && c > 0n && c - 1n < upperBound(t.args[0]) ? c - 1n : upperBound(t.args[0]);
    }
    case 'udiv': {
      const c = k(t.args[1]);
      return c !== undefined && c > 0n ? upperBound(t.args[0]) / c : all;
    }
    case 'lshr': {
      const c = k(t.args[1]);
      return c !== undefined ? upperBound(t.args[0]) >> c : upperBound(t.args[0]);
    }
    case 'ite': {
      const a = upperBound(t.args[1]);
      const b = upperBound(t.args[2]);
      return a > b ? a : b;
    }
    default:
      return all;
  }
}

function compare(op: string, x: Term, y: Term, signed: boolean): Term {
  switch (op) {
    case '==': return eqTerm(x, y);
    case '!=': return o.not(eqTerm(x, y));
    case '<': return signed ? o.slt(x, y) : o.ult(x, y);
    case '>': return signed ? o.sgt(x, y) : o.ugt(x, y);
    case '<=': return signed ? o.sle(x, y) : o.ule(x, y);
    default: return signed ? o.sge(x, y) : o.uge(x, y);
  }
}

/** The depth of a value: a term's, or a pointer's (its branching and its indices). */
function valDepth(v: Val): number {
  if (v instanceof Term) return termDepth(v);
  switch (v.kind) {
    case 'null':
    case 'str':
      return 1;
    case 'obj': {
      let m = 0;
      for (const s of v.steps) if (s.kind === 'index') m = Math.max(m, termDepth(s.index));
      return m + 1;
    }
    case 'ite':
      // Bounded: a pointer is checked each time it is stored or merged.
      return 1 + Math.max(termDepth(v.cond), valDepth(v.then), valDepth(v.else));
  }
}
