/**
 * `osvlab diff` as a user runs it: exit codes and the distinguishing
 * state's table (src/cli/commands/diff.ts), on golden pairs of
 * test/cases/diff.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { loadCases } from '../cases/load.ts';
import { startCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-diff-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(root, name);
  writeFileSync(p, text);
  return p;
}

const caseText = (name: string) => loadCases('diff').find((c) => c.name === name)!.text;

describe('osvlab diff', () => {
  it('exit 1 with a table naming the field, exit 0 with the ghost note, exit 2 for another handler', async () => {
    const oracle = file('oracle.py', oracleSpec('sys_dup')!);
    const [wrong, ghost, other] = await Promise.all([
      startCli(['diff', 'sys_dup', oracle, file('wrong.py', caseText('wrong-fd.py'))], process.env).result,
      startCli(['diff', 'sys_dup', oracle, file('ghost.py', caseText('ghost-only.py')), '--json'], process.env).result,
      startCli(['diff', 'sys_dup', oracle, file('dup2.py', oracleSpec('sys_dup2')!)], process.env).result,
    ]);
    expect(wrong.code, wrong.err).toBe(1);
    expect(wrong.out).toMatch(/differ in procs\.ofile/);
    expect(wrong.out).toContain('replayed concretely through both specs');
    expect(wrong.out).toMatch(/field\s+index\s+old\s+A new\s+B new/);
    expect(wrong.out).toMatch(/^ {2}\* procs\.ofile\s+pid=\d+,fd=\d+/m);
    expect(wrong.out).toMatch(/cond: A True, B True/);
    expect(ghost.code, ghost.err).toBe(0);
    expect(JSON.parse(ghost.out)).toMatchObject({ status: 'equivalent', ghost: { kind: 'differ', fields: ['pages.pgtable_reverse_pn'] } });
    expect(other.code).toBe(2);
    expect(other.out).toMatch(/dup2\.py:\d+:1: error DIFF001: this is a spec of sys_dup2/);
  });
});
