/**
 * `osvlab study` end to end, as a user runs it: the CLI in a child process,
 * real HTTP to the fake provider answering as the scripted learner
 * (test/fake-provider/learner.ts), grading with the real verifier. A
 * 3-mode x 2-variant study over 20 tasks with 3 repair rounds is killed
 * part-way, resumed by the same command, and never asks an answered request
 * again; its curves are what the learner's script gives for each feedback
 * mode, worked out below from the script's own coin, not from a past run.
 * The 20 tasks are 4 handlers x 5 variants: the learner answers a handler's
 * variants alike, so the graders' memo grades each distinct answer once.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudyReport } from '../../../src/core/eval/study/study-report.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { startCli } from '../../cli-process.ts';
import { LEARNER_SEED, fixesAfterVerdict, learner } from '../../fake-provider/learner.ts';
import { type FakeProvider, type FakeReply, type ReceivedRequest, startFakeProvider } from '../../fake-provider/server.ts';

const HANDLERS = ['sys_set_runnable', 'sys_lseek', 'sys_dup', 'sys_close'];
const ROUNDS = 3;
const TIMEOUT_MS = 600_000;

let fake: FakeProvider;
let tasks: Task[];
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  tasks = (await loadTasks()).filter((t) => HANDLERS.includes(t.handler));
  dir = mkdtempSync(join(tmpdir(), 'osvlab-study-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What identifies a request: the model and the whole conversation. */
const keyOf = (r: ReceivedRequest) => JSON.stringify([r.model, r.body?.messages]);

/** The round in which the learner fixes a task after bare verdicts (its first heads), or null within ROUNDS. */
function verdictFixRound(t: Task): number | null {
  for (let r = 1; r <= ROUNDS; r++) if (fixesAfterVerdict(LEARNER_SEED, { handler: t.handler, code: t.code.trimEnd() }, r)) return r;
  return null;
}

/** pass@1 after each round: every task is fixed in `round(t)` (null: never), n = 1. */
function expectedCurve(round: (t: Task) => number | null): number[] {
  return Array.from({ length: ROUNDS + 1 }, (_, r) => tasks.filter((t) => (round(t) ?? Infinity) <= r).length / tasks.length);
}

const EXPECTED: Record<string, (t: Task) => number | null> = {
  counterexample: () => 1,
  verdict: verdictFixRound,
  none: () => null,
};

function studyFile(name: string, body: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, provider: 'openai-compatible', baseUrl: `${fake.url}/v1`, models: ['learner'], shots: 0, grading: { strict: false }, ...body }, null, 2));
  return file;
}

function cli(args: string[]) {
  const started = startCli(args, { PATH: process.env.PATH, HOME: process.env.HOME });
  children.push(started.child);
  return started;
}

describe('osvlab study', () => {
  it('runs a 3-mode x 2-variant study over 20 tasks from one command, resumes after a kill without asking an answered request again, and reports the learner\'s curves', async () => {
    expect(tasks).toHaveLength(20);
    const file = studyFile('ablation', {
      prompts: ['standard', 'guide'],
      feedback: ['counterexample', 'verdict', 'none'],
      repair: ROUNDS,
      tasks: `handler:${HANDLERS.join(',')}`,
      concurrency: 4,
    });
    const out = join(dir, 'ablation');
    const answer = learner();
    const answered: string[] = [];
    let hung = 0;
    let lastAnswer = Date.now();
    // First process: answer 30 requests (in the first cell), then hang every request.
    fake.respond((req): FakeReply => {
      if (answered.length >= 30) {
        hung++;
        return { kind: 'hang' };
      }
      answered.push(keyOf(req));
      lastAnswer = Date.now();
      return answer(req);
    });
    const first = cli(['study', file, '--out', out, '--json']);
    while (hung === 0 || Date.now() - lastAnswer < 1500) {
      if (first.child.exitCode !== null) throw new Error(`the study ended before the kill: ${(await first.result).err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    first.child.kill('SIGKILL');
    expect((await first.result).signal).toBe('SIGKILL');
    expect(answered).toHaveLength(30);

    // Second process: the same command, answered to the end.
    fake.respond((req) => {
      answered.push(keyOf(req));
      return answer(req);
    });
    const second = await cli(['study', file, '--out', out, '--json']).result;
    expect(second.code, second.err).toBe(0);
    expect(second.err).toMatch(/cell 1\/6 standard \/ counterexample: resuming run/);

    // Every conversation was answered once: the first answers shared by the three modes, and nothing twice across the kill.
    expect(new Set(answered).size).toBe(answered.length);
    const verdictRepairs = tasks.reduce((s, t) => s + (verdictFixRound(t) ?? ROUNDS), 0);
    expect(answered).toHaveLength(2 * (20 + 20 + verdictRepairs + 20 * ROUNDS));

    const { report } = JSON.parse(second.out) as { report: StudyReport };
    expect(report.rows.map((r) => `${r.levels.prompt} / ${r.levels.feedback} ${r.status}`)).toEqual([
      'standard / counterexample done', 'standard / verdict done', 'standard / none done',
      'guide / counterexample done', 'guide / verdict done', 'guide / none done',
    ]);
    for (const row of report.rows) {
      const curve = expectedCurve(EXPECTED[row.levels.feedback]);
      expect(row.metrics.curve.points.map((p) => p.pass1), row.label).toEqual(curve);
      expect(row.metrics.curve.points.map((p) => p.fixed), row.label).toEqual(curve.map((c, r) => Math.round((c - (curve[r - 1] ?? 0)) * 20)));
      for (const p of row.metrics.curve.points) expect(p.tokensPerFix === null, `${row.label} round ${p.round}`).toBe(p.fixed === 0);
      // Grouped by meaning: one sample per task, so one class, and the consensus answer is the first answer.
      expect(row.determinism, row.label).toMatchObject({ tasks: 20, multi: 0, mean_largest_share: 1, consensus_pass_at_1: curve[0] });
    }
    // The half-fix is exercised: after one bare verdict some tasks are fixed and some are not.
    const verdict1 = expectedCurve(verdictFixRound)[1];
    expect(verdict1).toBeGreaterThan(0);
    expect(verdict1).toBeLessThan(1);
    // Paired, round by round: the guide changes nothing for this learner; no feedback leaves every task unfixed.
    const pair = (factor: string, a: number, b: number) => report.pairs.find((p) => p.factor === factor && p.a === a && p.b === b)!;
    for (const [a, b] of [[0, 3], [1, 4], [2, 5]]) expect(pair('prompt', a, b).byRound.map((r) => r.stats.diff)).toEqual([0, 0, 0, 0]);
    expect(pair('feedback', 0, 2).byRound.map((r) => r.stats.diff)).toEqual([0, -1, -1, -1]);
    const verdictCurve = expectedCurve(verdictFixRound);
    expect(pair('feedback', 0, 1).byRound.map((r) => r.stats.diff)).toEqual([0, ...verdictCurve.slice(1).map((v) => expect.closeTo(v - 1, 12))]);

    // The text report shows the same curves.
    const text = await cli(['study', file, '--out', out, '--report']).result;
    expect(text.code, text.err).toBe(0);
    const curveOf = (label: string) => {
      const at = text.out.indexOf(`. ${label}   (run`);
      return text.out.slice(at).split('\n').slice(2, 3 + ROUNDS).map((l) => l.trim().split(/\s+/)[1]);
    };
    expect(curveOf('guide / verdict')).toEqual(expectedCurve(verdictFixRound).map((x) => `${(x * 100).toFixed(1)}%`));
    expect(curveOf('standard / none')).toEqual(['0.0%', '0.0%', '0.0%', '0.0%']);
    expect(text.out).toContain('determinism (first answers grouped by meaning');
  }, TIMEOUT_MS);

  it('runs each shard of every cell with --shard K/N, and --merge puts the cells back together', async () => {
    fake.respond(learner());
    const file = studyFile('sharded', { feedback: ['counterexample', 'none'], repair: 1, tasks: 'sys_dup-v0,sys_dup-v1,sys_dup-v2,sys_dup-v3' });
    const base = join(dir, 'sharded');
    const shards = await Promise.all(['1/2', '2/2'].map((k) => cli(['study', file, '--out', base, '--shard', k, '--json']).result));
    for (const r of shards) expect(r.code, r.err).toBe(0);
    // Each shard did half of every cell's chains.
    for (const r of shards) {
      const { report } = JSON.parse(r.out) as { report: StudyReport };
      expect(report.rows.map((row) => row.metrics.curve.points[0].chains)).toEqual([2, 2]);
    }
    const merged = await cli(['study', file, '--out', join(dir, 'merged'), '--merge', `${base}-shard-1-of-2`, `${base}-shard-2-of-2`, '--json']).result;
    expect(merged.code, merged.err).toBe(0);
    const { report } = JSON.parse(merged.out) as { report: StudyReport };
    expect(report.rows.map((row) => [row.levels.feedback, row.status, row.metrics.curve.points.map((p) => [p.chains, p.pass1])])).toEqual([
      ['counterexample', 'done', [[4, 0], [4, 1]]],
      ['none', 'done', [[4, 0], [4, 0]]],
    ]);
  }, TIMEOUT_MS);
});
