/**
 * The public operations on spec text: parse it, run a handler's entry
 * function on an abstract state, check it for the editor. Errors come back
 * as Diagnostics, never as exceptions.
 */
import { type HandlerInfo, UnknownHandlerError, entryNames, requireHandler } from '../kernel/handlers.ts';
import { BACKED_FIELDS } from '../kernel/equiv.ts';
import { type AbstractState, type FieldValue, fieldFromParts, fieldParts, freshState, isRefcnt } from '../kernel/state.ts';
import { BoundedMap } from '../bounded-map.ts';
import { phaseClock } from '../phases.ts';
import type { MapFn } from '../smt/fn.ts';
import { BOOL, Term, boolConst, variable } from '../smt/term.ts';
import { type Span, TEXT_START } from '../span.ts';
import type { Diagnostic } from '../diagnostic.ts';
import type * as A from './ast.ts';
import { lintModule } from './lint.ts';
import { SpecError, badRequest, badReturn, entryParams, internalError, missingEntry, nestingLimit, notCallable, quantifierRefuted } from './errors.ts';
import { DEFAULT_LIMITS, type Deadline, type Limits } from './evaluator.ts';
import { Interpreter } from './interp.ts';
import { recordingWrites } from './field-write.ts';
import { failingMap, pinnedMap } from './maps.ts';
import { fromAbstract, toAbstract } from './kernelstate.ts';
import type { KernelStateObj } from './objects.ts';
import { limitTreeDepth } from './depth.ts';
import { parseModule } from './parser.ts';
import { warn, withWarnings } from './warnings.ts';
import { describe, expr, isTerm } from './values.ts';
import type { PyValue } from './objects.ts';

export type SpecParseResult = { ok: true; module: A.Module } | { ok: false; error: Diagnostic };

export interface RunOptions {
  /** Step budget (statements + expressions), default 200000. */
  readonly maxSteps?: number;
  /** Nested user calls, default 100. */
  readonly maxDepth?: number;
  /** Stop with SPEC018 once this wall-clock deadline passes (the agent's `run` tool). */
  readonly deadline?: Deadline;
  /**
   * Every map the spec changed is pinned before the run returns: read once
   * at fresh indices (and once more at others, so a lambda that raises when
   * read again raises now), and from then on its value at any indices is
   * that term with those indices substituted. A whole-map lambda then runs
   * only inside the run: every later read (refinement, the declarative
   * checks, the comparison with the oracle's step) sees the same function
   * of its indices, whatever the lambda counts or inspects, and no read
   * after the run raises a spec's error.
   *
   * `force` says which pinning errors raise (as a Diagnostic). 'backed'
   * (the default): what OSVBench's refinement check reads upstream, the
   * compared fields (a Refcnt's count, not its permutation); an error in
   * any other changed field becomes a SPEC204 warning, as upstream never
   * reads it, and that map raises it at every read. 'all': every field
   * raises (the declarative checks read ghost fields). 'none': nothing is
   * read or pinned (the maps stay lazy; for the dialect's own tests).
   */
  readonly force?: 'backed' | 'all' | 'none';
  /** Where parsed sources are kept (default: the module's own). */
  readonly parseCache?: ParseCache;
}

export interface RunTrace {
  /** Interpreter steps used by the entry call. */
  readonly steps: number;
}

export type RunResult =
  | {
      ok: true;
      cond: Term;
      post: AbstractState;
      entryName: string;
      trace?: RunTrace;
      /** Field path -> the spec line that last wrote it. */
      writes: ReadonlyMap<string, number>;
      /** The line of the entry function's return. */
      returnLine: number;
      /** Where upstream evaluates without raising but a stricter check would have (SPEC2xx). */
      warnings: Diagnostic[];
    }
  | { ok: false; error: Diagnostic; warnings: Diagnostic[] };

/** Parsed and checked modules by source text, bounded. */
export type ParseCache = BoundedMap<string, A.Module>;

/** A parse cache of the last `capacity` sources (the verifier owns its own, verify/caches.ts). */
export function newParseCache(capacity = 16): ParseCache {
  return new BoundedMap(capacity);
}

// The editor's: it re-checks one text often.
const parsed = newParseCache();

function parseChecked(source: string, cache: ParseCache = parsed): A.Module {
  const hit = cache.get(source);
  if (hit) return hit;
  const mod = parseModule(source);
  limitTreeDepth(mod);
  lintModule(mod);
  cache.set(source, mod);
  return mod;
}

function toDiagnostic(e: unknown, source: string): Diagnostic {
  if (e instanceof SpecError) return e.toDiagnostic(source);
  // Not the spec's fault, and no place in it: SPEC030 at the start, as every bad request.
  if (e instanceof UnknownHandlerError) return badRequest(e.message).toDiagnostic(source);
  // A JavaScript stack overflow outside the interpreter's own conversion.
  if (e instanceof RangeError && /call stack/i.test(e.message)) return nestingLimit(TEXT_START).toDiagnostic(source);
  const msg = e instanceof Error ? e.message : String(e);
  return internalError(TEXT_START, msg).toDiagnostic(source);
}

/** Parses and statically checks a spec. */
export function parseSpec(source: string): SpecParseResult {
  try {
    return { ok: true, module: parseChecked(source) };
  } catch (e) {
    return { ok: false, error: toDiagnostic(e, source) };
  }
}

function paramList(h: HandlerInfo): string {
  return ['old', ...h.args.map((a) => a.name)].join(', ');
}

/** Checks that the entry function can take (old, *args). */
function checkEntry(fn: PyValue, name: string, h: HandlerInfo): void {
  if (typeof fn !== 'object' || fn === null || isTerm(fn)) throw notCallable(TEXT_START, `the entry ${name} (${describe(fn)})`);
  if (fn.kind !== 'function') return;
  const n = h.args.length + 1;
  const positional = fn.params.filter((p) => !p.star);
  const required = positional.filter((p) => p.default === undefined).length;
  const star = fn.params.some((p) => p.star);
  if (required > n || (positional.length < n && !star)) {
    const at = fn.node.kind === 'FunctionDef' ? fn.node.nameSpan : fn.node.span;
    throw entryParams(at, name, n, paramList(h), positional.length);
  }
}

function entrySpan(fn: PyValue): Span {
  if (typeof fn === 'object' && fn !== null && !isTerm(fn) && fn.kind === 'function') {
    return fn.node.kind === 'FunctionDef' ? fn.node.nameSpan : fn.node.span;
  }
  return TEXT_START;
}

// Pin variables no spec can name in advance (a spec constant named like one
// would be replaced at every read). Soundness does not rest on it: a pinned
// map runs no spec code, so a spec that learns the names gains nothing.
const NONCE = `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

/**
 * Reads `f` (the map of `name`) at fresh indices and returns it pinned to
 * that read (maps.ts `pinnedMap`), after reading it once more at other
 * fresh indices: a whole-map lambda runs at both reads, so one that raises
 * when read again (hv6's verifier reads a map more than once) raises here.
 */
function pin(f: MapFn, name: string): MapFn {
  const at = f.domain.map((s, i) => variable(`pin.${NONCE}.${name}.${i}`, s));
  const term = f.apply(at);
  f.apply(f.domain.map((s, i) => variable(`pin.${NONCE}.${name}.again.${i}`, s)));
  return pinnedMap(f.domain, f.range, at, term);
}

// The fields OSVBench's check reads upstream: state_equiv compares these
// (a Refcnt by its count only); the condition and the C invariants read no
// other field of the spec's state (docs/spec-errors.md, "Read or unread").
const COMPARED = new Set(BACKED_FIELDS.map((f) => f.path));

/**
 * Returns `post` with every changed map pinned (see RunOptions.force). A
 * lazy error in a map nothing reads becomes a SPEC204 warning at the
 * error's span, and the map raises that error at every read.
 */
function pinChanged(interp: Interpreter, post: AbstractState, pre: AbstractState, force: 'backed' | 'all'): AbstractState {
  const out = new Map<string, FieldValue>();
  for (const [path, v] of post) {
    const old = pre.get(path);
    if (v === old) {
      out.set(path, v);
      continue;
    }
    const before = old === undefined ? [] : fieldParts(old);
    const parts = fieldParts(v);
    const n = force === 'all' ? parts.length : COMPARED.has(path) ? 1 : 0;
    const maps = parts.map(({ suffix, map }, k) => {
      if (map === before[k]?.map) return map;
      const name = `${path}${suffix}`;
      if (k < n) return interp.run(() => pin(map, name));
      try {
        return interp.run(() => pin(map, name));
      } catch (e) {
        if (!(e instanceof SpecError) || e.code === 'SPEC099') throw e;
        warn('SPEC204', e.span, `this write would raise when ${path} is read: ${e.message}`, [
          `upstream never reads ${path} in the refinement check, so the spec is graded on the other fields`,
          ...e.notes,
          ...e.trace,
        ]);
        return failingMap(map.domain, map.range, () => {
          const again = new SpecError(e.code, e.message, e.span, e.notes);
          again.trace.push(...e.trace);
          return again;
        });
      }
    });
    out.set(path, fieldFromParts(v, maps));
  }
  return out;
}

/**
 * Runs the entry function of `entry` (a handler name; its hv6 alias is
 * tried too) on `pre` and the symbolic arguments `args`. Returns the
 * success condition and a new post-state; `pre` is never modified.
 */
export function runSpec(source: string, entry: string, pre: AbstractState, args: Term[], opts: RunOptions = {}): RunResult {
  const warnings: Diagnostic[] = [];
  try {
    return phaseClock.timed('spec', () => withWarnings(source, warnings, () => runSpecNow(source, entry, pre, args, opts, warnings)));
  } catch (e) {
    return { ok: false, error: toDiagnostic(e, source), warnings };
  }
}

function runSpecNow(source: string, entry: string, pre: AbstractState, args: Term[], opts: RunOptions, warnings: Diagnostic[]): RunResult {
  const h = requireHandler(entry);
  if (args.length !== h.args.length) {
    throw badRequest(`${h.name} takes ${h.args.length} arguments (${h.args.map((a) => a.name).join(', ')}) but ${args.length} were given`);
  }
  h.args.forEach((a, i) => {
    if (args[i].sort !== a.width) {
      throw badRequest(`argument ${a.name} of ${h.name} must be a ${a.width}-bit bit-vector (${a.sort}), got sort ${args[i].sort === BOOL ? 'Bool' : args[i].sort}`);
    }
  });
  const mod = phaseClock.timed('parse', () => parseChecked(source, opts.parseCache));
  const limits: Limits = {
    maxSteps: opts.maxSteps ?? DEFAULT_LIMITS.maxSteps,
    maxDepth: opts.maxDepth ?? DEFAULT_LIMITS.maxDepth,
    ...(opts.deadline ? { deadline: opts.deadline } : {}),
  };
  const interp = new Interpreter(source, mod, limits);
  interp.loadModule();
  const names = entryNames(h);
  const entryName = names.find((n) => interp.globals.vars.has(n));
  if (entryName === undefined) throw missingEntry(TEXT_START, h.name, names);
  const fn = interp.globals.vars.get(entryName)!;
  checkEntry(fn, entryName, h);
  const old = fromAbstract(pre);
  interp.lastReturnSpan = undefined;
  const { result, writes } = recordingWrites(() => interp.call(fn, [old, ...args.map(expr)], entrySpan(fn)));
  const steps = interp.stepsUsed;
  const at = interp.lastReturnSpan ?? entrySpan(fn);
  const { cond, state } = unpackResult(result, entryName, at);
  const force = opts.force ?? 'backed';
  const written = toAbstract(state);
  const post = attachSource(force === 'none' ? written : pinChanged(interp, written, pre, force), pre, source);

  return { ok: true, cond, post, entryName, trace: { steps }, writes, returnLine: at.line, warnings };
}

/**
 * Wraps the changed maps of `post` so that a SpecError thrown when one is
 * read later (lazy lambdas, raw Python ints) carries the spec text for its
 * code frame.
 */
function attachSource(post: AbstractState, pre: AbstractState, source: string): AbstractState {
  const wrap = (f: MapFn): MapFn => ({
    domain: f.domain,
    range: f.range,
    apply(args) {
      try {
        return f.apply(args);
      } catch (e) {
        if (e instanceof SpecError) e.source ??= source;
        throw e;
      }
    },
  });
  const out = new Map<string, FieldValue>();
  for (const [path, v] of post) {
    if (v === pre.get(path)) out.set(path, v);
    else if (!isRefcnt(v)) out.set(path, wrap(v));
    else if (v.kind === 'refcnt') out.set(path, { kind: 'refcnt', ref: wrap(v.ref), perm: wrap(v.perm), permInv: wrap(v.permInv) });
    else out.set(path, { kind: 'refcnt2', ref: wrap(v.ref), perm1: wrap(v.perm1), perm2: wrap(v.perm2), permInv: wrap(v.permInv) });
  }
  return out;
}

function unpackResult(r: PyValue, name: string, at: Span): { cond: Term; state: KernelStateObj } {
  if (!(typeof r === 'object' && r !== null && !isTerm(r) && (r.kind === 'tuple' || r.kind === 'list'))) {
    throw badReturn(at, name, describe(r));
  }
  if (r.items.length !== 2) throw badReturn(at, name, describe(r));
  const [c, s] = r.items;
  let cond: Term;
  if (isTerm(c) && c.term.sort === BOOL) cond = c.term;
  else if (typeof c === 'boolean') cond = boolConst(c);
  else throw badReturn(at, name, `(${describe(c)}, ...): the condition must be a z3 Bool`);
  if (!(typeof s === 'object' && s !== null && !isTerm(s) && s.kind === 'kstate')) {
    throw badReturn(at, name, `(cond, ${describe(s)}): the state must be a KernelState`);
  }
  return { cond, state: s };
}

/**
 * Diagnostics for the editor: parses the spec and runs `handler` on a fresh
 * symbolic state with fresh arguments, reading the fields as the grade does
 * (a lazy error in a compared field is an error, in an unread one SPEC204).
 * The error (if any) comes first, then the warnings (`severity: 'warning'`);
 * [] when it runs cleanly.
 */
export function lintSpec(source: string, handler: string): Diagnostic[] {
  const p = parseSpec(source);
  if (!p.ok) return [p.error];
  let h: HandlerInfo;
  try {
    h = requireHandler(handler);
  } catch (e) {
    return [toDiagnostic(e, source)];
  }
  const args = h.args.map((a) => variable(`arg.${a.name}`, a.width));
  const r = runSpec(source, h.name, freshState(), args);
  return r.ok ? r.warnings : [r.error, ...r.warnings];
}

/**
 * Calls function `name` of a spec with plain values (Python ints, terms,
 * which become z3 expression objects); for tests and tools that evaluate
 * dialect expressions.
 */
export function callSpecFunction(
  source: string,
  name: string,
  args: readonly (PyValue | Term)[] = [],
): { ok: true; value: PyValue } | { ok: false; error: Diagnostic } {
  try {
    const interp = new Interpreter(source, parseChecked(source));
    interp.loadModule();
    const fn = interp.globals.vars.get(name);
    if (fn === undefined) throw badRequest(`no function '${name}' in the spec`);
    return { ok: true, value: interp.call(fn, args.map((a) => (a instanceof Term ? expr(a) : a)), TEXT_START) };
  } catch (e) {
    return { ok: false, error: toDiagnostic(e, source) };
  }
}

/**
 * Runs a spec's module body as Python 2 runs a file, keeping what its
 * `print`s write to standard output (a pipe: Python 2's str() of each
 * item, bytes, one character 0-255 each; a unicode is encoded as ASCII).
 * For tests and tools that compare the dialect with Python 2 itself.
 */
export function runModule(source: string): { printed: string; error?: Diagnostic } {
  const out: string[] = [];
  try {
    const interp = new Interpreter(source, parseChecked(source), DEFAULT_LIMITS, { write: (t) => void out.push(t) });
    interp.loadModule();
    return { printed: out.join('') };
  } catch (e) {
    return { printed: out.join(''), error: toDiagnostic(e, source) };
  }
}

/**
 * The SPEC031 diagnostic of a spec with a quantifier that the solver
 * refutes, at the first `ForAll(` / `Exists(` of the text (else at line
 * `fallbackLine`, the entry's return). The verifier reports it as a warning
 * beside the refutation: the counterexample cannot be replayed concretely
 * through the quantifier (smt/eval.ts).
 */
export function quantifierDiagnostic(source: string, fallbackLine: number): Diagnostic {
  const m = /\b(ForAll|Exists)\s*\(/.exec(source);
  const lines = source.split('\n');
  let offset: number;
  let end: number;
  if (m) {
    offset = m.index;
    end = m.index + m[1].length;
  } else {
    const n = Math.max(1, Math.min(fallbackLine, lines.length));
    const lineStart = lines.slice(0, n - 1).reduce((k, l) => k + l.length + 1, 0);
    const text = lines[n - 1] ?? '';
    offset = lineStart + (text.length - text.trimStart().length);
    end = lineStart + text.length;
  }
  const before = source.slice(0, offset).split('\n');
  const line = before.length;
  const column = before[before.length - 1].length + 1;
  const span: Span = { line, column, endLine: line, endColumn: column + (end - offset), offset, endOffset: end };
  return quantifierRefuted(span).toDiagnostic(source);
}
