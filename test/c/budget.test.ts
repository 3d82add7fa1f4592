/**
 * `timeoutMs` is the wall-clock budget of one whole verification, not of each
 * solver query. The implementation below differs from the oracle only when
 * its two 32-bit arguments are the prime factors of a 64-bit semiprime, so
 * deciding any of the six obligations it touches (the return value and five
 * fields) means factoring N: each query runs until its limit. With a
 * per-query limit of 2 s that was about 25 s here (a dozen hard queries);
 * with one budget of 2 s it is about 2.5 s.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { verify } from '../../src/core/verify/index.ts';

// N = 4229662571 * 3286711663 (both prime).
const FACTORING = `#include "kernel.h"

int sys_dup(int oldfd, pid_t pid, int newfd)
{
    fn_t fn;

    if ((uint64_t)(uint32_t)oldfd * (uint64_t)(uint32_t)newfd == 0xc0ecb17d91c13665ULL &&
        (uint32_t)oldfd > 1 && (uint32_t)newfd > 1) {
        proc_table[1].nr_children = 7;
        proc_table[1].nr_pages = 7;
        proc_table[1].nr_devs = 7;
        proc_table[1].nr_ports = 7;
        proc_table[1].killed = 1;
        return 0;
    }
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_fd_valid(oldfd))
        return -EBADF;
    fn = get_fd(current, oldfd);
    if (fn == 0)
        return -EBADF;
    if (!is_fd_valid(newfd))
        return -EBADF;
    if (get_fd(pid, newfd) != 0)
        return -EINVAL;
    set_fd(pid, newfd, fn);
    return 0;
}
`;

describe('the verification budget', () => {
  it('stops a check whose queries are all hard at the budget, as a timeout', async () => {
    const engine = await nodeEngine();
    const req = { handler: 'sys_dup', spec: oracleSpec('sys_dup')!, implSource: FACTORING };
    const started = Date.now();
    const v = await verify({ ...req, timeoutMs: 2000 }, { engine, caches: nodeCaches() });
    const ms = Date.now() - started;
    console.log(`factoring check with a 2 s budget: ${v.status} in ${ms} ms`);
    expect(v.status).toBe('timeout');
    if (v.status !== 'timeout') return;
    // Never `unknown`: running out of budget is a timeout.
    expect(v.obligations.some((r) => r.status === 'unknown')).toBe(false);
    expect(v.obligations.filter((r) => r.status === 'timeout').map((r) => r.name)).toEqual(
      expect.arrayContaining(['cond', 'procs.nr_children', 'procs.killed']),
    );
    // Parsing the kernel and the override and one query's overrun are on top
    // of the budget; the old per-query limit took more than 20 s here.
    expect(ms).toBeLessThan(8000);
  });
});
