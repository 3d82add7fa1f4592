/**
 * `osvlab run` on a reasoning model (issue 15 "Done when"): the fake
 * provider rejects temperature/top_p with 400 as reasoning models do, and
 * every answer opens with a `<think>` block holding a wrong draft fence
 * before the real answer. The CLI runs in a child process with the real
 * verifier; grades and token counts follow from the script.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { startCli } from '../cli-process.ts';
import { codeAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, type ReceivedRequest, startFakeProvider } from '../fake-provider/server.ts';

const TIMEOUT_MS = 240_000;
/** Must never reach an openai-compatible host (issue 15 item 7). */
const OPENAI_KEY = 'sk-openai-only-0123456789';

const oracle = (h: string) => oracleSpec(h)!;
/** A wrong draft per handler (one state write differs from the oracle). */
const DRAFT: Record<string, string> = {
  sys_set_runnable: oracle('sys_set_runnable').replace('dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING'),
  sys_dup: oracle('sys_dup').replace('    new.procs[pid].nr_fds[newfd] += 1\n', ''),
};
const TASKS: Record<string, string> = { 'sys_set_runnable-v0': 'sys_set_runnable', 'sys_dup-v0': 'sys_dup' };
const USAGE = { input: 1000, output: 300, reasoning: 700 };

/** The reasoning model's answer: thinking with a wrong draft fence, then the real answer. */
function answer(handler: string): string {
  return `<think>\nA first draft:\n\`\`\`python\n${DRAFT[handler]}\`\`\`\nThat misses a state update; fix it.\n</think>\n\n${codeAnswer(oracle(handler))}`;
}

function handlerOf(prompt: string): string {
  const h = /Your task: `(\w+)`/.exec(prompt)?.[1];
  if (!h || !DRAFT[h]) throw new Error(`unexpected prompt for ${h}`);
  return h;
}

let fake: FakeProvider;
const dirs: string[] = [];
beforeAll(async () => {
  fake = await startFakeProvider({ rejectSampling: true });
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  fake.respond((r: ReceivedRequest) => ({ kind: 'text', text: answer(handlerOf(r.prompt)), usage: USAGE }));
});

function cli(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: OPENAI_KEY };
  delete env.OSVLAB_API_KEY;
  return startCli(args, env).result;
}

function runArgs(extra: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'osvlab-reasoning-'));
  dirs.push(dir);
  // A bare host: the client adds /v1 (issue 15 item 6).
  return ['run', '--provider', 'openai-compatible', '--base-url', fake.url, '--model', 'deepseek-r1', '--tasks', Object.keys(TASKS).join(','),
    '--shots', '0', '--n', '1', '--concurrency', '2', '--out', dir, '--json', '--no-lemmas', ...extra];
}

describe('osvlab run with a reasoning model', () => {
  it('sends no temperature, grades the answer after </think> (not the draft), counts reasoning tokens once, sends no OpenAI key', async () => {
    const r = await cli(runArgs(['--max-tokens', '8000', '--reasoning-effort', 'high']));
    expect(r.code, r.err).toBe(0);
    const n = Object.keys(TASKS).length;
    expect(fake.requests).toHaveLength(n);
    for (const q of fake.requests) {
      expect(q.path).toBe('/v1/chat/completions');
      expect(q.body).not.toHaveProperty('temperature');
      expect(q.body).not.toHaveProperty('top_p');
      expect(q.body).toMatchObject({ max_tokens: 8000, reasoning_effort: 'high' });
      expect(q.key).toBeUndefined();
      expect(JSON.stringify(q.headers)).not.toContain(OPENAI_KEY);
    }
    const rep = JSON.parse(r.out);
    expect(rep.attempts.map((a: any) => `${a.task_id}|${a.category}`).sort()).toEqual(Object.keys(TASKS).map((t) => `${t}|pass`).sort());
    expect(rep.metrics.rates.pass).toBe(1);
    // completion_tokens already holds the reasoning: output = visible + reasoning, once.
    expect(rep.metrics.tokens).toEqual({ input: n * USAGE.input, output: n * (USAGE.output + USAGE.reasoning) });
  }, TIMEOUT_MS);

  it('--extract osvbench grades what OSVBench would: the first ```python block, here the draft inside <think>', async () => {
    // One task is enough here (a refuted spec costs a counterexample search).
    const r = await cli(runArgs(['--extract', 'osvbench', '--tasks', 'sys_set_runnable-v0']));
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.attempts.map((a: any) => `${a.task_id}|${a.category}`)).toEqual(['sys_set_runnable-v0|semantic']);
  }, TIMEOUT_MS);

  it('a temperature the model refuses stops the run at once with the reason, instead of failing every attempt', async () => {
    const eight = ['sys_dup', 'sys_set_runnable'].flatMap((h) => [0, 1, 2, 3].map((v) => `${h}-v${v}`)).join(',');
    const r = await cli(runArgs(['--temperature', '0', '--concurrency', '1', '--tasks', eight]));
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/refused a sampling parameter 'temperature'/);
    // At most the runner's workers already under way (concurrency 1 + grade concurrency 2), not all eight.
    expect(fake.requests.length).toBeLessThanOrEqual(3);
    expect(fake.requests.every((q) => q.body.temperature === 0)).toBe(true);
  }, TIMEOUT_MS);
});
