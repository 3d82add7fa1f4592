/**
 * The maps the interpreter stores in kernel-state fields. They implement
 * `MapFn` (smt/fn.ts) with the same meaning as `updateMap`, `iteMap` and
 * `lambdaMap`, plus two things the dialect needs:
 *
 * - memoisation per index tuple: a chain of state-level `util.If`s whose
 *   branches share a base map would otherwise be re-read once per path
 *   (exponential in the chain length); with the memo every (map, indices)
 *   pair is computed once. Whole-map lambdas bind their free variables late
 *   (a read sees the variables as they are at that moment), so every memo is
 *   dropped when the interpreter may have changed something a lambda can see
 *   (`bumpEpoch`, called on every mutating statement): the memo then serves
 *   one read at a time while a spec runs, and every read after it returns;
 * - lazy errors: a Python int written into a field is kept raw, as upstream
 *   does, and reading it where the index match is symbolic throws the
 *   "Can not ite object of type int" SpecError (docs/hv6-model.md §4.5); a
 *   write upstream stores as a closure that fails when called (a value of
 *   the wrong width or sort, a lambda of the wrong shape) is a map that
 *   throws its error at every read (`failingMap`).
 *
 * Every constructor returns a new map; nothing is mutated.
 */
import type { MapFn } from '../smt/fn.ts';
import { SortError, and, eq, ite } from '../smt/ops.ts';
import { substitute } from '../smt/subst.ts';
import { BOOL, type Sort, type Term, boolConst, bvConst, isFalse, isTrue, sortName } from '../smt/term.ts';
import type { SpecError } from './errors.ts';

/** A map that holds a raw Python value for some indices (see module comment). */
export interface RawMap extends MapFn {
  /** The raw Python int or bool that this map returns where its write matches. */
  readonly raw: bigint | boolean;
  /** True where reading gives the raw value (the write's index match folds to true). */
  rawAt(args: readonly Term[]): boolean;
}

function isRawMap(f: MapFn): f is RawMap {
  return 'raw' in f;
}

// Advanced whenever spec code may have changed a variable, a list or a state
// table. Memo entries from an older epoch are stale. One counter for all
// interpreters: another run only costs a recomputation, never a wrong value.
let epoch = 0;

/** Invalidates every map memo (called by the interpreter before a mutation). */
export function bumpEpoch(): void {
  epoch++;
}

function key(args: readonly Term[]): string | number {
  if (args.length === 1) return args[0].id;
  let k = '';
  for (const a of args) k += `${a.id},`;
  return k;
}

function checkArgs(domain: readonly Sort[], args: readonly Term[]): void {
  if (args.length !== domain.length) throw new SortError(`map: expected ${domain.length} indices, got ${args.length}`);
  for (let i = 0; i < args.length; i++) {
    if (args[i].sort !== domain[i]) {
      throw new SortError(`map: index ${i + 1} should be ${sortName(domain[i])}, got ${sortName(args[i].sort)}`);
    }
  }
}

/** A memoised map whose value at `args` is `compute(args)`. */
function memoMap(domain: readonly Sort[], range: Sort, compute: (args: readonly Term[]) => Term): MapFn {
  const memo = new Map<string | number, Term>();
  let seen = epoch;
  return {
    domain,
    range,
    apply(args) {
      checkArgs(domain, args);
      if (seen !== epoch) {
        memo.clear();
        seen = epoch;
      }
      const k = key(args);
      let v = memo.get(k);
      if (v === undefined) {
        v = compute(args);
        memo.set(k, v);
      }
      return v;
    },
  };
}

/** The match condition of a write through `prefix` (the first k indices). */
function hit(prefix: readonly Term[], args: readonly Term[]): Term {
  return and(...prefix.map((p, i) => eq(args[i], p)));
}

/**
 * Returns a new map equal to `f` except where the first `prefix.length`
 * indices equal `prefix`: there it is `value` (util.partial_update).
 */
export function writeMap(f: MapFn, prefix: readonly Term[], value: Term): MapFn {
  if (prefix.length === 0) return constantMap(f.domain, value);
  return memoMap(f.domain, f.range, (args) => ite(hit(prefix, args), value, f.apply(args)));
}

/** The map that is `value` everywhere. */
export function constantMap(domain: readonly Sort[], value: Term): MapFn {
  return { domain, range: value.sort, apply: () => value };
}

function rawTerm(raw: bigint | boolean, range: Sort): Term {
  return range === BOOL ? boolConst(raw as boolean) : bvConst(raw as bigint, range);
}

/**
 * A write of a raw Python int or bool through `prefix`. Reading it where the
 * match folds to true gives the value (as a constant of the field's sort),
 * where it folds to false gives `f`'s value, and anywhere else throws
 * `onSymbolic()`, as upstream's util.If does.
 */
export function writeRawMap(f: MapFn, prefix: readonly Term[], raw: bigint | boolean, onSymbolic: () => SpecError): RawMap {
  const value = rawTerm(raw, f.range);
  const inner = memoMap(f.domain, f.range, (args) => {
    const c = hit(prefix, args);
    if (isTrue(c)) return value;
    if (isFalse(c)) return f.apply(args);
    throw onSymbolic();
  });
  return {
    domain: f.domain,
    range: f.range,
    apply: (args) => inner.apply(args),
    raw,
    rawAt: (args) => isTrue(hit(prefix, args)),
  };
}

/** A scalar (arity-0) or whole-map write of a raw Python value. */
export function rawConstantMap(domain: readonly Sort[], range: Sort, raw: bigint | boolean): RawMap {
  const value = rawTerm(raw, range);
  return { domain, range, apply: () => value, raw, rawAt: () => true };
}

/**
 * Returns the map that is `f` where `c` holds and `g` elsewhere. When `f`
 * holds a raw Python value and `c` is symbolic, reading throws
 * `onRaw()` (upstream's util.If on the two results).
 */
export function iteMaps(c: Term, f: MapFn, g: MapFn, onRaw: () => SpecError): MapFn {
  if (f === g) return f;
  if (isTrue(c)) return f;
  if (isFalse(c)) return g;
  if (f.range !== g.range || f.domain.length !== g.domain.length) {
    throw new SortError('If: the two maps have different signatures');
  }
  if (isRawMap(f)) {
    if (f.domain.length === 0) throw onRaw();
    return memoMap(f.domain, f.range, (args) => {
      if (f.rawAt(args)) throw onRaw();
      return ite(c, f.apply(args), g.apply(args));
    });
  }
  return memoMap(f.domain, f.range, (args) => ite(c, f.apply(args), g.apply(args)));
}

/**
 * A map whose every read throws `raise()`: upstream's util.partial_update
 * (or a stored lambda) that raises each time it is called, so only a read
 * fails, never the write. A new error per read: traces are appended on the way out.
 */
export function failingMap(domain: readonly Sort[], range: Sort, raise: () => SpecError): MapFn {
  return {
    domain,
    range,
    apply(args) {
      checkArgs(domain, args);
      throw raise();
    },
  };
}

/**
 * A map computed by `body` at each index tuple, lazily (whole-map lambdas).
 * `body` is responsible for the value's sort.
 */
export function lazyMap(domain: readonly Sort[], range: Sort, body: (args: readonly Term[]) => Term): MapFn {
  return memoMap(domain, range, body);
}

/**
 * A map fixed to one term: `term` is the map's value at the fresh
 * variables `at`, and its value at any indices is `term` with those
 * indices for `at` (run.ts pins every map a spec writes this way, so that
 * no read after the spec returns runs spec code and two reads can never
 * disagree). Pure, so its memo never goes stale.
 */
export function pinnedMap(domain: readonly Sort[], range: Sort, at: readonly Term[], term: Term): MapFn {
  const memo = new Map<string | number, Term>();
  return {
    domain,
    range,
    apply(args) {
      checkArgs(domain, args);
      if (args.every((a, i) => a === at[i])) return term;
      const k = key(args);
      let v = memo.get(k);
      if (v === undefined) {
        if (memo.size >= PINNED_MEMO) memo.clear();
        v = substitute(term, new Map(at.map((x, i) => [x, args[i]])));
        memo.set(k, v);
      }
      return v;
    },
  };
}

// Reads kept per pinned map: a check reads a map at a few hundred index tuples.
const PINNED_MEMO = 4096;
