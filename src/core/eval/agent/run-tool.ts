/**
 * The agent mode's `run` tool (docs/research.md, "The agent mode"):
 * execution feedback. A spec and the implementation a run checks against
 * are both run from one concrete kernel state with concrete arguments, and
 * the model reads the spec's condition, the implementation's return value
 * and the cells where the two new states differ.
 *
 * Nothing is run as code: both sides are the verifier's own symbolic steps
 * (the spec by the dialect's interpreter, the C by the implementation's
 * symbolic run, verify/implementation.ts), evaluated under the concrete
 * state by our evaluator (smt/eval.ts), as a counterexample is replayed
 * (verify/counterexample.ts). The state is a reachable case of the state
 * bank (verify/state-bank.ts) or one the model writes as cells over the boot
 * state or a case's state.
 */
import type { Diagnostic } from '../../diagnostic.ts';
import { codeFrame } from '../../diagnostic-text.ts';
import { runSpec } from '../../dialect/index.ts';
import { KERNEL } from '../../kernel/content.ts';
import { BACKED_FIELDS, abstractRead, backing } from '../../kernel/equiv.ts';
import { requireHandler } from '../../kernel/handlers.ts';
import { bootWitness } from '../../kernel/lemmas/index.ts';
import { ALL_FIELDS, type FieldSchema } from '../../kernel/schema.ts';
import { type AbstractState, type FieldValue, countOf, fieldFromParts, fieldParts } from '../../kernel/state.ts';
import { type Interpretation, type Value, evaluate, zeroInterpretation } from '../../smt/eval.ts';
import { type MapFn, updateMap } from '../../smt/fn.ts';
import { eachSubterm } from '../../smt/subterms.ts';
import { BOOL, type Term, bvConst, boolConst, norm, toSigned, variable } from '../../smt/term.ts';
import type { VerifierCaches } from '../../verify/caches.ts';
import { FIELD_ENUMS, NOT_EVALUATED, ev, show } from '../../verify/counterexample.ts';
import { implementationStep } from '../../verify/implementation.ts';
import { STORED_BANK, type StateBankFile, reachableCases } from '../../verify/state-bank.ts';

/** What a `run` call asks for, as read from its arguments (before any state is built). */
export interface RunInput {
  /** A case of the handler in the state bank (its state and arguments), by index. */
  readonly case?: number;
  /** Cells set over the case's state (or the boot state when no case is given). */
  readonly cells?: readonly { readonly field: string; readonly index: readonly unknown[]; readonly value: unknown }[];
  /** The handler's arguments (numbers or hex strings); required without a case. */
  readonly args?: readonly unknown[];
}

/** A `run` call that cannot be answered: its AGENT0xx code and the words the model reads. */
class RunInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RunInputError';
  }
}


/** Cells a call may set (each is a point update the evaluator walks through). */
const MAX_CELLS = 64;

const FIELDS = new Map(ALL_FIELDS.map((f) => [f.path, f]));

/** A JSON value as a bit-vector of `width` bits (a number, a decimal or 0x string, an enum member's name, true/false for Bool). */
function valueOf(v: unknown, width: number, what: string, field?: string, code = 'AGENT009'): bigint | boolean {
  if (width === BOOL) {
    if (typeof v === 'boolean') return v;
    if (v === 0 || v === 1) return v === 1;
    if (typeof v === 'string' && /^(true|false|0|1)$/i.test(v.trim())) return /^(true|1)$/i.test(v.trim());
    throw new RunInputError(code, `${what} must be true or false.`);
  }
  let n: bigint | undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^(-?\d{1,20}|0x[0-9a-fA-F]{1,16})$/.test(v.trim())) n = BigInt(v.trim());
  else if (typeof v === 'string' && field && FIELD_ENUMS[field]?.[v] !== undefined) n = FIELD_ENUMS[field][v];
  if (n === undefined) throw new RunInputError(code, `${what} must be an integer (a number or a "0x..." string)${field && FIELD_ENUMS[field] ? ' or a member name' : ''}.`);
  const top = 1n << BigInt(width);
  if (n < -(top >> 1n) || n >= top) throw new RunInputError(code, `${what} does not fit in ${width} bits.`);
  return norm(n, width);
}

const constOf = (v: bigint | boolean, sort: number): Term => (sort === BOOL ? boolConst(v as boolean) : bvConst(v as bigint, sort));

/** A cell's place and value checked against the kernel's representation: the field exists, the index is inside its table, an enum holds a member. */
function applyCell(state: Map<string, FieldValue>, cell: NonNullable<RunInput['cells']>[number], n: number): void {
  const at = `cell ${n}`;
  if (cell === null || typeof cell !== 'object' || typeof cell.field !== 'string') throw new RunInputError('AGENT010', `${at} must be {"field": "procs.state", "index": [1], "value": 2}.`);
  const schema: FieldSchema | undefined = FIELDS.get(cell.field);
  if (!schema) throw new RunInputError('AGENT010', `${at}: there is no field "${cell.field.slice(0, 60)}" in the kernel state.`);
  const index = Array.isArray(cell.index) ? cell.index : [];
  if (index.length !== schema.index.length) throw new RunInputError('AGENT010', `${at}: ${schema.path} takes ${schema.index.length} indices, got ${index.length}.`);
  const xs = index.map((x, i) => valueOf(x, schema.index[i], `${at}'s index ${i + 1}`, undefined, 'AGENT010') as bigint);
  const range = schema.kind === 'map' ? schema.value : 64;
  const value = valueOf(cell.value, range, `${at}'s value`, schema.path, 'AGENT010');
  const terms = xs.map((x, i) => bvConst(x, schema.index[i]));
  const guard = backing(schema.path)?.guard(terms);
  if (guard && evaluate(guard, zeroInterpretation) !== true) throw new RunInputError('AGENT010', `${at}: ${schema.path}[${xs.join(', ')}] is outside the kernel's table (no such cell in the C state).`);
  const names = FIELD_ENUMS[schema.path];
  if (names && !Object.values(names).includes(value as bigint)) throw new RunInputError('AGENT010', `${at}: ${String(value)} is not a member of ${schema.path}'s enum (${Object.keys(names).join(', ')}).`);
  const old = state.get(schema.path)!;
  const parts = fieldParts(old).map((p) => p.map);
  parts[0] = updateMap(parts[0], terms, constOf(value, range));
  state.set(schema.path, fieldFromParts(old, parts));
}

/** The concrete start a call asks for: a state and the handler's arguments, with where they came from. */
export function concreteStart(handler: string, input: RunInput, caches: VerifierCaches, bank: StateBankFile = STORED_BANK): { state: AbstractState; args: bigint[]; from: string } {
  const h = requireHandler(handler);
  let base: AbstractState = bootWitness();
  let args: bigint[] | undefined;
  let from = 'the boot state';
  if (input.case !== undefined) {
    const cases = reachableCases(handler, caches, bank);
    if (!Number.isInteger(input.case) || input.case < 0 || input.case >= cases.length) {
      throw new RunInputError('AGENT008', `there is no case ${String(input.case).slice(0, 20)} of ${handler}; ${cases.length ? `its cases are 0 to ${cases.length - 1}` : 'it has none: give "args" (and "cells")'}.`);
    }
    const c = cases[input.case];
    base = c.state;
    args = [...c.args];
    from = `reachable case ${input.case} of ${handler}`;
  }
  if (input.args !== undefined) {
    if (!Array.isArray(input.args) || input.args.length !== h.args.length) {
      throw new RunInputError('AGENT009', `${handler} takes ${h.args.length} arguments (${h.args.map((a) => `${a.name}: ${a.width} bits`).join(', ')}); send them in that order.`);
    }
    args = input.args.map((v, i) => valueOf(v, h.args[i].width, `argument ${h.args[i].name}`) as bigint);
  }
  if (!args) throw new RunInputError('AGENT009', `give "args" (${h.args.map((a) => a.name).join(', ')}) or a "case".`);
  if ((input.cells?.length ?? 0) > MAX_CELLS) throw new RunInputError('AGENT010', `a run sets at most ${MAX_CELLS} cells; this one sets ${input.cells!.length}.`);
  const state = new Map(base);
  (input.cells ?? []).forEach((c, i) => applyCell(state, c, i + 1));
  if (input.cells?.length) from += ` with ${input.cells.length} cell${input.cells.length === 1 ? '' : 's'} set`;
  return { state, args, from };
}

/**
 * The symbols of a step's symbolic pre-state read in a concrete state: each
 * C leaf and ghost map by its symbol's name, through the equivalence
 * (kernel/equiv.ts) where the C value or index is not the abstract one; the
 * arguments and the comparison's skolem indices as given.
 */
class ConcreteInterpretation implements Interpretation {
  readonly consts = new Map<string, Value>();
  private readonly direct = new Map<string, MapFn>();
  private readonly viaBacking = new Map<string, { map: MapFn; domain: readonly number[]; nonzero: boolean }>();

  constructor(pre: AbstractState, state: AbstractState) {
    for (const [path, sym] of pre) {
      const concrete = state.get(path);
      if (!concrete) continue;
      const cparts = fieldParts(concrete);
      fieldParts(sym).forEach((p, i) => {
        const probes = p.map.domain.map((s, j) => variable(`run.probe.${j}`, s));
        const t = p.map.apply(probes);
        if (t.op === 'var' || (t.op === 'app' && t.args.every((a, j) => a === probes[j]))) {
          this.direct.set(t.op === 'var' ? t.name! : t.decl!.name, cparts[i].map);
          return;
        }
        const bk = backing(path);
        if (!bk || i !== 0) return;
        // The C leaf is read at other indices (sign- or zero-extended) or as another value (0/1 for a Bool).
        this.viaBacking.set(`c:${bk.key}`, { map: cparts[0].map, domain: p.map.domain, nonzero: p.map.range === BOOL });
      });
    }
  }

  constant(name: string, sort: number): Value {
    const v = this.consts.get(name);
    if (v !== undefined) return v;
    const m = this.direct.get(name);
    return m ? evaluate(m.apply([]), zeroInterpretation) : sort === BOOL ? false : 0n;
  }

  apply(decl: { name: string; range: number; domain: readonly number[] }, args: Value[]): Value {
    const m = this.direct.get(decl.name);
    if (m) return evaluate(m.apply(args.map((a, i) => constOf(a, m.domain[i]))), zeroInterpretation);
    const b = this.viaBacking.get(decl.name);
    if (b) {
      const v = evaluate(b.map.apply(args.map((a, i) => constOf(norm(a as bigint, b.domain[i]), b.domain[i]))), zeroInterpretation);
      return b.nonzero ? ((v as boolean) ? 1n : 0n) : v;
    }
    return decl.range === BOOL ? false : 0n;
  }
}

/** The values `t` compares skolem `x` with: the indices where a map may have been written. */
function indexCandidates(roots: readonly Term[], x: Term, others: readonly Term[], interp: Interpretation, memo: Map<number, Value>): bigint[] {
  const out = new Set<bigint>();
  const has = (t: Term, v: Term) => eachSubterm([t], (s) => s === v);
  eachSubterm(roots, (t) => {
    if (!['eq', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'].includes(t.op) || t.args.length !== 2) return;
    for (const [a, b] of [[t.args[0], t.args[1]], [t.args[1], t.args[0]]]) {
      if (!has(a, x) || others.some((o) => has(b, o) || (o !== x && has(a, o))) || has(b, x)) continue;
      const v = ev(b, interp, memo);
      if (typeof v !== 'bigint') continue;
      out.add(norm(v, x.sort));
      if (t.op !== 'eq') out.add(norm(v - 1n, x.sort));
    }
  });
  out.add(0n);
  return [...out];
}

/** A `run` call's wall-clock limit: the time it may take, on the tool context's clock (ms). */
export interface RunClock {
  readonly at: number;
  readonly now: () => number;
  readonly limitMs: number;
}

/** Past the limit: the call is answered with AGENT011, saying where it stopped. */
function checkClock(clock: RunClock | undefined, where: string): void {
  if (clock && clock.now() > clock.at) throw new RunInputError('AGENT011', `run stopped at its time limit of ${clock.limitMs} ms ${where}; nothing more was compared. Look for a huge loop or deep recursion in your spec, or try another case.`);
}

/** Cells compared per field at most (candidate index tuples). */
const MAX_TUPLES = 512;

/** One side-by-side run: the spec's condition, the implementation's return value, the cells where the new states differ. */
interface RunOutcome {
  readonly cond: string;
  readonly ret: string;
  readonly rows: readonly string[];
}

/**
 * Runs `spec` and the implementation (`implSource` over the kernel) of
 * `handler` from `state` with `args`. A spec that does not run gives its
 * diagnostic (`ok: false`). With `clock`, the spec's interpreter and the
 * comparison stop once it passes its limit (RunInputError AGENT011): the
 * evaluation is synchronous, so the limit is read inside its loops.
 */
export function runBoth(
  spec: string,
  handler: string,
  implSource: string,
  state: AbstractState,
  args: readonly bigint[],
  caches: VerifierCaches,
  clock?: RunClock,
): { ok: true; outcome: RunOutcome } | { ok: false; error: Diagnostic } {
  const h = requireHandler(handler);
  const impl = implementationStep(implSource, KERNEL, h, caches);
  checkClock(clock, 'while the implementation ran');
  const run = runSpec(spec, h.name, impl.pre, impl.args.map((a) => a.term), clock ? { deadline: clock } : {});
  if (!run.ok) {
    // The interpreter's own stop (SPEC018) at the deadline: the call's limit, not a spec error to show.
    if (run.error.code === 'SPEC018') checkClock(clock, `while your spec ran (line ${run.error.span.line}, column ${run.error.span.column})`);
    return { ok: false, error: run.error };
  }
  const interp = new ConcreteInterpretation(impl.pre, state);
  impl.args.forEach((a, i) => interp.consts.set(a.term.name!, norm(args[i], a.term.sort)));
  const memo = new Map<number, Value>();
  const condV = ev(run.cond, interp, memo);
  const retV = ev(impl.ret, interp, memo);
  const rows: string[] = [];
  for (const field of BACKED_FIELDS) {
    checkClock(clock, 'while the new states were compared');
    const xs = field.index.map((s, i) => variable(`run.sk.${i}.${s}`, s));
    const specT = countOf(run.post.get(field.path)!).apply(xs);
    const implT = abstractRead(impl.memAfter, field.path, xs);
    const oldT = countOf(impl.pre.get(field.path)!).apply(xs);
    if (specT === implT) continue;
    const guard = backing(field.path)!.guard(xs);
    const pools = xs.map((x) => indexCandidates([specT, implT], x, xs, interp, memo));
    let tuples: bigint[][] = [[]];
    for (const pool of pools) tuples = tuples.flatMap((t) => pool.map((v) => [...t, v])).slice(0, MAX_TUPLES);
    for (const tuple of tuples) {
      checkClock(clock, 'while the new states were compared');
      tuple.forEach((v, i) => interp.consts.set(xs[i].name!, v));
      const m = new Map<number, Value>();
      if (ev(guard, interp, m) !== true) continue;
      const s = show(ev(specT, interp, m), specT.sort, field.path);
      const c = show(ev(implT, interp, m), implT.sort, field.path);
      if (s === c && s !== NOT_EVALUATED) continue;
      const names = field.indexNames;
      const at = tuple.length ? `[${tuple.map((v, i) => `${names[i] ?? `i${i}`}=${show(v, xs[i].sort)}`).join(', ')}]` : '';
      rows.push(`${field.path}${at}: was ${show(ev(oldT, interp, m), oldT.sort, field.path)}, the spec makes it ${s}, the implementation makes it ${c}.`);
    }
  }
  const cond = condV === undefined ? NOT_EVALUATED : condV ? 'True' : 'False';
  const ret = retV === undefined ? NOT_EVALUATED : `${toSigned(retV as bigint, impl.ret.sort)}`;
  return { ok: true, outcome: { cond, ret, rows } };
}

/** The arguments as the result shows them: `pid=2, fd=1`. */
function shownArgs(handler: string, args: readonly bigint[]): string {
  return requireHandler(handler)
    .args.map((a, i) => `${a.name}=${show(args[i], a.width)}`)
    .join(', ');
}

/**
 * One `run` call as a verifier worker answers it (`VerifierApi.agentRun`;
 * the page's and the CLI's ports send it there, off the thread the agent
 * loop runs on). Plain data: the call's inputs as read, its cells already in
 * hv6's names.
 */
export interface RunToolRequest {
  readonly handler: string;
  /** The spec, in hv6's names. */
  readonly spec: string;
  /** The implementation the call checks against; absent: the kernel's correct one. */
  readonly implSource?: string;
  /** Which implementation that is, in the result's words. */
  readonly against: string;
  readonly input: RunInput;
  /** The call's time limit (ms), and what of it was spent before the request left (the deadline is read on the runner's own clock). */
  readonly limitMs: number;
  readonly spentMs: number;
}

/** A `run` call's answer: the result's text (hv6's names), a coded error, or no answer within the job's hard limit. */
export type RunToolReply = { readonly text: string } | { readonly code: string; readonly message: string } | { readonly overrun: true };

/**
 * Answers `req` from the concrete state it asks for: the text the model
 * reads, or the AGENT0xx error. Never throws; `now` is the clock of the
 * call's deadline (AGENT011), which begins when this is called.
 */
export function answerRun(req: RunToolRequest, caches: VerifierCaches, now: () => number): RunToolReply {
  try {
    const start = concreteStart(req.handler, req.input, caches);
    const r = runBoth(req.spec, req.handler, req.implSource ?? '', start.state, start.args, caches, { at: now() + req.limitMs - req.spentMs, now, limitMs: req.limitMs });
    const args = shownArgs(req.handler, start.args);
    const head = `Ran your spec and ${req.against} on ${start.from}, with ${args || 'no arguments'}.`;
    if (!r.ok) {
      const e = r.error;
      return { text: `${head}\nThe spec could not be evaluated: error ${e.code} at line ${e.span.line}, column ${e.span.column}: ${e.message}\n${codeFrame(req.spec, e.span)}` };
    }
    const { cond, ret, rows } = r.outcome;
    const agree = (cond === 'True') === (ret === '0');
    const lines = [head, `The spec's condition is ${cond}; the implementation returns ${ret}${agree ? '.' : ' (they disagree: the spec must succeed exactly when the implementation returns 0).'}`];
    lines.push(rows.length ? `The new states differ in ${rows.length} cell${rows.length === 1 ? '' : 's'}:` : 'The new states agree in every cell the two write.');
    lines.push(...rows);
    return { text: lines.join('\n') };
  } catch (e) {
    if (e instanceof RunInputError) return { code: e.code, message: e.message };
    return { code: 'AGENT006', message: `the run failed on this call (${e instanceof Error ? e.message : String(e)}); this says nothing about your spec. Try again.` };
  }
}
