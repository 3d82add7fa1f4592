/**
 * One experiment wherever it runs (issue 19): the same 10-task run, with
 * the same answers from the fake provider, made by the CLI and by the
 * Evaluate page in Chromium is the same run (same id, attempt for attempt
 * the same records apart from timestamps and durations; `osvlab compare`
 * finds no flip and no provenance warning); a shard made in the page merges
 * with the CLI's shards into the one-process run; the Runs page's Re-verify
 * names exactly the one grade changed by hand in an imported run file.
 *
 * Answers depend only on the task and the round, so every front end gets
 * the same ones: a pass, a semantic failure whose counterexample goes into
 * the repair prompt (a counterexample that differed would change the
 * prompt, its hash and the attempt's id of the cache), prose, and repairs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../src/core/eval/run/run-types.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { type FakeProvider, type FakeReply, type ReceivedRequest, startFakeProvider } from '../fake-provider/server.ts';
import { Cli, oracleAnswer, proseAnswer, reportWithoutTimings, roundOf, taskOf, wrongRunnableAnswer } from '../eval/run/cli.ts';
import { ARTIFACTS, newPage, screenshot } from './harness.ts';
import { fillRunForm } from './evaluate-form.ts';
import { useSite } from './setup.ts';
import { storedRun } from '../run-dir.ts';

const env = useSite();
const cli = new Cli();
const TIMEOUT_MS = 900_000;
const MODEL = 'fake-same-run';
/** Handlers that verify quickly; two variants of most, so the grader's memo and bug-following both play. */
const IDS = [
  'sys_kill-v0', 'sys_kill-v2', 'sys_set_runnable-v0', 'sys_set_runnable-v1', 'sys_dup-v0',
  'sys_dup-v3', 'sys_reclaim_port-v0', 'sys_reclaim_port-v1', 'sys_close-v0', 'sys_kill-v1',
];

let fake: FakeProvider;
let selected: Task[];

/** The answer for (task, round): the same in every front end. */
function script(req: ReceivedRequest): FakeReply {
  const t = taskOf(req.prompt, selected);
  const round = roundOf(req.prompt);
  if (t.id === 'sys_set_runnable-v0' && round === 0) return { kind: 'text', text: wrongRunnableAnswer(), usage: { input: 900, output: 200 } };
  if (t.id === 'sys_dup-v0' && round === 0) return { kind: 'text', text: proseAnswer(), usage: { input: 800, output: 40 } };
  if (t.id === 'sys_reclaim_port-v0') return { kind: 'text', text: proseAnswer(), usage: { input: 700, output: 40 } };
  return { kind: 'text', text: oracleAnswer(t.handler), usage: { input: 1000, output: 300 } };
}

beforeAll(async () => {
  const all = await loadTasks();
  selected = IDS.map((id) => all.find((t) => t.id === id)!);
  fake = await startFakeProvider();
  fake.respond(script);
});
afterAll(async () => {
  cli.cleanup();
  await fake?.close();
});

const runArgs = (out: string, extra: readonly string[] = []) => [
  'run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', MODEL,
  '--tasks', IDS.join(','), '--shots', '0', '--repair', '1', '--out', out, ...extra,
];

/** A record without what only says when or how fast: timestamps and durations, at any depth. */
function timeless(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(timeless);
  if (v === null || typeof v !== 'object') return v;
  const skip = new Set(['createdAt', 'gradedAt', 'updatedAt', 'latencyMs', 'ms']);
  return Object.fromEntries(Object.entries(v).filter(([k]) => !skip.has(k)).map(([k, x]) => [k, timeless(x)]));
}
const byId = (xs: readonly AttemptRecord[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1)).map(timeless);

/** The Evaluate page set up for this run (the fake needs no key); `shard` is "K/N" or empty. */
async function startOnPage(page: Page, shard = ''): Promise<void> {
  await fillRunForm(page, { site: env.site.url, provider: fake.url, model: MODEL, ids: IDS, shots: 0, repair: 1 });
  if (shard) {
    await page.click('text=Advanced: run one shard of this run');
    await page.fill('[data-testid="shard"]', shard);
  }
  await page.click('[data-testid="start-run"]');
  await expect.poll(() => page.locator('[data-testid="run-progress"]').textContent(), { timeout: 600_000, interval: 1000 }).toMatch(/Run done/);
  await page.click('text=See its results');
  await page.waitForSelector('[data-testid="metrics"]');
}

async function exportFromPage(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-run"]')]);
  const path = join(ARTIFACTS, name);
  await download.saveAs(path);
  return path;
}

describe('the same run in the CLI and the browser', () => {
  let cliDir: string;
  let pageFile: string;

  it('the CLI and the Evaluate page make the same run: same attempts apart from timings, compare finds no flip and no warning', async () => {
    cliDir = cli.tempDir();
    const one = await cli.run(runArgs(cliDir));
    expect(one.code, one.err).toBe(0);
    const cliRequests = fake.requests.length;
    // 10 first answers and 3 repairs (the wrong, the prose and the always-prose tasks).
    expect(cliRequests).toBe(13);

    const { page, context, errors } = await newPage(env.browser);
    await startOnPage(page);
    expect(fake.requests.length - cliRequests).toBe(13);
    pageFile = await exportFromPage(page, 'same-run-page.json');
    const file = JSON.parse(readFileSync(pageFile, 'utf8'));
    const cliAttempts = (await storedRun(cliDir)).attempts;
    const cliRun = JSON.parse(readFileSync(join(cliDir, 'run.json'), 'utf8'));
    expect(file.run.id).toBe(cliRun.id);
    expect(file.run.provenance).toEqual(cliRun.provenance);
    expect(file.attempts).toHaveLength(13);
    expect(byId(file.attempts)).toEqual(byId(cliAttempts));
    // The grades are what the script makes: 7 first answers pass, and two of the three repairs.
    const cats = (xs: AttemptRecord[]) => xs.map((a) => `${a.taskId}/${a.round} ${a.grade?.category}`).sort();
    expect(cats(file.attempts).filter((c) => c.endsWith('pass'))).toHaveLength(9);
    expect(cats(file.attempts)).toContain('sys_set_runnable-v0/0 semantic');

    const cmp = await cli.run(['compare', cliDir, pageFile, '--json', '--resamples', '200']);
    expect(cmp.code, cmp.err).toBe(0);
    const c = JSON.parse(cmp.out);
    expect(c.overall.tasks).toBe(10);
    expect(c.flips).toEqual({ onlyA: [], onlyB: [] });
    expect(c.warnings).toEqual([]);
    const text = await cli.run(['compare', cliDir, pageFile, '--resamples', '200']);
    expect(text.out).not.toMatch(/^warning:/m);
    expect(errors).toEqual([]);
    await context.close();
  }, TIMEOUT_MS);

  it("the page's Re-verify of an imported run names exactly the grade changed by hand", async () => {
    expect(pageFile).toBeDefined();
    const file = JSON.parse(readFileSync(pageFile, 'utf8'));
    const target = file.attempts.find((a: AttemptRecord) => a.taskId === 'sys_kill-v2' && a.round === 0);
    expect(target.grade.category).toBe('pass');
    target.grade = { ...target.grade, category: 'semantic', strict: undefined };
    const tampered = join(ARTIFACTS, 'same-run-tampered.json');
    writeFileSync(tampered, JSON.stringify(file));

    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/runs');
    await page.setInputFiles('[data-testid="import-run"]', tampered);
    await page.waitForSelector('[data-testid="metrics"]');
    await page.click('[data-testid="reverify"]');
    await page.waitForSelector('[data-testid="reverify-result"]', { timeout: 600_000 });
    const summary = (await page.locator('[data-testid="reverify-summary"]').textContent()) ?? '';
    expect(summary).toMatch(new RegExp(`run ${file.run.id}: 12 of 13 grades unchanged`));
    const changed = await page.locator('[data-testid="reverify-changed"] li').allTextContents();
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^changed sys_kill-v2 sample 0 round 0: semantic \(v-[0-9a-f]+\) -> pass \(strict\) \(v-[0-9a-f]+\)$/);
    await screenshot(page, 'runs-reverify');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'runs-reverify-390');
    expect(errors).toEqual([]);
    await context.close();

    // The CLI's regrade of the same file says the same.
    const r = await cli.run(['regrade', tampered]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain(summary.replace(/^Re-verified: /, '').replace(/ \(\d+\.\d s\)$/, ''));
    expect(r.out).toContain(changed[0]);
  }, TIMEOUT_MS);

  it('a shard made in the page merges with the CLI shards into the one-process run', async () => {
    expect(cliDir).toBeDefined();
    const { page, context, errors } = await newPage(env.browser);
    await startOnPage(page, '2/3');
    expect(await page.locator('.detail').textContent()).toContain('shard 2/3 of the run');
    const shardFile = await exportFromPage(page, 'same-run-shard-2.json');
    expect(errors).toEqual([]);
    await context.close();
    expect(JSON.parse(readFileSync(shardFile, 'utf8')).run.shard).toEqual({ index: 2, total: 3 });

    const root = cli.tempDir();
    const shards = [join(root, 'shard-1'), join(root, 'shard-3')];
    for (const [i, k] of [1, 3].entries()) {
      const r = await cli.run(runArgs(shards[i], ['--shard', `${k}/3`]));
      expect(r.code, r.err).toBe(0);
    }
    const merged = join(root, 'merged');
    const m = await cli.run(['merge', shards[0], shardFile, shards[1], '--out', merged]);
    expect(m.code, m.err).toBe(0);
    expect(m.out).toContain('merged 3 shards');
    expect(byId((await storedRun(merged)).attempts)).toEqual(byId((await storedRun(cliDir)).attempts));
    const a = await cli.run(['report', cliDir]);
    const b = await cli.run(['report', merged]);
    expect(b.code, b.err).toBe(0);
    expect(reportWithoutTimings(b.out)).toBe(reportWithoutTimings(a.out));
  }, TIMEOUT_MS);
});
