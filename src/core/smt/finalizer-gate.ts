/**
 * Holds back z3-solver's garbage-collection frees while a check runs.
 *
 * The high-level API frees each native object (an expression, a model, a
 * tactic) from a `FinalizationRegistry` callback once the JS wrapper is
 * collected. Those callbacks run on the main thread whenever it is idle, and
 * while `await solver.check()` is pending it is idle: the check itself runs on
 * a pthread inside the same Z3 context. A `dec_ref` from the main thread at
 * that moment mutates the AST manager under the solver's feet, which shows up
 * as "memory access out of bounds" or a stack overflow deep in Z3's rewriter.
 *
 * The gate wraps the low-level module's release functions (`dec_ref`,
 * `*_dec_ref`, `del_*`): while any check is running they are queued, and the
 * queue is drained when the last check returns. One gate per loaded module.
 */

export interface FinalizerGate {
  /** Runs `work` with native frees deferred until it settles. */
  hold<T>(work: () => Promise<T>): Promise<T>;
  /** Frees queued so far and not yet run (for tests and diagnostics). */
  readonly pending: number;
}

const RELEASE = /(^|_)dec_ref$|^del_/;
const gates = new WeakMap<object, FinalizerGate>();

/** The gate for a low-level Z3 module (`init().Z3`), installed on first use. */
export function finalizerGate(lowLevel: object): FinalizerGate {
  const known = gates.get(lowLevel);
  if (known) return known;

  const api = lowLevel as Record<string, unknown>;
  const queued: Array<() => void> = [];
  let running = 0;

  for (const name of Object.keys(api)) {
    const original = api[name];
    if (!RELEASE.test(name) || typeof original !== 'function') continue;
    api[name] = (...args: unknown[]) => {
      if (running > 0) queued.push(() => original(...args));
      else return original(...args);
    };
  }

  const drain = () => {
    while (running === 0 && queued.length > 0) queued.shift()!();
  };

  const gate: FinalizerGate = {
    async hold(work) {
      running++;
      try {
        return await work();
      } finally {
        running--;
        drain();
      }
    },
    get pending() {
      return queued.length;
    },
  };
  gates.set(lowLevel, gate);
  return gate;
}
