/**
 * A model's values as far as they were read, kept as an interpretation of
 * its own once the model is gone: every constant and application read
 * through `record` keeps the value the model gave it, and every other one
 * is 0 (false). That is a total interpretation of any query's symbols, so a
 * query whose assertions all evaluate to true under it is satisfiable,
 * whatever model first made it (verify/query.ts, `refutes`). Plain
 * JavaScript: it holds nothing in Z3's heap.
 */
import type { Interpretation, Value } from './eval.ts';
import { BOOL, type FuncDecl } from './term.ts';

export class Snapshot implements Interpretation {
  private readonly consts = new Map<string, Value>();
  private readonly apps = new Map<string, Value>();

  /** `model`, read through: what is read is kept here. */
  record(model: Interpretation): Interpretation {
    return {
      constant: (name, sort) => {
        const v = model.constant(name, sort);
        this.consts.set(name, v);
        return v;
      },
      apply: (decl, args) => {
        const v = model.apply(decl, args);
        this.apps.set(appKey(decl, args), v);
        return v;
      },
    };
  }

  constant(name: string, sort: number): Value {
    return this.consts.get(name) ?? (sort === BOOL ? false : 0n);
  }

  apply(decl: FuncDecl, args: Value[]): Value {
    return this.apps.get(appKey(decl, args)) ?? (decl.range === BOOL ? false : 0n);
  }

  /** Values kept (constants and applications). */
  get size(): number {
    return this.consts.size + this.apps.size;
  }
}

function appKey(decl: FuncDecl, args: readonly Value[]): string {
  return `${decl.name}(${args.join(',')})`;
}
