/**
 * The renamed twin in the CLI (docs/rename.md), child processes against the
 * fake provider: `osvlab run --rename synonym` and a plain `osvlab run` of
 * the same answers (the fake answers the renamed run in the names it
 * showed) grade alike attempt for attempt, `compare` finds no flip, the
 * report names the renaming, and `regrade` of the renamed run changes
 * nothing; `grade --rename` of the renamed answers grades like the plain
 * run's first answers. `prompt`, `tasks` and `study` show renamed names and
 * the flags are checked in this process (they stop before any solver work).
 * A `run --shape permuted` of the same answers grades like the plain run too
 * (docs/shape.md). Lean for CI: three tasks, no lemma checks (test/rename/same-grades.test.ts
 * compares strict results through the same grade closure).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../src/core/eval/run/run-types.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { renamedTask } from '../../src/core/rename/task.ts';
import { shapedTask } from '../../src/core/shape/task.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { osvlab } from '../cli-main.ts';
import { Cli, oracleAnswer, proseAnswer, roundOf, taskOf, wrongRunnableAnswer } from '../eval/run/cli.ts';
import { renamedResponder } from '../fake-provider/renamed.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fake-provider/server.ts';
import { storedRun } from '../run-dir.ts';

const TIMEOUT_MS = 600_000;
const CHOICE = { style: 'synonym', seed: 1 } as const;
const SHAPE = { style: 'permuted', seed: 2 } as const;
const IDS = ['sys_kill-v2', 'sys_set_runnable-v0', 'sys_dup-v0'];
const cli = new Cli();

let fake: FakeProvider;
let selected: Task[];

function answer(t: Task, round: number): FakeReply {
  if (t.id === 'sys_set_runnable-v0' && round === 0) return { kind: 'text', text: wrongRunnableAnswer() };
  if (t.id === 'sys_dup-v0' && round === 0) return { kind: 'text', text: proseAnswer() };
  return { kind: 'text', text: oracleAnswer(t.handler) };
}

beforeAll(async () => {
  const all = await loadTasks();
  selected = IDS.map((id) => all.find((t) => t.id === id)!);
  fake = await startFakeProvider();
});
afterAll(async () => {
  cli.cleanup();
  await fake?.close();
});

const runArgs = (out: string, extra: readonly string[] = []) => [
  'run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'fake-rename',
  '--tasks', IDS.join(','), '--shots', '0', '--repair', '1', '--no-lemmas', '--out', out, ...extra,
];
const grades = (xs: readonly AttemptRecord[]) => xs.map((a) => `${a.taskId}/${a.sample}/${a.round} ${a.grade?.category}${a.grade?.strict ? '+strict' : ''}`).sort();

describe('osvlab with --rename', () => {
  it('run --rename grades like the plain run of the same answers; compare, report and regrade agree', async () => {
    const plainDir = cli.tempDir();
    fake.respond((req) => answer(taskOf(req.prompt, selected), roundOf(req.prompt)));
    const a = await cli.run(runArgs(plainDir));
    expect(a.code, a.err).toBe(0);
    const renamedDir = cli.tempDir();
    fake.reset();
    fake.respond(renamedResponder(CHOICE, selected, (t, req) => answer(t, roundOf(req.prompt))));
    const b = await cli.run(runArgs(renamedDir, ['--rename', 'synonym']));
    expect(b.code, b.err).toBe(0);
    const lens = lensFor(CHOICE);
    expect(fake.requests).toHaveLength(5);
    for (const r of fake.requests) expect(lens.originalNames(r.body.messages[1].content)).toEqual([]);

    const plain = await storedRun(plainDir);
    const renamed = await storedRun(renamedDir);
    expect(renamed.run!.config.rename).toEqual(CHOICE);
    expect(renamed.run!.id).not.toBe(plain.run!.id);
    expect(grades(renamed.attempts)).toEqual(grades(plain.attempts));
    expect(grades(plain.attempts)).toContain('sys_set_runnable-v0/0/0 semantic');

    const cmp = await osvlab('compare', plainDir, renamedDir, '--json', '--resamples', '200');
    expect(cmp.code, cmp.err).toBe(0);
    expect(JSON.parse(cmp.out).flips).toEqual({ onlyA: [], onlyB: [] });
    const report = await osvlab('report', renamedDir);
    expect(report.out).toContain('names: synonym #1');
    const regrade = await cli.run(['regrade', renamedDir]);
    expect(regrade.code, regrade.out + regrade.err).toBe(0);
    expect(regrade.out).toMatch(/5 of 5 grades unchanged/);
    const wrong = await osvlab('regrade', renamedDir, '--rename', 'opaque');
    expect(wrong.code).toBe(4);
    expect(wrong.err).toMatch(/records its answers in synonym #1 names, not opaque #1/);

    // The renamed answers graded from a file, named by their renamed handlers.
    const file = join(cli.tempDir(), 'answers.jsonl');
    // Attempts are stored as their grades finish, in an order that differs between runs: both sides by task.
    const byTask = (a: { taskId: string }, b: { taskId: string }) => a.taskId.localeCompare(b.taskId);
    const firsts = renamed.attempts.filter((x) => x.round === 0).sort(byTask);
    writeFileSync(file, firsts.map((x) => JSON.stringify({ handler: lens.names.get(x.taskId.replace(/-v\d+$/, '')), response: x.response!.text })).join('\n'));
    const g = await cli.run(['grade', '--responses', file, '--rename', 'synonym', '--no-lemmas', '--json']);
    expect(g.code, g.err).toBe(0);
    const cats = (out: string) => (JSON.parse(out).results as { category: string }[]).map((r) => r.category);
    expect(cats(g.out)).toEqual(plain.attempts.filter((x) => x.round === 0).sort(byTask).map((x) => x.grade?.category));
    expect(cats(g.out)).toContain('semantic');
    // Without --rename, the renamed handlers are unknown: every line is bad, nothing is graded.
    const unrenamed = await osvlab('grade', '--responses', file, '--json');
    expect(unrenamed.code).toBe(4);
    expect(unrenamed.err).toMatch(/GRADE006 unknown handler/);
    expect(unrenamed.err).toMatch(/IN004/);

    // The permuted shape (docs/shape.md): the fake finds each task by its shaped code (the
    // prompt shows no other), answers as before, and the run grades like the plain run.
    const shaped = selected.map((t) => shapedTask(t, SHAPE));
    expect(shaped.map((t) => t.code)).not.toEqual(selected.map((t) => t.code));
    const shapedDir = cli.tempDir();
    fake.reset();
    fake.respond((req) => answer(taskOf(req.prompt, shaped), roundOf(req.prompt)));
    const s = await cli.run(runArgs(shapedDir, ['--shape', 'permuted', '--shape-seed', '2']));
    expect(s.code, s.err).toBe(0);
    expect(fake.requests).toHaveLength(5);
    const shapedRun = await storedRun(shapedDir);
    expect(shapedRun.run!.config.shape).toEqual(SHAPE);
    expect(shapedRun.run!.id).not.toBe(plain.run!.id);
    expect(grades(shapedRun.attempts)).toEqual(grades(plain.attempts));
    expect((await osvlab('report', shapedDir)).out).toContain('shape: permuted #2');
  }, TIMEOUT_MS);

  it('prompt, tasks and study show renamed names; the flags are checked', async () => {
    const lens = lensFor({ style: 'opaque', seed: 3 });
    const p = await osvlab('prompt', 'sys_dup-v1', '--shots', '1', '--rename', 'opaque', '--rename-seed', '3');
    expect(p.code, p.err).toBe(0);
    expect(p.out).toContain(`Your task: \`${lens.names.get('sys_dup')}\``);
    expect(lens.originalNames(p.out)).toEqual([]);
    const t = await osvlab('tasks', '--json', '--rename', 'opaque', '--rename-seed', '3');
    const tasks = JSON.parse(t.out) as Task[];
    expect(tasks.find((x) => x.id === 'sys_dup-v1')!.handler).toBe(lens.names.get('sys_dup'));
    for (const x of tasks.slice(0, 20)) expect(lens.originalNames(`\`\`\`c\n${x.code}\n\`\`\``)).toEqual([]);
    const o = await osvlab('tasks', '--format', 'osvbench', '--rename', 'opaque', '--rename-seed', '3');
    const bench = JSON.parse(o.out) as { syscall: string; code: string }[];
    expect(tasks[0].handler).toBe(lens.names.get('sys_map_pml4'));
    expect(bench[0].syscall).toBe(tasks[0].handler);
    expect(lens.originalNames(bench[0].code)).toEqual([]);
    // Shaped and renamed: the same ids and hashes, each task's code shaped then renamed.
    const both = JSON.parse((await osvlab('tasks', '--json', '--shape', 'permuted', '--rename', 'opaque', '--rename-seed', '3')).out) as Task[];
    const kernelOrder = await loadTasks();
    expect(both.map((x) => `${x.id} ${x.hash}`)).toEqual(kernelOrder.map((x) => `${x.id} ${x.hash}`));
    expect(both.find((x) => x.id === 'sys_dup-v1')!.code).toBe(renamedTask(shapedTask(kernelOrder.find((x) => x.id === 'sys_dup-v1')!, { style: 'permuted', seed: 1 }), { style: 'opaque', seed: 3 }).code);

    // --rename makes a study of its own (its directory is named by another study id).
    const study = join(cli.tempDir(), 'study.json');
    writeFileSync(study, JSON.stringify({ name: 'r', provider: 'openai-compatible', baseUrl: `${fake.url}/v1`, models: ['m'], tasks: 'sys_kill-v0' }));
    const dirOf = (err: string) => /(\S*studies\/r-[0-9a-f]+) holds no study/.exec(err)?.[1];
    const own = await osvlab('study', study, '--report');
    const renamedStudy = await osvlab('study', study, '--report', '--rename', 'opaque');
    expect(dirOf(own.err)).toBeDefined();
    expect(dirOf(renamedStudy.err)).toBeDefined();
    expect(dirOf(renamedStudy.err)).not.toBe(dirOf(own.err));
    // So does --shape (docs/shape.md).
    const shapedStudy = await osvlab('study', study, '--report', '--shape', 'permuted');
    expect(dirOf(shapedStudy.err)).toBeDefined();
    expect([dirOf(own.err), dirOf(renamedStudy.err)]).not.toContain(dirOf(shapedStudy.err));

    for (const [args, message] of [
      [['prompt', 'sys_dup-v1', '--rename-seed', '2'], /--rename-seed goes with --rename STYLE/],
      [['prompt', 'sys_dup-v1', '--rename', 'rot13'], /--rename must be one of synonym, opaque, got 'rot13'/],
      [['prompt', 'sys_dup-v1', '--rename', 'synonym', '--rename-seed', '-1'], /ARG005/],
      [['prompt', 'sys_dup-v1', '--shape-seed', '2'], /--shape-seed goes with --shape STYLE/],
      [['tasks', '--shape', 'sorted'], /--shape must be permuted, got 'sorted'/],
    ] as const) {
      const r = await osvlab(...args);
      expect(r.code).toBe(4);
      expect(r.err).toMatch(message);
    }
  }, TIMEOUT_MS);
});
