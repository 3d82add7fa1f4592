/**
 * What C guarantees of the kernel's globals and what it leaves undefined,
 * as `verify --impl` meets them (docs/c-subset.md, "Memory model" and
 * "Expressions"): a global's address is non-null, aligned to its type or
 * to the `aligned(N)` it is declared with, and inside the address space, so
 * a correct implementation that relies on it verifies, and one that relies
 * on more does not; a signed division that overflows (the most negative
 * value by -1, SIGFPE under gcc) is a safety failure like division by zero.
 */
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/cli/z3-node.ts';
import { KERNEL, oracleSpec } from '../../src/core/kernel/content.ts';
import { verify } from '../../src/core/verify/index.ts';
import { requireArtefact } from '../artefacts.ts';

/** The kernel's own sys_kill, with `guard` at the top of its body. */
function killWith(guard: string): string {
  const text = [...KERNEL.files.values()].find((t) => t.includes('\nint sys_kill(pid_t pid)\n'));
  const own = requireArtefact(/^int sys_kill\(pid_t pid\)\n\{\n(?:.*\n)*?\}\n/m.exec(text ?? '')?.[0], "the kernel's sys_kill");
  return `#include "kernel.h"\n${own.replace('    struct proc *p;\n', `    struct proc *p;\n\n${guard}\n`)}`;
}

async function check(implSource: string) {
  const spec = requireArtefact(oracleSpec('sys_kill'), 'the oracle spec of sys_kill');
  return verify({ handler: 'sys_kill', spec, implSource }, await nodeEnv());
}

describe("the globals' addresses", () => {
  it('are non-null, page-aligned where declared so, aligned to their type and in range: relying on it verifies', async () => {
    const v = await check(killWith(`    if ((uintptr_t)&proc_table[0] == 0 || (uintptr_t)&current == 0)
        return -EINVAL;
    if ((uintptr_t)proc_table % 4096 != 0 || (uintptr_t)dmapages % 2097152 != 0 || (uintptr_t)&current % 8 != 0)
        panic("misaligned table");
    if ((uintptr_t)&proc_table[NPROC - 1] < (uintptr_t)proc_table)
        panic("the table wraps around");`));
    expect(v.status, v.status === 'refuted' ? v.failed.join(', ') : v.status).toBe('verified');
  });

  it('are no more aligned than declared: relying on 8 KiB alignment of a 4 KiB-aligned table is refuted', async () => {
    const v = await check(killWith(`    if ((uintptr_t)proc_table % 8192 != 0)
        return -EINVAL;`));
    expect(v.status).toBe('refuted');
    if (v.status === 'refuted') {
      expect(v.failed).toContain('cond');
      expect(v.counterexample?.replayed).toBe(true);
    }
  });
});

describe('signed division overflow', () => {
  for (const [what, guard] of [
    ['INT_MIN / -1', '    int m = -2147483647 - 1;\n    if (m / ((int)pid | 1) == 7 && 0)\n        return -1;'],
    ['LONG_MIN / -1', '    long m = -9223372036854775807L - 1;\n    if (m / (pid | 1) == 7 && 0)\n        return -1;'],
    ['INT_MIN % -1', '    int m = -2147483647 - 1;\n    if (m % ((int)pid | 1) == 7 && 0)\n        return -1;'],
  ] as const) {
    it(`${what} is a safety failure (gcc's binary dies with SIGFPE)`, async () => {
      const v = await check(killWith(guard));
      expect(v.status).toBe('refuted');
      if (v.status === 'refuted') expect(v.failed).toEqual(['safety']);
    });
  }

  it('a division whose divisor cannot be -1 is safe', async () => {
    const v = await check(killWith('    int m = -2147483647 - 1;\n    if (pid > 0 && pid < NPROC && m / (int)pid == 7 && 0)\n        return -1;'));
    expect(v.status).toBe('verified');
  });
});
