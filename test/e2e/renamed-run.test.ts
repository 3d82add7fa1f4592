/**
 * The renamed twin end to end in Chromium (docs/rename.md): the Evaluate
 * page makes a plain run and a renamed run (synonym names) of the same
 * answers from the fake provider, which answers the renamed run in the
 * names it was shown. The two runs grade alike, attempt for attempt
 * (categories and strict); the renamed run stores the answers as written
 * and graded them renamed back; its repair prompt names only renamed
 * fields and handlers; the run page says which names the model saw; the
 * Tasks page shows a task in the chosen names (and code order, docs/shape.md)
 * with the same id; and the Evaluate form keeps its names, code order and
 * seeds across a reload.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../src/core/eval/run/run-types.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { renamedTask } from '../../src/core/rename/task.ts';
import { shapedTask } from '../../src/core/shape/task.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { renamedResponder } from '../fake-provider/renamed.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fake-provider/server.ts';
import { oracleAnswer, proseAnswer, roundOf, taskOf, wrongRunnableAnswer } from '../eval/run/cli.ts';
import { ARTIFACTS, editorText, newPage, screenshot, waitForEditor } from './harness.ts';
import { fillRunForm, startRunAndWait } from './evaluate-form.ts';
import { useSite } from './setup.ts';

const env = useSite();
const TIMEOUT_MS = 900_000;
const MODEL = 'fake-renamed-run';
const CHOICE = { style: 'synonym', seed: 1 } as const;
const IDS = ['sys_kill-v0', 'sys_kill-v2', 'sys_set_runnable-v0', 'sys_dup-v0', 'sys_close-v0'];

let fake: FakeProvider;
let selected: Task[];

/** The answer for (task, round), in hv6's names: a wrong first answer, a prose one, the rest oracles. */
function answer(t: Task, round: number): FakeReply {
  if (t.id === 'sys_set_runnable-v0' && round === 0) return { kind: 'text', text: wrongRunnableAnswer(), usage: { input: 900, output: 200 } };
  if (t.id === 'sys_dup-v0' && round === 0) return { kind: 'text', text: proseAnswer(), usage: { input: 800, output: 40 } };
  return { kind: 'text', text: oracleAnswer(t.handler), usage: { input: 1000, output: 300 } };
}

beforeAll(async () => {
  const all = await loadTasks();
  selected = IDS.map((id) => all.find((t) => t.id === id)!);
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake?.close();
});

/** Runs the selection on the Evaluate page, in `names` ('' for hv6's own), and exports the run. */
async function runOnPage(page: Page, names: '' | 'synonym', file: string): Promise<{ run: { id: string; config: Record<string, unknown> }; attempts: AttemptRecord[] }> {
  await fillRunForm(page, { site: env.site.url, provider: fake.url, model: MODEL, ids: IDS, shots: 0, repair: 1 });
  await page.selectOption('[data-testid="run-names-style"]', names);
  if (names) {
    await page.fill('[data-testid="run-names-seed"]', String(CHOICE.seed));
    await page.locator('[data-testid="run-names-seed"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'renamed-evaluate');
  }
  // The second run's own end, not the first's "Run done" still on screen (a CI run exported the first run twice).
  expect(await startRunAndWait(page)).toBe('done');
  await expect.poll(() => page.locator('[data-testid="run-progress"]').textContent()).toMatch(/Run done/);
  await page.click('text=See its results');
  await page.waitForSelector('[data-testid="metrics"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-run"]')]);
  const path = join(ARTIFACTS, file);
  await download.saveAs(path);
  return JSON.parse(readFileSync(path, 'utf8'));
}

const grades = (xs: readonly AttemptRecord[]) => xs.map((a) => `${a.taskId}/${a.sample}/${a.round} ${a.grade?.category}${a.grade?.strict === undefined ? '' : a.grade.strict ? '+strict' : '-strict'}`).sort();

describe('a renamed run in the browser', () => {
  it('grades like the plain run of the same answers, keeps the answers as written, and feeds back renamed names', async () => {
    const { page, context, errors } = await newPage(env.browser);
    fake.respond((req) => answer(taskOf(req.prompt, selected), roundOf(req.prompt)));
    const plain = await runOnPage(page, '', 'renamed-run-plain.json');
    const plainRequests = fake.requests.splice(0);

    fake.respond(renamedResponder(CHOICE, selected, (t, req) => answer(t, roundOf(req.prompt))));
    const renamed = await runOnPage(page, 'synonym', 'renamed-run-synonym.json');
    const renamedRequests = fake.requests.splice(0);

    expect(renamed.run.id).not.toBe(plain.run.id);
    expect(renamed.run.config.rename).toEqual(CHOICE);
    expect(plain.run.config.rename).toBeUndefined();
    // 5 first answers, and repairs of the wrong and the prose one.
    expect(plainRequests).toHaveLength(7);
    expect(renamedRequests).toHaveLength(7);
    expect(grades(renamed.attempts)).toEqual(grades(plain.attempts));
    expect(grades(plain.attempts)).toContain('sys_set_runnable-v0/0/0 semantic');

    const lens = lensFor(CHOICE);
    // Every request the model got was in the renamed world; every answer is stored as the model wrote it,
    // and the spec it was graded by is the plain run's.
    for (const r of renamedRequests) {
      const messages = r.body.messages as { role: string; content: string }[];
      // A repair round's last message is the verifier's feedback; the rest is the prompt and the model's answer.
      messages.forEach((m, i) => expect(lens.originalNames(m.content, i > 1 && i === messages.length - 1 ? 'feedback' : 'markdown'), `${m.role} ${i}`).toEqual([]));
    }
    const byKey = new Map(plain.attempts.map((a) => [`${a.taskId}/${a.round}`, a]));
    for (const a of renamed.attempts) {
      const p = byKey.get(`${a.taskId}/${a.round}`)!;
      expect(a.response?.text).toBe(lens.forward.markdown(p.response!.text));
      expect(a.grade?.extracted).toBe(p.grade?.extracted);
    }
    // The repair prompt of the wrong answer: its diagnosis in the renamed names.
    const repair = renamedRequests.find((r) => roundOf(r.prompt) === 1 && r.prompt.includes(lens.names.get('sys_set_runnable')!))!;
    const message = (repair.body.messages as { content: string }[]).at(-1)!.content;
    expect(message).toContain(`${lens.names.get('procs')}.${lens.names.get('state')}`);
    expect(lens.originalNames(message, 'feedback')).toEqual([]);

    await expect.poll(() => page.locator('[data-testid="run-names"]').textContent()).toContain('names synonym #1');
    await screenshot(page, 'renamed-run-page');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'renamed-run-page-390');
    expect(errors).toEqual([]);
    await context.close();
  }, TIMEOUT_MS);

  it('the Tasks page shows a task in the chosen names, under the same id', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(env.site.url + '#/tasks/sys_dup-v1');
    await page.waitForSelector('[data-testid="task-description"]');
    await expect.poll(() => page.locator('[data-testid="task-description"]').textContent()).toContain('procs[pid].ofile');
    await page.selectOption('[data-testid="task-names-style"]', 'opaque');
    const lens = lensFor({ style: 'opaque', seed: 1 });
    await expect.poll(() => page.locator('[data-testid="task-description"]').textContent(), { timeout: 60_000 }).toContain(`${lens.names.get('procs')}[${lens.names.get('pid')}].${lens.names.get('ofile')}`);
    const text = (await page.locator('[data-testid="task-description"]').textContent()) ?? '';
    expect(lens.originalNames(text)).toEqual([]);
    expect(await page.locator('[data-testid="task-declaration"]').textContent()).toBe(`int ${lens.names.get('sys_dup')}(int ${lens.names.get('oldfd')}, pid_t ${lens.names.get('pid')}, int ${lens.names.get('newfd')});`);
    expect(page.url()).toContain('#/tasks/sys_dup-v1');
    // Reordered too (docs/shape.md): the code shaped then renamed, the bug's line following its statement.
    const shape = { style: 'permuted', seed: 1 } as const;
    const task = (await loadTasks()).find((t) => t.id === 'sys_dup-v1')!;
    const shaped = shapedTask(task, shape);
    expect(shaped.provenance[0].line).not.toBe(task.provenance[0].line);
    await page.selectOption('[data-testid="task-shape-style"]', 'permuted');
    await expect.poll(() => page.locator('[data-testid="task-bugs"]').textContent(), { timeout: 60_000 }).toContain(`line ${shaped.provenance[0].line}:`);
    await waitForEditor(page, 'task-code');
    await expect.poll(() => editorText(page, 'task-code')).toBe(renamedTask(shaped, { style: 'opaque', seed: 1 }).code);
    expect(await page.locator('[data-testid="task-shape-note"]').textContent()).toContain('permuted #1');
    await screenshot(page, 'renamed-tasks');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'renamed-tasks-390');
    expect(errors).toEqual([]);
    await context.close();
  }, TIMEOUT_MS);

  it('the Evaluate form keeps its names and seed across a reload', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/evaluate');
    await page.selectOption('[data-testid="run-names-style"]', 'opaque');
    await page.fill('[data-testid="run-names-seed"]', '5');
    await page.locator('[data-testid="run-names-seed"]').dispatchEvent('change');
    await page.reload();
    await page.waitForSelector('[data-testid="start-run"]');
    expect(await page.inputValue('[data-testid="run-names-style"]')).toBe('opaque');
    expect(await page.inputValue('[data-testid="run-names-seed"]')).toBe('5');
    // The code order and its seed come back too.
    await page.selectOption('[data-testid="run-shape-style"]', 'permuted');
    await page.fill('[data-testid="run-shape-seed"]', '4');
    await page.locator('[data-testid="run-shape-seed"]').dispatchEvent('change');
    await page.reload();
    await page.waitForSelector('[data-testid="start-run"]');
    expect(await page.inputValue('[data-testid="run-shape-style"]')).toBe('permuted');
    expect(await page.inputValue('[data-testid="run-shape-seed"]')).toBe('4');
    // Back to hv6's own names, which come back too (no seed field).
    await page.selectOption('[data-testid="run-names-style"]', '');
    await page.reload();
    await page.waitForSelector('[data-testid="start-run"]');
    expect(await page.inputValue('[data-testid="run-names-style"]')).toBe('');
    expect(await page.locator('[data-testid="run-names-seed"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, TIMEOUT_MS);
});
