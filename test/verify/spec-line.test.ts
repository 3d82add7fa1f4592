import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { verify } from '../../src/core/verify/index.ts';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('a counterexample points at the spec line involved', () => {
  it('links a wrongly written field to the line that wrote it', async () => {
    const spec = readFileSync('test/cases/refute/sys_dup/count_on_caller.py', 'utf8');
    const v = await verify({ handler: 'sys_dup', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.counterexample?.specLine).toBe(lineOf(spec, 'new.procs[cur].nr_fds[newfd] += 1'));
  });

  it('links a field the spec forgot to update to its return line', async () => {
    const spec = readFileSync('test/cases/refute/sys_dup/no_file_ref.py', 'utf8');
    const v = await verify({ handler: 'sys_dup', spec }, await nodeEnv());
    expect(v.status).toBe('refuted');
    if (v.status !== 'refuted') return;
    expect(v.counterexample?.specLine).toBe(lineOf(spec, 'return cond, util.If(cond, new, old)'));
  });
});
