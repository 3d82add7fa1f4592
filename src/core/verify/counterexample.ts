/**
 * Turns a refuting model into what a kernel engineer wants to read: the
 * arguments, the state cells that differ (old, spec's new, implementation's
 * new), and the pre-state facts the decision depended on. Every value shown
 * is computed by our own evaluator under the model (the replay).
 */
import { type Interpretation, QuantifierEvalError, type Value, evaluate } from '../smt/eval.ts';
import { BOOL, type Term, toSigned, variable } from '../smt/term.ts';
import { ENUMS } from '../kernel/constants.ts';
import type { HandlerArg } from '../kernel/handlers.ts';
import { applications } from '../smt/instantiate.ts';
import { eachSubterm } from '../smt/subterms.ts';
import type { Failure } from './prove.ts';
import { type FieldObligation, isFieldObligation } from './refinement.ts';
import type { CexArg, CexRow, Counterexample } from './verdict.ts';

/** Which enum names the values of a field (by abstract path or C leaf). */
export const FIELD_ENUMS: Readonly<Record<string, Readonly<Record<string, bigint>>>> = {
  'procs.state': ENUMS.proc_state,
  'pages.type': ENUMS.page_type,
  'dmapages.type': ENUMS.page_type,
  'files.type': ENUMS.file_type,
  'intremaps.state': ENUMS.intremap_state,
  'proc_table.state': ENUMS.proc_state,
  'page_desc_table.type': ENUMS.page_type,
  'dmapage_desc_table.type': ENUMS.page_type,
  'file_table.type': ENUMS.file_type,
  'intremap_table.state': ENUMS.intremap_state,
};

/** Said when no well-formed state shows the failure, so the raw model is shown. */
export const NOT_WELL_FORMED =
  'No well-formed state shows this failure (enum cells holding members, counts within the kernel limits), so this is the solver\'s raw state: some cells may hold values the kernel never produces.';

/** Said when only states with a global where C cannot place it fail (verdict.ts `outsideC`). */
export function outsideCText(at: NonNullable<Counterexample['outsideC']>): string {
  const where = at.map((a) => `${a.global} at ${a.address}`).join(', ');
  return `This state puts ${where}, where C never places a global (C's are non-null, aligned as declared, inside the address space), and no failing state that keeps them there was found. hv6's verifier assumes nothing of a global's address, so it refutes the spec too.`;
}

/** Said when a refutation is taken on the solver's word (verdict.ts `quantified`). */
const QUANTIFIED =
  'The spec has a quantifier, which cannot be evaluated concretely: this is the solver\'s state, not replayed, and values under the quantifier are not shown.';

/** Renders a value: True/False, decimal below 4096 (signed where it reads better), hex above, enum names. */
function showValue(v: Value, width: number, field?: string): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  const names = field ? FIELD_ENUMS[field] : undefined;
  if (names) {
    const hit = Object.entries(names).find(([, x]) => x === v);
    if (hit) return hit[0];
    return `${showNumber(v, width)} (not a member)`;
  }
  return showNumber(v, width);
}

/** A number: decimal when small (signed where that reads better), hex when large (addresses, masks). */
function showNumber(v: bigint, width: number): string {
  if (width === BOOL) return String(v);
  const signed = toSigned(v, width);
  if (signed < 0n && signed > -4096n) return `${signed}`;
  return v < 4096n ? `${v}` : `0x${v.toString(16)}`;
}

/** Shown for a value that has a quantifier in it (no concrete evaluation). */
export const NOT_EVALUATED = '(not evaluated: a quantifier)';

/** The value of `t` under the model; undefined when `t` has a quantifier. */
export function ev(t: Term, model: Interpretation, memo: Map<number, Value>): Value | undefined {
  try {
    return evaluate(t, model, memo);
  } catch (e) {
    if (e instanceof QuantifierEvalError) return undefined;
    throw e;
  }
}

export function show(v: Value | undefined, width: number, field?: string): string {
  return v === undefined ? NOT_EVALUATED : showValue(v, width, field);
}

/** Human name of a pre-state symbol: "c:proc_table.state" -> "procs.state" style keys stay readable. */
function symbolLabel(fn: string): string {
  return fn.replace(/^c:/, '').replace(/^old\./, '');
}

export interface CexInput {
  readonly model: Interpretation;
  readonly args: readonly { readonly arg: HandlerArg; readonly term: Term }[];
  readonly cond: Term;
  readonly ret: Term;
  readonly failures: readonly Failure[];
  readonly replayed: boolean;
  /** The failure is taken on the solver's word: a quantifier (verdict.ts). */
  readonly quantified?: boolean;
  readonly wellFormed?: boolean;
  /** The globals the state puts where C cannot (counterexample-wellformed.ts). */
  readonly outsideC?: readonly string[];
  readonly specLine?: number;
}

export function buildCounterexample(input: CexInput): Counterexample {
  const memo = new Map<number, Value>();
  const { model } = input;
  const args: CexArg[] = input.args.map(({ arg, term }) => ({
    name: arg.name,
    sort: arg.sort,
    value: show(ev(term, model, memo), term.sort),
  }));
  const cond = ev(input.cond, model, memo);
  const specCond = cond === undefined ? null : cond === true;
  const retRaw = ev(input.ret, model, memo);
  const implRet = retRaw === undefined ? NOT_EVALUATED : `${toSigned(retRaw as bigint, input.ret.sort)}`;

  const rows: CexRow[] = [];
  for (const f of input.failures) {
    if (!isFieldObligation(f.obligation)) continue;
    rows.push(fieldRow(f.obligation, model, memo));
  }

  // Pre-state facts the spec's condition and the return value read.
  const context = stateRead([input.cond, input.ret], model, memo);

  const failed = input.failures.map((f) => (f.failedParts.length ? `${f.obligation.name} (${f.failedParts.join(', ')})` : f.obligation.name));
  const argText = args.map((a) => `${a.name}=${a.value}`).join(', ');
  const condText = specCond === null ? NOT_EVALUATED : specCond ? 'True' : 'False';
  const lines = [`With ${argText || 'no arguments'}: the spec's condition is ${condText} and the implementation returns ${implRet}.`];
  if (failed.length) lines.push(`Failing: ${failed.join('; ')}.`);
  if (input.quantified) lines.push(QUANTIFIED);
  if (input.wellFormed === false) lines.push(NOT_WELL_FORMED);
  const outsideC = (input.outsideC ?? []).map((global) => {
    const v = ev(variable(`&${global}`, 64), model, memo);
    return { global, address: typeof v === 'bigint' ? `0x${v.toString(16)}` : NOT_EVALUATED };
  });
  if (outsideC.length) lines.push(outsideCText(outsideC));
  for (const r of rows.filter((x) => x.differs)) {
    const at = r.index.length ? `[${r.index.join(', ')}]` : '';
    lines.push(`${r.field}${at}: was ${r.old}, the spec makes it ${r.spec}, the implementation makes it ${r.impl}.`);
  }
  return {
    args,
    specCond,
    implRet,
    rows,
    context: context.slice(0, 24),
    specLine: input.specLine,
    replayed: input.replayed,
    ...(input.quantified ? { quantified: true as const } : {}),
    ...(input.wellFormed === undefined ? {} : { wellFormed: input.wellFormed }),
    ...(outsideC.length ? { outsideC } : {}),
    summary: lines.join('\n'),
  };
}

/**
 * The pre-state facts `roots` read, rendered and sorted: each application of
 * a pre-state map (its first six) and each pre-state scalar, under `model`.
 */
export function stateRead(roots: readonly Term[], model: Interpretation, memo: Map<number, Value>): string[] {
  const context: string[] = [];
  const seen = new Set<string>();
  const add = (text: string) => {
    if (!seen.has(text)) {
      seen.add(text);
      context.push(text);
    }
  };
  for (const [fn, list] of applications(roots)) {
    for (const app of list.slice(0, 6)) {
      const idx = app.args.map((a) => show(ev(a, model, memo), a.sort)).join(', ');
      const label = symbolLabel(fn);
      add(`${label}[${idx}] = ${show(ev(app, model, memo), app.sort, label)}`);
    }
  }
  // ... and the pre-state scalars they read (`current`, ...), which are plain symbols, not applications.
  for (const v of preStateScalars(roots)) {
    const label = symbolLabel(v.name!);
    add(`${label} = ${show(ev(v, model, memo), v.sort, label)}`);
  }
  return context.sort();
}

/** The free symbols of the pre-state (C globals `c:...`, spec ghosts `old....`) in `roots`; arguments are shown apart. */
function preStateScalars(roots: readonly Term[]): Term[] {
  const out: Term[] = [];
  eachSubterm(roots, (t) => {
    if (t.op === 'var' && !t.hasBound && /^(c:|old\.)/.test(t.name!)) out.push(t);
  });
  return out;
}

function fieldRow(ob: FieldObligation, model: Interpretation, memo: Map<number, Value>): CexRow {
  const names = ob.field.indexNames;
  const index = ob.indices.map((x, i) => `${names[i] ?? `i${i}`}=${show(ev(x, model, memo), x.sort)}`);
  const path = ob.field.path;
  const old = show(ev(ob.oldValue, model, memo), ob.oldValue.sort, path);
  const spec = show(ev(ob.specValue, model, memo), ob.specValue.sort, path);
  const impl = show(ev(ob.implValue, model, memo), ob.implValue.sort, path);
  // A value under a quantifier is not known to agree: the solver says this cell fails.
  return { field: path, index, old, spec, impl, differs: spec !== impl || spec === NOT_EVALUATED };
}
