/**
 * The benchmark's CLI commands, run as a user runs them (`osvlab ...` in a
 * child process): `tasks`, `task show`, `prompt` and `verify --variant`.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-process.ts';


function osvlab(...args: string[]): { code: number; out: string; err: string } {
  return runCli(args);
}

describe('osvlab tasks / task / prompt / verify --variant', () => {
  it('tasks --json prints all tasks as an array of task objects', () => {
    const r = osvlab('tasks', '--json');
    expect(r.code).toBe(0);
    const tasks = JSON.parse(r.out);
    expect(tasks).toHaveLength(245);
    expect(Object.keys(tasks[0]).sort()).toEqual(
      ['bug_classes', 'bug_count', 'code', 'declaration', 'description', 'handler', 'hash', 'id', 'impl_override', 'provenance'],
    );
  });

  it('tasks lists them one per line', () => {
    const r = osvlab('tasks');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^sys_dup-v0\s+correct/m);
    expect(r.out).toContain('245 tasks: 49 correct, 196 buggy');
  });

  it('task show prints the code and where the bugs are', () => {
    const r = osvlab('task', 'show', 'sys_dup-v1');
    expect(r.code).toBe(0);
    expect(r.out).toContain('== code shown to the model ==');
    expect(r.out).toMatch(/== injected bugs ==\nline \d+ \(\w+\): \[[a-z-]+\]/);
    expect(osvlab('task', 'show', 'no-such-task').code).toBe(4);
    expect(osvlab('task', 'list').code).toBe(4);
  });

  it('prompt prints the messages, and --stats their size in tokens', () => {
    const p = osvlab('prompt', 'sys_dup-v1', '--shots', '1');
    expect(p.code).toBe(0);
    expect(p.out).toMatch(/^===== system =====\n/);
    expect(p.out).toContain('===== user =====');
    const s = osvlab('prompt', 'sys_dup-v1', '--shots', '3', '--stats', '--json');
    expect(s.code).toBe(0);
    const stats = JSON.parse(s.out);
    expect(stats).toMatchObject({ task: 'sys_dup-v1', shots: 3, encoding: 'o200k_base' });
    expect(stats.examples).toHaveLength(3);
    expect(stats.tokens).toBe(stats.messages[0].tokens + stats.messages[1].tokens);
    expect(osvlab('prompt', '--all').code).toBe(4);
  });

  it('verify --variant runs the oracle against a task variant', () => {
    const bad = osvlab('verify', 'sys_dup', '--oracle', '--variant', 'sys_dup-v2', '--json');
    expect(bad.code, bad.err).toBe(1);
    expect(JSON.parse(bad.out).verdict.status).toBe('refuted');
    const good = osvlab('verify', 'sys_dup', '--oracle', '--variant', 'sys_dup-v0', '--json');
    expect(good.code, good.err).toBe(0);
    const other = osvlab('verify', 'sys_dup', '--oracle', '--variant', 'sys_kill-v1');
    expect(other.code).toBe(4);
    expect(other.err).toContain('is a variant of sys_kill');
  });
});
