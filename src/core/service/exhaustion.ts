/**
 * A verifier that could not finish for want of resources, told apart from a
 * bug of ours. Z3 in WASM has a fixed 2 GiB heap (docs/design.md §8): a spec
 * that makes it bit-blast a 4096-bit multiplication runs it out of memory,
 * and emscripten aborts the worker ("Cannot enlarge memory arrays"). A query
 * may also keep Z3 busy past its time and ignore the interrupt (the engine's
 * watchdog then declares it dead, src/core/smt/solver.ts), or the worker may
 * overrun its hard limit. Each of these ends the worker (docs/design.md §5);
 * none is the answer's fault in the sense of a wrong spec, and none is an
 * internal error either: as with upstream's verifier, a check that cannot
 * finish is a timeout, graded once and never retried.
 *
 * Codes (docs/cli-errors.md): RES001 Z3 ran out of memory, RES002 Z3 did not
 * stop when its time was up, RES003 the worker's JavaScript heap ran out.
 */
import type { Diagnostic } from '../diagnostic.ts';
import type { JobOutcome } from '../pool/pool.ts';

export type Exhaustion =
  | { readonly code: 'RES001'; readonly kind: 'z3-memory'; readonly detail: string }
  | { readonly code: 'RES002'; readonly kind: 'stuck'; readonly detail: string }
  | { readonly code: 'RES003'; readonly kind: 'heap'; readonly detail: string };

/** emscripten's abort when the WASM heap cannot grow, and Z3's own allocation failure (checked after `HEAP`). */
const Z3_MEMORY = /Cannot enlarge memory arrays|Aborted\(OOM\)|\bout of memory\b|std::bad_alloc/i;
/** Node's end of a worker whose JavaScript heap ran out (ERR_WORKER_OUT_OF_MEMORY). */
const HEAP = /ERR_WORKER_OUT_OF_MEMORY|reaching memory limit: JS heap out of memory/;
/** EngineDeadError's message (src/core/smt/solver.ts). */
const STUCK = /^Z3 stopped responding\b/;

/** What ran out, when a worker's failure message says so; undefined for any other failure. */
export function exhaustionOfMessage(message: string): Exhaustion | undefined {
  if (HEAP.test(message)) return { code: 'RES003', kind: 'heap', detail: "the verifier's JavaScript heap ran out of memory" };
  if (Z3_MEMORY.test(message)) return { code: 'RES001', kind: 'z3-memory', detail: 'Z3 ran out of memory (its WASM heap is a fixed 2 GiB)' };
  if (STUCK.test(message)) return { code: 'RES002', kind: 'stuck', detail: 'Z3 did not stop when its time was up' };
  return undefined;
}

/** What ran out in a job: time (an overrun), or memory or time as the failure says. */
export function exhaustionOf(outcome: JobOutcome<unknown>): Exhaustion | undefined {
  switch (outcome.kind) {
    case 'overrun':
      return { code: 'RES002', kind: 'stuck', detail: `the verifier was still busy after ${Math.round(outcome.ms / 1000)} s` };
    case 'failed':
    case 'crashed':
      return exhaustionOfMessage(outcome.message);
    case 'done':
    case 'cancelled':
      return undefined;
  }
}

/** The coded error of `e`; the worker that ran out was stopped and replaced. */
export function exhaustionDiagnostic(e: Exhaustion): Diagnostic<undefined> {
  const notes =
    e.kind === 'z3-memory'
      ? ['The spec asks Z3 for more than its heap holds (very wide multiplications, divisions or quantifiers are the usual cause).']
      : e.kind === 'heap'
        ? ['Evaluating the spec built more data than the verifier can hold.']
        : ['The check was stopped at the end of its budget.'];
  return { code: e.code, severity: 'error', message: `${e.detail}; the check was stopped and counts as a timeout`, span: undefined, notes };
}
