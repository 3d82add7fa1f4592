/**
 * The engine a verifier worker verifies with before Z3 has loaded
 * (src/core/service/serve.ts `verifyWithoutSolver`). It has no solver: its first
 * query throws `SolverNeededError`, which ends that verification, and the
 * caller asks again once Z3 is there. A verification that never queries
 * (its spec does not parse; every obligation is covered by a committed
 * proof; a concrete state refutes it, verify/run-refute.ts) runs exactly
 * the code it runs with Z3 and gets the same verdict,
 * while the browser is still compiling Z3's wasm (docs/app.md, "Loading Z3").
 * Its jobs share the worker's queue with Z3's (`exclusive`), so they never
 * run beside a Z3 job that may hold models in the same caches.
 */
import type { SmtEngine } from '../smt/solver.ts';
import type { Serial } from '../pool/serial.ts';

/** A verification asked the solver-free engine a query: it needs Z3. */
class SolverNeededError extends Error {
  constructor() {
    super('this verification needs the solver');
    this.name = 'SolverNeededError';
  }
}

/** An engine without a solver whose jobs run on `exclusive`. */
export function solverFreeEngine(exclusive: Serial): SmtEngine {
  return {
    check: () => Promise.reject(new SolverNeededError()),
    dump: () => {
      throw new SolverNeededError();
    },
    interrupt: () => undefined,
    exclusive,
  };
}
