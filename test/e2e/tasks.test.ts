/**
 * The task browser in a real Chromium. Needs the generated tasks
 * (tasks/hv6/tasks.json); a missing or empty bundle fails the suite.
 */
import { describe, expect, it } from 'vitest';
import { generatedTasks } from '../artefacts.ts';
import { editorText, newPage, screenshot, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';

const env = useSite();

const count = generatedTasks().length;

describe('task browser', () => {
  it('lists every task, filters by handler and bug count, and shows a task with its prompt', async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.site.url + '#/tasks');
    await expect.poll(() => page.locator('[data-testid="task-count"]').textContent()).toBe(`${count} of ${count}`);
    await page.selectOption('[data-testid="filter-handler"]', 'sys_dup');
    await page.selectOption('[data-testid="filter-count"]', '0');
    await expect.poll(() => page.locator('[data-testid="task-count"]').textContent()).toBe(`1 of ${count}`);
    await page.click('a[href="#/tasks/sys_dup-v0"]');
    await waitForEditor(page, 'task-code');
    expect(await editorText(page, 'task-code')).toMatch(/int sys_dup\(/);
    await expect.poll(() => page.locator('[data-testid="token-count"]').textContent()).toMatch(/^\d+ tokens/);
    await screenshot(page, 'tasks-detail');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a buggy variant in the playground and reveals the bug as a diff against the correct code', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/tasks/sys_dup-v1');
    await page.getByRole('button', { name: 'Open in playground' }).click();
    await waitForEditor(page, 'c-code');
    await expect.poll(() => page.locator('[data-testid="variant"]').inputValue()).toBe('sys_dup-v1');
    await page.click('[data-testid="reveal-bug"]');
    await page.waitForSelector('[data-testid="bug-diff"] .monaco-diff-editor');
    await expect.poll(() => page.locator('[data-testid="bug-diff"] .line-insert, [data-testid="bug-diff"] .char-insert, [data-testid="bug-diff"] .line-delete, [data-testid="bug-diff"] .char-delete').count()).toBeGreaterThan(0);
    await screenshot(page, 'playground-reveal-bug');
    await context.close();
  });

  it('renders a task description as Markdown, and names a task that does not exist', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/tasks/sys_dup-v0');
    const desc = page.locator('[data-testid="task-description"]');
    await desc.waitFor();
    // The numbered conditions are a list, the names are code, and no Markdown markup is left as text.
    expect(await desc.locator('ol li').count()).toBeGreaterThan(3);
    expect(await desc.locator('code').count()).toBeGreaterThan(5);
    expect(await desc.textContent()).not.toMatch(/`|\*\*|^#/m);
    await page.goto(env.site.url + '#/tasks/does-not-exist');
    await expect.poll(() => page.locator('[data-testid="no-such-task"]').textContent()).toContain('No such task: does-not-exist');
    await context.close();
  });
});
