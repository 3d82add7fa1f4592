/**
 * Functional maps: total functions from index terms to a value term. Both the
 * abstract kernel state (spec side) and the C memory (implementation side)
 * are records of these. Every update returns a new map; nothing is mutated.
 */
import { SortError, and, app, declareFun, eq, ite } from './ops.ts';
import { type Sort, type Term, sortName } from './term.ts';

export interface MapFn {
  readonly domain: readonly Sort[];
  readonly range: Sort;
  /** The value at the given indices (exactly `domain.length` of them). */
  apply(args: readonly Term[]): Term;
}

function checkArgs(f: MapFn, args: readonly Term[], what: string): void {
  if (args.length !== f.domain.length) {
    throw new SortError(`${what}: expected ${f.domain.length} indices, got ${args.length}`);
  }
  args.forEach((a, i) => {
    if (a.sort !== f.domain[i]) {
      throw new SortError(`${what}: index ${i + 1} should be ${sortName(f.domain[i])}, got ${sortName(a.sort)}`);
    }
  });
}

/** An unconstrained map: an uninterpreted function named `name`. */
export function ufMap(name: string, domain: readonly Sort[], range: Sort): MapFn {
  const decl = declareFun(name, [...domain], range);
  return {
    domain,
    range,
    apply(args) {
      checkArgs(this, args, name);
      return app(decl, [...args]);
    },
  };
}

/** The map that is `value` everywhere. */
function constMap(domain: readonly Sort[], value: Term): MapFn {
  return { domain, range: value.sort, apply: () => value };
}

/** A map given by a function of its indices (evaluated lazily, at each read). */
export function lambdaMap(domain: readonly Sort[], range: Sort, body: (args: readonly Term[]) => Term): MapFn {
  return {
    domain,
    range,
    apply(args) {
      checkArgs(this, args, 'map');
      const v = body(args);
      if (v.sort !== range) throw new SortError(`map value should be ${sortName(range)}, got ${sortName(v.sort)}`);
      return v;
    },
  };
}

/**
 * Returns a new map equal to `f` except where the first `prefix.length`
 * indices equal `prefix`: there it is `value`, for every value of the
 * remaining indices (a point update when the prefix is complete, a broadcast
 * otherwise; this is `util.partial_update`).
 */
export function updateMap(f: MapFn, prefix: readonly Term[], value: Term): MapFn {
  if (prefix.length > f.domain.length) throw new SortError('too many indices in update');
  prefix.forEach((p, i) => {
    if (p.sort !== f.domain[i]) {
      throw new SortError(`update: index ${i + 1} should be ${sortName(f.domain[i])}, got ${sortName(p.sort)}`);
    }
  });
  if (value.sort !== f.range) {
    throw new SortError(`update: value should be ${sortName(f.range)}, got ${sortName(value.sort)}`);
  }
  if (prefix.length === 0) return constMap(f.domain, value);
  return {
    domain: f.domain,
    range: f.range,
    apply(args) {
      checkArgs(this, args, 'map');
      const hit = and(...prefix.map((p, i) => eq(args[i], p)));
      return ite(hit, value, f.apply(args));
    },
  };
}

/** The map that is `f` where `c` holds and `g` elsewhere (both of one signature). */
export function iteMap(c: Term, f: MapFn, g: MapFn): MapFn {
  if (f === g) return f;
  if (c.op === 'const') return c.value ? f : g;
  if (f.range !== g.range || f.domain.length !== g.domain.length) {
    throw new SortError('If: the two maps have different signatures');
  }
  return {
    domain: f.domain,
    range: f.range,
    apply: (args) => ite(c, f.apply(args), g.apply(args)),
  };
}
