/**
 * The teacher view groups a class's attempts into behaviours
 * (src/app/lessons/behaviours.svelte.ts, BehaviourGroupsView.svelte), in
 * Chromium: five learners' attempt files at one exercise, two right in
 * different words, two with the same mistake in different words, one with
 * another mistake. Three groups: the reference's behaviour (2), the shared
 * mistake (2, with the state where it differs from the reference), and the
 * other (1). Screenshots at 1400 and 390 px go to test-artifacts/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchEngine } from './driver.ts';
import { ARTIFACTS, type Site, ensureBuilt, serve } from './harness.ts';
import { ALLOC_VECTOR_ANSWER } from './teacher-answer.ts';

const LONG = 240_000;
const dir = mkdtempSync(join(tmpdir(), 'osvlab-behaviours-'));
let site: Site;
beforeAll(async () => {
  site = await serve(await ensureBuilt());
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const RIGHT_AGAIN = ALLOC_VECTOR_ANSWER.replace('cur = old.current', 'me = old.current').replaceAll('[cur]', '[me]').replace('= cur\n', '= me\n');
/** The caller does not become the owner. */
const NO_OWNER = ALLOC_VECTOR_ANSWER.replace('    new.vectors[vector].owner = cur\n', '');
const NO_OWNER_AGAIN = `${NO_OWNER}\n# checked twice\n`;
/** Any vector may be taken. */
const ANY = ALLOC_VECTOR_ANSWER.replace('cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)', 'cond = z3.BoolVal(True)');

function attempt(learner: string, answer: string): string {
  const file = {
    format: 'osvlab-attempt',
    v: 2,
    exerciseId: 'abcdef0123456789abcdef01',
    exercise: { title: 'Vectors', handler: 'sys_alloc_vector' },
    learner,
    answer,
    passed: false,
    checks: [],
    attempts: 1,
    hintsOpened: 0,
    gradedAt: 1,
    app: 'test',
  };
  const p = join(dir, `${learner}.json`);
  writeFileSync(p, JSON.stringify(file));
  return p;
}

it('groups five attempts into three behaviours, with who is in each and a state against the reference', async () => {
  const engine = await launchEngine('chromium');
  const tab = await engine.open(1400, 900);
  try {
    await tab.goto(`${site.url}#/learn/teacher`);
    await tab.waitFor('the import field', () => !!document.querySelector('[data-testid="t-import"]'), LONG);
    const files = [attempt('Ada', ALLOC_VECTOR_ANSWER), attempt('Bob', NO_OWNER), attempt('Cy', RIGHT_AGAIN), attempt('Dee', NO_OWNER_AGAIN), attempt('Eve', ANY)];
    for (const f of files) await tab.upload('[data-testid="t-import"]', f);
    await tab.waitFor('five attempts', () => document.querySelectorAll('[data-testid="t-attempt"]').length === 5, LONG);
    await tab.click('[data-testid="t-group"]');
    await tab.waitFor('the groups', () => document.querySelector('[data-testid="t-behaviours"]')?.getAttribute('data-state') === 'done', LONG);
    const groups = await tab.eval(() =>
      [...document.querySelectorAll('[data-testid="t-behaviour"]')].map((li) => ({ n: li.getAttribute('data-count'), ref: li.getAttribute('data-reference'), text: li.textContent ?? '' })),
    );
    expect(groups.map((g) => [g.n, g.ref])).toEqual([
      ['2', 'true'],
      ['2', 'false'],
      ['1', 'false'],
    ]);
    for (const who of ['Ada', 'Cy']) expect(groups[0].text).toContain(who);
    for (const who of ['Bob', 'Dee']) expect(groups[1].text).toContain(who);
    expect(groups[1].text).toContain('vectors.owner');
    expect(groups[2].text).toContain('Eve');
    expect(groups[2].text).toContain('cond');
    await tab.eval(() => document.querySelector('[data-testid="t-behaviours"]')?.scrollIntoView());
    await tab.screenshot(join(ARTIFACTS, 'teacher-behaviours-chromium-1400.png'));
    await tab.resize(390, 844);
    await tab.eval(() => document.querySelector('[data-testid="t-behaviours"]')?.scrollIntoView());
    await tab.screenshot(join(ARTIFACTS, 'teacher-behaviours-chromium-390.png'));
  } finally {
    await tab.close();
    await engine.close();
  }
});
