/**
 * `osvlab verify` on bad implementation input and hostile input files, run
 * as a user runs it (a child process): a C error is data (exit 2, code,
 * message, line, column and file in `--json`, a code frame in the
 * terminal); `/dev/zero`, a FIFO without a writer, an oversized file and
 * `--timeout 0` end at once with a coded usage error (exit 4) instead of
 * eating memory or blocking.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'osvlab-cli-errors-'));

function osvlab(args: string[], stdin: 'ignore' | number = 'ignore'): { code: number | null; out: string; err: string; ms: number } {
  return runCli(args, { stdin, timeoutMs: 90_000 });
}

const BAD_C = `#include "kernel.h"

int sys_dup(int oldfd, pid_t pid, int newfd)
{
    return oldfd +;
}
`;

describe('osvlab verify on bad input', () => {
  it('reports a C error with its code and position, exit 2 (JSON and terminal)', () => {
    const impl = join(dir, 'bad.c');
    writeFileSync(impl, BAD_C);
    const j = osvlab(['verify', 'sys_dup', '--oracle', '--impl', impl, '--json']);
    expect(j.code, j.err).toBe(2);
    const out = JSON.parse(j.out);
    expect(out).toMatchObject({
      handler: 'sys_dup',
      verdict: { status: 'impl-error', error: { code: 'C020', message: "expected an expression, found ';'", line: 5, column: 19, file: impl } },
    });
    expect(typeof out.ms).toBe('number');
    const t = osvlab(['verify', 'sys_dup', '--oracle', '--impl', impl]);
    expect(t.code).toBe(2);
    expect(t.err).toBe(
      `${impl}:5:19: error C020: expected an expression, found ';'\n` +
        '  4 | {\n' +
        '> 5 |     return oldfd +;\n' +
        '    |                   ^\n' +
        '  6 | }\n',
    );
  });

  it('a UTF-8 byte-order mark opening a C file is accepted as gcc accepts it; a path off the end of a handler is C064 at its closing brace', () => {
    const body = `#include "kernel.h"\n\nint sys_kill(pid_t pid)\n{\n    struct proc *p;\n\n    if (!is_pid_valid(pid))\n        return -ESRCH;\n    p = get_proc(pid);\n    if (p->state == PROC_UNUSED || p->state == PROC_ZOMBIE)\n        return -EINVAL;\n    p->killed = 1;\n    if (p->state != PROC_RUNNING) {\n        p->state = PROC_ZOMBIE;\n        proc_ready_del(pid);\n    }\n    return 0;\n}\n`;
    const bom = join(dir, 'bom.c');
    writeFileSync(bom, `\uFEFF${body}`);
    const ok = osvlab(['verify', 'sys_kill', '--oracle', '--impl', bom, '--json']);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out).verdict.status).toBe('verified');

    const off = join(dir, 'falls-off.c');
    writeFileSync(off, body.replace('    return 0;\n}', '}'));
    const r = osvlab(['verify', 'sys_kill', '--oracle', '--impl', off, '--json']);
    expect(r.code, r.err).toBe(2);
    expect(JSON.parse(r.out).verdict.error).toMatchObject({ code: 'C064', line: 17, column: 1, file: off });
    expect(JSON.parse(r.out).verdict.error.message).toMatch(/^control reaches the end of 'sys_kill', which returns int, without a return statement/);
  });

  it('reports a C error found while running the handler (a path explosion), exit 2', () => {
    const impl = join(dir, 'paths.c');
    writeFileSync(impl, `#include "kernel.h"\nint sys_dup(int oldfd, pid_t pid, int newfd)\n{\n    int i;\n    for (i = 0; i < 20000; i++)\n        if (oldfd == i)\n            return i;\n    return 0;\n}\n`);
    const j = osvlab(['verify', 'sys_dup', '--oracle', '--impl', impl, '--json']);
    expect(j.code, j.err).toBe(2);
    expect(JSON.parse(j.out).verdict.error).toMatchObject({ code: 'C062', line: 7, column: 13, file: impl });
  });

  it('refuses endless and blocking inputs at once: /dev/zero, a FIFO without a writer, an oversized file', () => {
    const zeroSpec = osvlab(['verify', 'sys_dup', '--spec', '/dev/zero']);
    expect(zeroSpec.code).toBe(4);
    expect(zeroSpec.err).toContain("IN002 spec '/dev/zero' is a device");
    const zeroImpl = osvlab(['verify', 'sys_dup', '--oracle', '--impl', '/dev/zero']);
    expect(zeroImpl.code).toBe(4);
    expect(zeroImpl.err).toContain("IN002 implementation '/dev/zero' is a device");
    const zeroResponses = osvlab(['grade', '--responses', '/dev/zero']);
    expect(zeroResponses.code).toBe(4);
    expect(zeroResponses.err).toContain("IN002 responses '/dev/zero' is a device");

    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const f = osvlab(['verify', 'sys_dup', '--spec', fifo]);
    expect(f.code, 'a FIFO without a writer must not block').toBe(4);
    expect(f.err).toContain('is a pipe (FIFO)');

    const big = join(dir, 'big.py');
    writeFileSync(big, `# ${'x'.repeat(1 << 20)}\n`);
    const b = osvlab(['verify', 'sys_dup', '--spec', big]);
    expect(b.code).toBe(4);
    expect(b.err).toContain(`IN001 spec '${big}' is larger than 1 MiB`);
  });

  it('reads standard input for -, with the same cap', () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const z = osvlab(['verify', 'sys_dup', '--spec', '-'], zero);
      expect(z.code).toBe(4);
      expect(z.err).toContain("IN001 spec '-' is larger than 1 MiB");
    } finally {
      closeSync(zero);
    }
    const spec = join(dir, 'bad.py');
    writeFileSync(spec, 'def sys_dup(old, oldfd, pid, newfd):\n    return (\n');
    const fd = openSync(spec, 'r');
    try {
      const s = osvlab(['verify', 'sys_dup', '--spec', '-', '--json'], fd);
      expect(s.code, s.err).toBe(2);
      expect(JSON.parse(s.out).verdict.status).toBe('spec-error');
    } finally {
      closeSync(fd);
    }
  });

  it('refuses --timeout 0 (it would mean no budget at all)', () => {
    const r = osvlab(['verify', 'sys_dup', '--oracle', '--timeout', '0']);
    expect(r.code).toBe(4);
    expect(r.err).toContain("ARG005 --timeout must be a whole number from 1 to 86400000 ms, got '0'");
  });
});
