/**
 * `osvlab run --agent` end to end: the CLI in a child process, the scripted
 * agent on the fake provider over real HTTP, the real verifier. A run is
 * reported with its agent numbers; a run killed mid-trajectory resumes and
 * asks no request that was answered; the agent's options need --agent.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAgent, toolResultsOf } from '../fake-provider/agent.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { Cli, waitFor } from '../eval/run/cli.ts';
import { storedRun } from '../run-dir.ts';

const TIMEOUT_MS = 240_000;
let fake: FakeProvider;
const cli = new Cli();
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  cli.cleanup();
  await fake.close();
});

const args = (out: string, extra: readonly string[] = []) => [
  'run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'scripted',
  '--tasks', 'sys_set_runnable-v0,sys_set_runnable-v1', '--shots', '0', '--no-lemmas', '--agent', '--out', out, ...extra,
];

describe('osvlab run --agent', () => {
  it('runs the scripted agent and reports its trajectories', async () => {
    fake.reset();
    fake.respond(scriptedAgent());
    const out = join(cli.tempDir(), 'run');
    const r = await cli.run(args(out));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^agent: 2 trajectories, 3\.00 turns each on average; answered 2, submitted 0, turns exhausted 0$/m);
    expect(r.out).toMatch(/^ {2}tool calls per task: verify 2\.00$/m);
    const { run, attempts } = await storedRun(out);
    expect(run.config.agent).toEqual({ maxTurns: 10, maxCalls: 20, verifyAgainst: 'shown', toolTimeoutMs: 20_000 });
    expect(attempts.map((a) => a.trajectory?.turns.length)).toEqual([3, 3]);
    expect(fake.requests).toHaveLength(6);
  }, TIMEOUT_MS);

  it('killed mid-trajectory, a rerun resumes after the last stored turn and repeats no answered request', async () => {
    fake.reset();
    const agent = scriptedAgent();
    let killed = false;
    const out = join(cli.tempDir(), 'run');
    const first = cli.start(args(out, ['--concurrency', '1', '--tasks', 'sys_set_runnable-v0']));
    // The second turn's request (one tool result in it) is never answered: the CLI is killed then.
    fake.respond((req) => {
      if (toolResultsOf(req).length === 1 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
        return { kind: 'hang' };
      }
      return agent(req);
    });
    await first.result;
    await waitFor('the kill', () => killed);
    const { attempts } = await storedRun(out);
    expect(attempts[0].trajectory?.turns).toHaveLength(1);
    const before = fake.requests.length;
    const again = await cli.run(args(out, ['--concurrency', '1', '--tasks', 'sys_set_runnable-v0']));
    expect(again.code, again.err).toBe(0);
    // Asked again: the turn in flight and the last one; never the first turn, whose answer was stored.
    const rerun = fake.requests.slice(before);
    expect(rerun.map((q) => toolResultsOf(q).length)).toEqual([1, 2]);
    expect((await storedRun(out)).attempts[0].grade?.category).toBe('pass');
  }, TIMEOUT_MS);

  it('refuses the agent options without --agent', async () => {
    const r = await cli.run(['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'm', '--max-turns', '3']);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/--max-turns is an option of the agent mode: add --agent/);
  }, TIMEOUT_MS);
});
