/**
 * The budget of a verification when the request gives none (ms). The
 * slowest oracle, clone_proc, took 29 s on this 2-core machine under a load
 * of 20 (about 5 s idle); the budget must not turn a slow machine's proof
 * into a timeout. A leaf of its own so that the page's job limits
 * (service/limits.ts) read it without importing the verifier (docs/app.md,
 * "Loading Z3").
 */
export const DEFAULT_BUDGET_MS = 120_000;
