/**
 * What the verifier assumes of the kernel's globals' addresses, and what C
 * leaves undefined, as `verify --impl` meets them (docs/c-subset.md, "Memory
 * model" and "Expressions"). hv6's verifier gives each global whose address
 * the kernel takes a fresh 64-bit value and assumes nothing else of it, so
 * neither do we: a spec or an implementation that is right only where C
 * places the globals (non-null, aligned as declared, inside the address
 * space) is refuted, as it is there, and its counterexample names the
 * globals it puts where C cannot (`outsideC`). When a failing state within
 * C's placement exists, the counterexample is one. A signed division that overflows (the
 * most negative value by -1, SIGFPE under gcc) is a safety failure like
 * division by zero.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { KERNEL, oracleSpec } from '../../src/core/kernel/content.ts';
import { verify } from '../../src/core/verify/index.ts';
import { requireArtefact } from '../artefacts.ts';
import { runCli } from '../cli-process.ts';

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

describe("the globals' addresses are hv6's: free 64-bit values", () => {
  it('an implementation right only at a non-null table is refuted, at a null one', async () => {
    const v = await check(killWith('    if ((uintptr_t)&proc_table[0] == 0)\n        return -EINVAL;'));
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.failed).toContain('cond');
    expect(v.counterexample?.replayed).toBe(true);
    expect(v.counterexample?.outsideC).toEqual([{ global: 'proc_table', address: '0x0' }]);
  });

  it('an implementation right only at a page-aligned table is refuted, at a misaligned one', async () => {
    const v = await check(killWith('    if ((uintptr_t)proc_table % 4096 != 0)\n        return -EINVAL;'));
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.counterexample?.outsideC?.map((a) => a.global)).toEqual(['proc_table']);
    expect(BigInt(v.counterexample!.outsideC![0].address) % 4096n).not.toBe(0n);
  });

  it('a counterexample keeps the globals where C places them when a failing state does: 8 KiB alignment of a 4 KiB table', async () => {
    const v = await check(killWith('    if ((uintptr_t)proc_table % 8192 != 0)\n        return -EINVAL;'));
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.failed).toContain('cond');
    expect(v.counterexample?.replayed).toBe(true);
    expect(v.counterexample?.outsideC).toBeUndefined();
  });

  // A page's byte address (base + n * 4096) and its frame number shifted back
  // ((base / 4096 + n) << 12) differ exactly when the base is not page-aligned.
  it("a spec that writes a page's byte address where the kernel writes a shifted frame number is refuted, at a misaligned dmapages", async () => {
    const spec = readFileSync('test/cases/refute/sys_map_iommu_frame/byte_address.py', 'utf8');
    const v = await verify({ handler: 'sys_map_iommu_frame', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.failed).toEqual(['pages.data']);
    const at = v.counterexample?.outsideC ?? [];
    expect(at.map((a) => a.global)).toEqual(['dmapages']);
    expect(BigInt(at[0].address) % 4096n).not.toBe(0n);
  });

  it('the reverse swap, as a user meets it: osvlab verify exits 1 and notes where the failing state puts the page array', () => {
    const r = runCli(['verify', 'sys_alloc_iommu_pdpt', '--spec', 'test/cases/refute/sys_alloc_iommu_pdpt/x86_entry.py'], { timeoutMs: 300_000 });
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('failed: pages.data');
    const note = /note: This state puts pages at (0x[0-9a-f]+), where C never places a global .*hv6's verifier assumes nothing of a global's address/.exec(r.out);
    expect(note, r.out).not.toBeNull();
    expect(BigInt(note![1]) % 4096n).not.toBe(0n);
  }, 300_000);

  it('a wrong page-table entry that is wrong wherever the table is gets a counterexample within C\'s placement', async () => {
    const spec = readFileSync('test/cases/refute/sys_alloc_iommu_pdpt/no_base.py', 'utf8');
    const v = await verify({ handler: 'sys_alloc_iommu_pdpt', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    if (v.status === 'refuted') expect(v.counterexample?.outsideC).toBeUndefined();
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
