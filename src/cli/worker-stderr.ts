/**
 * What a verifier worker thread writes to stderr, passed on without Z3's
 * dying words. When Z3's WASM heap runs out (or it aborts otherwise), the
 * Emscripten runtime prints the abort, the message its pthread sent and a
 * WASM stack trace before the worker dies; the pool then grades or reports
 * that job with a coded diagnostic (RES001-RES003, docs/cli-errors.md), so
 * the trace tells a user nothing and looks like a crash of osvlab. Those
 * lines are dropped, and so is every stack line (`    at ...`) that follows
 * one of them, wherever its frame is (z3-solver's glue, Node's internals);
 * every other line the worker writes is passed on as is.
 */
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';

/** Lines of the Emscripten runtime's abort report, and of the stack trace that follows it. */
const ABORT_NOISE = [
  /^\s*(RuntimeError: )?Aborted\(/,
  /^Pthread 0x[0-9a-f]+ sent an error!/,
  /^worker: onmessage\(\) captured an uncaught exception/,
  /^\s+at .*(wasm:\/\/|z3-built)/,
];

/** Is `line` part of Z3's abort report (dropped) rather than something the worker has to say? */
export function isAbortNoise(line: string): boolean {
  return ABORT_NOISE.some((re) => re.test(line));
}

const STACK_LINE = /^\s+at /;

/** Passes a worker's stderr on to `out`, line by line, without Z3's abort report and the stack traces that follow its lines. */
export function forwardWorkerStderr(from: Readable, out: Writable = process.stderr): void {
  const lines = createInterface({ input: from, crlfDelay: Infinity });
  let inReport = false;
  lines.on('line', (line) => {
    if (isAbortNoise(line)) inReport = true;
    else if (inReport && STACK_LINE.test(line)) return;
    else {
      inReport = false;
      out.write(`${line}\n`);
    }
  });
}
