/**
 * Z3 in the smallest memory a phone gets (docs/app.md, "Z3's memory"): with
 * OSVLAB_Z3_MEMORY=256 the Node engine runs, in a memory of 256 MiB, the one
 * wasm whose memory import admits 256 MiB to 2 GiB (src/z3/memory.ts),
 * as the browser's one wasm does. A few of the heaviest handlers are proved here
 * from scratch (a verified oracle, a refutation with its counterexample), as
 * in 2 GiB; the sweep of all 50 oracles at every size is perf/z3-memory.ts.
 * A bad size is refused by name.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Before the engine loads: this file's process runs Z3 in 256 MiB (vitest runs each file in a fork of its own).
process.env.OSVLAB_Z3_MEMORY = '256';

const { nodeEnv, nodeZ3, nodeZ3MemoryMiB } = await import('../../src/z3/node.ts');
const { KERNEL, oracleSpec } = await import('../../src/core/kernel/content.ts');
const { verify } = await import('../../src/core/verify/index.ts');

// Two of the slowest oracles to prove (many queries over large terms; clone_proc,
// the slowest, took 90 s under load and is left to perf/z3-memory.ts), and the
// handler of the first lesson.
const HEAVY = ['sys_dup2', 'sys_alloc_io_bitmap', 'sys_set_runnable'];

/**
 * The engine with the kernel as a program of its own (an equal copy): the
 * committed proofs of the shipped kernel (tasks/hv6/refinement-proofs.json)
 * do not apply to it, so every obligation is asked of Z3 here, in 256 MiB.
 */
async function fromScratch() {
  return { ...(await nodeEnv()), kernel: { ...KERNEL } };
}

describe('Z3 in 256 MiB', () => {
  it('runs in a memory of exactly 256 MiB', async () => {
    expect(nodeZ3MemoryMiB()).toBe(256);
    const em = (await nodeZ3()).em as { HEAPU8: Uint8Array };
    expect(em.HEAPU8.byteLength).toBe(256 * 1024 * 1024);
  });

  for (const handler of HEAVY) {
    it(`proves the ${handler} oracle from scratch, as in 2 GiB`, async () => {
      const v = await verify({ handler, spec: oracleSpec(handler)!, timeoutMs: 110_000 }, await fromScratch());
      expect(v.status, `${handler}: ${v.status === 'refuted' ? v.failed.join(', ') : ''}`).toBe('verified');
    });
  }

  it('refutes a wrong spec and reads its counterexample', async () => {
    // Lesson 1's starter: starting a child does not run it.
    const wrong = oracleSpec('sys_set_runnable')!.replace(/PROC_RUNNABLE/g, 'PROC_RUNNING');
    const v = await verify({ handler: 'sys_set_runnable', spec: wrong, timeoutMs: 110_000 }, await fromScratch());
    expect(v.status).toBe('refuted');
    expect(JSON.stringify(v)).toContain('procs.state');
  });

  it('refuses a size it has no wasm for, naming the sizes it has', () => {
    const engine = join(import.meta.dirname, '../../src/z3/node.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', 'import(process.argv[1]).then((m) => m.nodeZ3MemoryMiB())', engine], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, OSVLAB_Z3_MEMORY: '300' },
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('OSVLAB_Z3_MEMORY=300 is not one of');
  });
});
