/**
 * A verifier worker's stderr reaches the user without Z3's abort report
 * (src/cli/worker-stderr.ts): the lines below are what the Emscripten runtime
 * printed when a 4096-bit product ran Z3 out of its heap in `osvlab grade`
 * (shortened in the middle of each long line), and what else a worker may
 * write must still come through.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forwardWorkerStderr, isAbortNoise } from '../../src/cli/worker-stderr.ts';

const Z3_ABORT = [
  'Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). Either (1) compile with -sINITIAL_MEMORY=X ...)',
  'worker: onmessage() captured an uncaught exception: RuntimeError: Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). ...)',
  'RuntimeError: Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). ...)',
  '    at abort (/work/main/node_modules/z3-solver/build/z3-built.js:848:11)',
  '    at _emscripten_resize_heap (/work/main/node_modules/z3-solver/build/z3-built.js:5315:7)',
  '    at z3-built.wasm.sbrk (wasm://wasm/z3-built.wasm-085478b6:wasm-function[35907]:0x1b6160f)',
  '    at z3-built.wasm.ast_manager::register_node_core(ast*) (wasm://wasm/z3-built.wasm-085478b6:wasm-function[5402]:0x2e5267)',
  '    at invoke_iii (/work/main/node_modules/z3-solver/build/z3-built.js:6958:36)',
  'Pthread 0x0451fe70 sent an error! undefined:undefined: Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). ...)',
];

const OTHER = [
  'osvlab: warning: something the worker says',
  'Error: a bug of ours',
  '    at gradeJob (/work/main/src/core/service/grade-job.ts:40:11)',
  'Aborted by the user? no: a line that only mentions the word',
];

/** An abort whose stack runs through z3-solver's JavaScript and Node's internals, not only its WASM. */
const Z3_ABORT_JS_STACK = [
  'RuntimeError: Aborted(Cannot enlarge memory arrays to size 2257457152 bytes (OOM). ...)',
  '    at abort (/work/main/node_modules/z3-solver/build/z3-built.js:848:11)',
  '    at Object.check (/work/main/node_modules/z3-solver/build/high-level/high-level.js:1210:43)',
  '    at MessagePort.<anonymous> (/work/main/node_modules/z3-solver/build/node.js:40:12)',
  '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  '    at async Promise.all (index 0)',
];

describe("a worker's stderr", () => {
  it("loses Z3's abort report and nothing else", async () => {
    expect(Z3_ABORT.filter((l) => !isAbortNoise(l))).toEqual([]);
    expect(OTHER.filter(isAbortNoise)).toEqual([]);
    const from = new PassThrough();
    const out = new PassThrough();
    let text = '';
    out.on('data', (b: Buffer) => (text += b.toString()));
    forwardWorkerStderr(from, out);
    from.end([OTHER[0], ...Z3_ABORT, ...OTHER.slice(1)].join('\n') + '\n');
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toBe(OTHER.map((l) => `${l}\n`).join(''));
  });

  it('loses the whole stack after an abort line, and keeps a stack that follows a line of its own', async () => {
    const from = new PassThrough();
    const out = new PassThrough();
    let text = '';
    out.on('data', (b: Buffer) => (text += b.toString()));
    forwardWorkerStderr(from, out);
    from.end([...Z3_ABORT_JS_STACK, ...OTHER.slice(1), ...Z3_ABORT_JS_STACK].join('\n') + '\n');
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toBe(OTHER.slice(1).map((l) => `${l}\n`).join(''));
  });
});
