/**
 * Z3 in the smallest memory a phone gets (docs/app.md, "Z3's memory"): with
 * OSVLAB_Z3_MEMORY=256 the Node engine runs the wasm whose memory import the
 * build rewrites to 256 MiB (src/worker/wasm-memory.ts), the same rewrite the
 * browser's 256 MiB file gets, and every oracle spec still refines the kernel,
 * as test/verify/oracles.test.ts requires of the 2 GiB engine. A bad size is
 * refused by name.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Before the engine loads: this file's process runs Z3 in 256 MiB (vitest runs each file in a fork of its own).
process.env.OSVLAB_Z3_MEMORY = '256';

const { nodeEnv, nodeZ3, nodeZ3MemoryMiB } = await import('../../src/cli/z3-node.ts');
const { oracleSpec } = await import('../../src/core/kernel/content.ts');
const { HANDLERS } = await import('../../src/core/kernel/handlers.ts');
const { verify } = await import('../../src/core/verify/index.ts');

describe('Z3 in 256 MiB', () => {
  it('runs in a memory of exactly 256 MiB', async () => {
    expect(nodeZ3MemoryMiB()).toBe(256);
    const em = (await nodeZ3()).em as { HEAPU8: Uint8Array };
    expect(em.HEAPU8.byteLength).toBe(256 * 1024 * 1024);
  });

  for (const h of HANDLERS) {
    it(`verifies the ${h.name} oracle, as in 2 GiB`, async () => {
      const v = await verify({ handler: h.name, spec: oracleSpec(h.name)! }, await nodeEnv());
      expect(v.status, `${h.name}: ${v.status === 'refuted' ? v.failed.join(', ') : ''}`).toBe('verified');
    });
  }

  it('refuses a size it has no wasm for, naming the sizes it has', () => {
    const engine = join(import.meta.dirname, '../../src/cli/z3-node.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', 'import(process.argv[1]).then((m) => m.nodeZ3MemoryMiB())', engine], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, OSVLAB_Z3_MEMORY: '300' },
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('OSVLAB_Z3_MEMORY=300 is not one of');
  });
});
