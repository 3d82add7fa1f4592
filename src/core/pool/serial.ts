/**
 * One job at a time: each job starts when the one before it has settled,
 * whether it resolved or threw. A verifier worker runs every verification
 * on one such queue, with Z3's engine or with the solver-free one it uses
 * before Z3 has loaded (serve.ts, solver-free.ts). Z3's engine alone keeps a
 * queue of the same kind (core/smt/solver.ts `exclusive`), which the worker
 * replaces with its own.
 */
export type Serial = <T>(job: () => Promise<T>) => Promise<T>;

/** A fresh queue. */
export function serial(): Serial {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(job: () => Promise<T>): Promise<T> => {
    const run = queue.then(job, job);
    queue = run.catch(() => undefined);
    return run;
  };
}
