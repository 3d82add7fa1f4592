/**
 * A study that varies the mode (docs/research.md, studies; issue 53): one
 * cell asks for one answer and its repair rounds, one runs the agent mode.
 * End to end as a user runs it: `osvlab study` in a child process, real HTTP
 * to the fake provider (the scripted agent where the request offers tools,
 * a wrong answer where it does not), the real verifier. The agent cell's run
 * has the agent's settings and no repair rounds, and the study's report,
 * as JSON and as text, carries the agent figures `report` gives an agent run.
 * The file's `modes` factor is read with coded errors (parseStudy).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStudy } from '../../../src/core/eval/study/study-file.ts';
import { expandStudy } from '../../../src/core/eval/study/grid.ts';
import type { StudyReport } from '../../../src/core/eval/study/study-report.ts';
import type { Table } from '../../../src/core/eval/stats/table.ts';
import { startCli } from '../../cli-process.ts';
import { scriptedAgent } from '../../fake-provider/agent.ts';
import { codeAnswer } from '../../fake-provider/answers.ts';
import { wrongSpec } from '../../fake-provider/learner.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../../fake-provider/server.ts';

const TIMEOUT_MS = 300_000;
const TASKS = ['sys_set_runnable-v0', 'sys_set_runnable-v1'];
let fake: FakeProvider;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  dir = mkdtempSync(join(tmpdir(), 'osvlab-study-agent-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const started = startCli(args, { PATH: process.env.PATH, HOME: process.env.HOME });
  children.push(started.child);
  return started.result;
}

const BASE = { name: 'modes', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', models: ['scripted'], shots: 0, tasks: TASKS.join(','), grading: { strict: false } };

describe('the modes factor of a study file', () => {
  it('reads answer, agent and an agent with its limits, and refuses anything else with a code', () => {
    const ok = parseStudy(JSON.stringify({ ...BASE, modes: ['answer', 'agent', { agent: { maxTurns: 4, verifyAgainst: 'reference' } }] }));
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.study.modes).toEqual(['answer', { agent: {} }, { agent: { maxTurns: 4, verifyAgainst: 'reference' } }]);
    expect(expandStudy(ok.study).map((c) => c.label)).toEqual(['answer', 'agent', 'agent (4 turns, vs reference)']);
    // A file without modes asks for one answer in every cell.
    const plain = parseStudy(JSON.stringify(BASE));
    expect(plain.ok && plain.study.modes).toEqual(['answer']);
    const codes = (modes: unknown) => {
      const r = parseStudy(JSON.stringify({ ...BASE, modes }));
      return r.ok ? [] : r.diagnostics.map((d) => d.code);
    };
    expect(codes(['repair'])).toEqual(['STUDY004']);
    expect(codes([{ agent: { maxTurns: 0 } }])).toEqual(['STUDY007']);
    expect(codes([{ agent: { verifyAgainst: 'oracle' } }])).toEqual(['STUDY004']);
    expect(codes([{ agent: { turns: 3 } }])).toEqual(['STUDY002']);
    expect(codes(['agent', 'agent'])).toEqual(['STUDY006']);
    expect(codes([{ agent: {} }, 'agent'])).toEqual(['STUDY006']);
  });
});

describe('osvlab study with an agent cell', () => {
  it('runs one-answer and agent cells side by side and reports the agent figures', async () => {
    const agent = scriptedAgent();
    // Where the request offers tools it is the agent cell: the scripted agent; else a wrong spec, every round.
    fake.respond((req): FakeReply => (Array.isArray(req.body?.tools) && req.body.tools.length > 0 ? agent(req) : { kind: 'text', text: codeAnswer(wrongSpec('sys_set_runnable', 1)) }));
    const file = join(dir, 'modes.json');
    writeFileSync(file, JSON.stringify({ ...BASE, baseUrl: `${fake.url}/v1`, modes: ['answer', 'agent'], repair: 1 }, null, 2));
    const out = join(dir, 'study');
    const r = await cli(['study', file, '--out', out, '--json']);
    expect(r.code, r.err).toBe(0);
    const { report, tables } = JSON.parse(r.out) as { report: StudyReport; tables: { cells: Table; agent?: Table } };
    expect(report.factors).toEqual(['mode']);
    expect(report.rows.map((row) => [row.label, row.status])).toEqual([['answer', 'done'], ['agent', 'done']]);
    const [answer, agentRow] = report.rows;
    // The one-answer cell repairs and has no trajectories; the agent cell has no repair rounds.
    expect(answer.metrics.agent).toBeUndefined();
    expect(answer.metrics.curve.rounds).toBe(1);
    expect(agentRow.metrics.curve.rounds).toBe(0);
    expect(agentRow.levels.agent).toEqual({ maxTurns: 10, maxCalls: 20, verifyAgainst: 'shown', toolTimeoutMs: 20_000 });
    // The figures `report` gives for the scripted agent's run (test/cli/agent.test.ts): 3 turns, 2 verify calls each.
    const a = agentRow.metrics.agent!;
    expect(a.trajectories).toBe(2);
    expect(a.meanTurns).toBe(3);
    expect(a.ends).toEqual({ answered: 2, submitted: 0, 'turns-exhausted': 0 });
    expect(a.callsPerTask).toEqual({ verify: 2 });
    expect(agentRow.metrics.curve.points[0].pass1).toBe(1);
    expect(answer.metrics.curve.points.at(-1)!.pass1).toBe(0);
    expect(tables.agent?.header.slice(0, 4)).toEqual(['#', 'cell', 'trajectories', 'turns']);
    expect(tables.agent?.rows).toHaveLength(1);
    expect(tables.agent?.rows[0].slice(0, 7)).toEqual(['2', 'agent', '2', '3.00', '2', '0', '0']);

    // The text report has the same lines as `osvlab report` for the agent cell.
    const text = await cli(['study', file, '--out', out, '--report']);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/^agent cells \(the model called the verifier as a tool/m);
    expect(text.out).toMatch(/^ {4}agent: 2 trajectories, 3\.00 turns each on average; answered 2, submitted 0, turns exhausted 0$/m);
    expect(text.out).toMatch(/^ {6}tool calls per task: verify 2\.00$/m);
    expect(text.out).toMatch(/varying mode/);
  }, TIMEOUT_MS);
});
