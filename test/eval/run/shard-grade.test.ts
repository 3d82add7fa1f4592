/**
 * `osvlab grade --shard K/N --out DIR` and merge: a small responses file
 * graded by three processes at once and merged reports exactly what one
 * process grading the whole file reports. Real CLI processes, real verifier.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Cli, oracleAnswer, proseAnswer } from './cli.ts';
import { storedRun } from '../../run-dir.ts';

const cli = new Cli();
afterAll(() => cli.cleanup());

describe('grade --shard K/N and merge', () => {
  it('three shards of a responses file merge into the one-process report', async () => {
    const root = cli.tempDir();
    const file = join(root, 'responses.jsonl');
    // Seven lines; sys_dup-v0 twice (samples 0 and 1), two prose answers (syntax), one by handler name.
    const lines = [
      { task_id: 'sys_dup-v0', response: oracleAnswer('sys_dup') },
      { task_id: 'sys_set_runnable-v0', response: proseAnswer() },
      { task_id: 'sys_close-v0', response: oracleAnswer('sys_close') },
      { task_id: 'sys_dup-v0', response: proseAnswer() },
      { task_id: 'sys_dup-v1', response: oracleAnswer('sys_dup') },
      { handler: 'sys_set_runnable', response: oracleAnswer('sys_set_runnable') },
      { task_id: 'sys_reclaim_port-v1', response: proseAnswer() },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

    const single = join(root, 'single');
    const one = await cli.run(['grade', '--responses', file, '--out', single, '--concurrency', '1', '--no-lemmas']);
    expect(one.code, one.err).toBe(0);
    const shards = [1, 2, 3].map((k) => join(root, `shard-${k}`));
    const results = await Promise.all(
      shards.map((d, i) => cli.run(['grade', '--responses', file, '--shard', `${i + 1}/3`, '--out', d, '--concurrency', '1', '--no-lemmas'])),
    );
    for (const r of results) expect(r.code, r.err).toBe(0);
    // Tasks in the benchmark's order (the run lists them so): sys_set_runnable-v0 0, sys_close-v0 1, sys_dup-v0 2,
    // sys_dup-v1 3, sys_reclaim_port-v1 4, n = 2; (task t, sample s) is chain 2t + s of 10, and chain p goes to shard
    // floor(3p / 10) + 1: lines 2 (0), 6 (1), 3 (2) to shard 1; lines 1 (4), 4 (5), 5 (6) to shard 2; line 7 (8) to shard 3.
    expect(results.map((r) => [...r.out.matchAll(/^line (\d+) /gm)].map((m) => Number(m[1])).sort())).toEqual([[2, 3, 6], [1, 4, 5], [7]]);

    const merged = join(root, 'merged');
    const m = await cli.run(['merge', ...shards, '--out', merged]);
    expect(m.code, m.err).toBe(0);
    const a = await cli.run(['report', single]);
    const b = await cli.run(['report', merged]);
    expect(a.code, a.err).toBe(0);
    expect(b.out).toBe(a.out);
    // 7 answers over 5 tasks (sys_dup-v0 and sys_set_runnable-v0 have 2 samples each).
    expect(a.out).toMatch(/5 tasks, 7 first answers/);

    const { attempts } = await storedRun(merged);
    const category = Object.fromEntries(attempts.map((x) => [`${x.taskId}|${x.sample}`, x.grade!.category]));
    expect(category).toEqual({
      'sys_dup-v0|0': 'pass',
      'sys_set_runnable-v0|0': 'syntax',
      'sys_close-v0|0': 'pass',
      'sys_dup-v0|1': 'syntax',
      'sys_dup-v1|0': 'pass',
      'sys_set_runnable-v0|1': 'pass',
      'sys_reclaim_port-v1|0': 'syntax',
    });

    // `osvlab compare` against a second "model" that answered prose everywhere, on a subset plus a task A lacks.
    const fileB = join(root, 'responses-b.jsonl');
    const linesB = ['sys_dup-v0', 'sys_close-v0', 'sys_dup-v1', 'sys_set_runnable-v0', 'sys_kill-v0'].map((id) => ({ task_id: id, response: proseAnswer() }));
    writeFileSync(fileB, linesB.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const dirB = join(root, 'b');
    expect((await cli.run(['grade', '--responses', fileB, '--out', dirB, '--concurrency', '1'])).code).toBe(0);
    const cmp = await cli.run(['compare', merged, dirB, '--json']);
    expect(cmp.code, cmp.err).toBe(0);
    const c = JSON.parse(cmp.out);
    // Pairs: the first samples of the 4 shared tasks; A passes sys_dup-v0, sys_close-v0, sys_dup-v1 and not sys_set_runnable-v0.
    expect(c.overall).toMatchObject({ tasks: 4, passA: 3, passB: 0, onlyA: 3, onlyB: 0 });
    expect(c.overall.mcnemarP).toBeCloseTo(2 / 8, 12);
    expect(c.flips.onlyA).toEqual(['sys_close-v0', 'sys_dup-v0', 'sys_dup-v1']);
    expect(c.dropped).toEqual([
      { task: 'sys_reclaim_port-v1', reason: 'only-in-a' },
      { task: 'sys_kill-v0', reason: 'only-in-b' },
    ]);
    expect(c.reference.label).toContain('OSVBench');
    const text = await cli.run(['compare', merged, dirB]);
    expect(text.out).toContain('sys_kill-v0                  only-in-b');
    expect(text.out).toContain('p = 0.2500');

    // Rerunning a finished shard grades nothing again (its lines come from the directory).
    const again = await cli.run(['grade', '--responses', file, '--shard', '2/3', '--out', shards[1], '--concurrency', '1', '--no-lemmas']);
    expect(again.code, again.err).toBe(0);
    // Shard 2 holds lines 1, 4 and 5: two oracle answers and one prose answer.
    expect(again.out).toContain('3 answers: pass 2, syntax 1');
  }, 300_000);
});
