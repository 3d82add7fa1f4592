/**
 * Budgets: the reservation arithmetic of Budget, and `osvlab run
 * --max-cost` end to end against the fake provider (the run stops before
 * the request that could cross the limit, says what it spent and what is
 * left, and resumes with a larger budget without asking anything twice).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget, BudgetError, spentSoFar } from '../../../src/core/eval/run/budget.ts';
import { promptBuilder } from '../../../src/core/eval/prompt/prompt.ts';
import type { AttemptRecord } from '../../../src/core/eval/run/run-types.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { promptTokens } from '../../../src/core/eval/prompt/tokens.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';
import { type FakeProvider, startFakeProvider } from '../../fake-provider/server.ts';
import { Cli, oracleAnswer, taskOf } from './cli.ts';
import { storedRun } from '../../run-dir.ts';

const msg = (n: number): ChatMessage[] => [{ role: 'user', content: 'x'.repeat(n) }];
/** One "token" per character: the arithmetic below is then easy to follow. */
const chars = (m: readonly ChatMessage[]) => m.reduce((k, x) => k + x.content.length, 0);

describe('Budget', () => {
  it('grants a request only if spent + held + its worst case fits, then charges what was used', () => {
    // $1 per million tokens in and $2 out; a 1000-token prompt with a 500-token cap costs at most $0.002.
    const b = new Budget({ maxCostUsd: 0.005, price: { input: 1, output: 2 }, outputCap: 500, countPrompt: chars });
    expect(b.worstCase(msg(1000))).toEqual({ promptTokens: 1000, tokens: 1500, usd: 0.002 });
    const r1 = b.reserve(msg(1000))!;
    const r2 = b.reserve(msg(1000))!;
    expect(r1 && r2).toBeTruthy();
    // 0.004 held; another 0.002 would make 0.006 > 0.005.
    expect(b.reserve(msg(1000))).toBeUndefined();
    expect(b.exhausted).toContain('could cost up to $0.002000');
    // Once refused, the budget stays exhausted (the run stops; it does not hunt for smaller requests).
    expect(b.reserve(msg(1))).toBeUndefined();
    r1.settle({ input: 1000, output: 100 }, false); // $0.0012
    r2.release(); // failed: nothing charged
    expect(b.spent.usd).toBeCloseTo(0.0012, 12);
    expect(b.spent.tokens).toBe(1100);
  });

  it('counts tokens, learns a provider that counts more than the local tokenizer, and ignores cached answers', () => {
    const b = new Budget({ maxTotalTokens: 10_000, price: undefined, outputCap: 1000, countPrompt: chars, spent: { usd: 0, tokens: 2000 } });
    const r = b.reserve(msg(1000))!;
    r.settle({ input: 1500, output: 500 }, false); // the provider counted 1.5x
    expect(b.spent.tokens).toBe(4000);
    expect(b.worstCase(msg(1000)).promptTokens).toBe(1500);
    b.reserve(msg(1000))!.settle({ input: 1500, output: 1000 }, true); // from the cache: free
    expect(b.spent.tokens).toBe(4000);
    // 4000 + (1500 + 1000) = 6500 fits; a second one held makes 9000; a third would be 11500.
    expect(b.reserve(msg(1000))).toBeDefined();
    expect(b.reserve(msg(1000))).toBeDefined();
    expect(b.reserve(msg(1000))).toBeUndefined();
    expect(b.exhausted).toContain('only 1000 of 10000 are left');
  });

  it('charges an answer whose usage is unknown at the worst case it was held for', () => {
    const b = new Budget({ maxCostUsd: 1, price: { input: 1, output: 2 }, outputCap: 500, countPrompt: chars });
    b.reserve(msg(1000))!.settle({ input: 0, output: 0, unknown: true }, false);
    expect(b.spent).toEqual({ usd: 0.002, tokens: 1500 });
  });

  it('needs a price for a cost limit and an output cap', () => {
    expect(() => new Budget({ maxCostUsd: 1, price: undefined, outputCap: 100, countPrompt: chars })).toThrow(BudgetError);
    expect(() => new Budget({ maxTotalTokens: 1, price: undefined, outputCap: 0, countPrompt: chars })).toThrow(/cap/);
    expect(() => new Budget({ price: undefined, outputCap: 10, countPrompt: chars })).toThrow(/limit/);
  });

  it('spentSoFar prices stored usage and skips cached and failed attempts', () => {
    const a = (usage: { input: number; output: number } | undefined, cached = false) =>
      ({ response: usage ? { usage } : undefined, cached }) as unknown as AttemptRecord;
    expect(spentSoFar([a({ input: 1_000_000, output: 500_000 }), a({ input: 7, output: 7 }, true), a(undefined)], { input: 2, output: 4 })).toEqual({ usd: 4, tokens: 1_500_000 });
  });
});

describe('osvlab run --max-cost', () => {
  let fake: FakeProvider;
  let tasks: Task[];
  const cli = new Cli();
  const IDS = ['sys_dup-v0', 'sys_set_runnable-v0', 'sys_close-v0', 'sys_reclaim_port-v1'];
  beforeAll(async () => {
    fake = await startFakeProvider();
    const all = await loadTasks();
    tasks = IDS.map((id) => all.find((t) => t.id === id)!);
    fake.respond((req) => ({ kind: 'text', text: oracleAnswer(taskOf(req.prompt, tasks).handler) }));
  });
  afterAll(async () => {
    cli.cleanup();
    await fake.close();
  });

  it('stops before crossing the budget, says what is left, and resumes with a larger one', async () => {
    const build = promptBuilder(await loadTasks());
    // --price 1000/1000: a token costs $0.001. Room for the first two requests' worst cases, not three.
    const worst = await Promise.all(tasks.map(async (t) => (promptTokens((await build(t, 0)).messages) + 64) * 0.001));
    const limit = worst[0] + worst[1] + worst[2] / 2;
    const dir = join(cli.tempDir(), 'run');
    const args = (max: number) => [
      'run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'fake', '--tasks', IDS.join(','),
      '--shots', '0', '--n', '1', '--concurrency', '1', '--grade-concurrency', '1', '--no-lemmas', '--out', dir,
      '--max-tokens', '64', '--price', '1000/1000', '--max-cost', max.toFixed(4),
    ];
    const first = await cli.run(args(limit));
    expect(first.code, first.err).toBe(3);
    expect(first.err).toContain('budget reached');
    expect(first.err).toMatch(/task samples left undone/);
    // The fake counts a token per 4 characters, fewer than the worst case: at most two requests fitted, and not none.
    const sent = fake.requests.length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(2);
    const { run, attempts } = await storedRun(dir);
    expect(run.status).toBe('cancelled');
    const spent = spentSoFar(attempts, { input: 1000, output: 1000 });
    expect(spent.usd).toBeLessThanOrEqual(limit);
    expect(first.err).toContain(`budget: spent $${spent.usd.toFixed(4)} of $${limit.toFixed(4)}`);
    expect(first.err).toContain(`${IDS.length - sent} of ${IDS.length} task samples left undone`);

    const second = await cli.run(args(limit + worst.reduce((a, b) => a + b, 0)));
    expect(second.code, second.err).toBe(0);
    expect(fake.requests).toHaveLength(IDS.length);
    expect(new Set(fake.requests.map((r) => taskOf(r.prompt, tasks).id)).size).toBe(IDS.length);
  }, 240_000);
});
