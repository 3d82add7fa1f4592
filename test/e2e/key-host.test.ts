/**
 * A key goes only to the host it was entered for (issue 35, items 1 and 2 in
 * the browser; docs/providers.md, "Keys in the browser"), in a real Chromium
 * against local fake providers: `home` on 127.0.0.1 is the host the user's
 * keys are for, and fakes on 127.0.0.2 stand for other hosts a run file or a
 * study file names. Every fake records each request, preflight and GET with
 * its headers, so "nothing arrived there" and "no key arrived there" are
 * read from the servers, never from the page.
 *
 * Answers are prose (graded at once, without Z3), so the runs cost requests,
 * not verification.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { generatedTasks } from '../artefacts.ts';
import { violations } from './axe.ts';
import { sticksOut } from './fit.ts';
import { screenshot } from './harness.ts';
import { makeStoppedRunFile } from './run-file.ts';
import { useSite } from './setup.ts';

const env = useSite();
const KEY_COMPAT = 'sk-compat-home-0123456789abcdef';
const KEY_OPENAI = 'sk-openai-home-fedcba9876543210';

let home: FakeProvider;
/** Three other hosts (each its own origin), so each test asks about a host no earlier step approved. */
let others: FakeProvider[];
const prose = () => ({ kind: 'text' as const, text: proseAnswer(), usage: { input: 20, output: 10 } });

beforeAll(async () => {
  home = await startFakeProvider();
  others = await Promise.all([0, 1, 2].map(() => startFakeProvider({ host: '127.0.0.2' })));
  for (const f of [home, ...others]) f.respond(prose);
});
afterAll(async () => {
  await Promise.all([home, ...(others ?? [])].map((f) => f?.close()));
});
generatedTasks();

const origin = (f: FakeProvider) => new URL(f.url).origin;
/** Everything a fake received: completions, preflights and GETs. */
const traffic = (f: FakeProvider) => f.requests.length + f.preflights.length + f.gets.length;
/** Every key that reached a fake, in any header. */
const keysAt = (f: FakeProvider) => f.requests.map((r) => r.key).filter((k) => k !== undefined);

async function open(width = 1400): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await env.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors, close: () => context.close() };
}

/** Sets the Evaluate page's provider, base URL and key, remembered on this device when asked. */
async function enterKey(page: Page, provider: string, baseUrl: string, key: string, remember: boolean): Promise<void> {
  await page.selectOption('[data-testid="provider"]', provider);
  await page.fill('[data-testid="base-url"]', baseUrl);
  await page.fill('[data-testid="model"]', 'fake-model');
  await page.fill('[data-testid="api-key"]', key);
  await page.locator('[data-testid="api-key"]').dispatchEvent('change');
  if (remember) await page.getByLabel('Remember on this device').check();
}

async function importRun(page: Page, path: string): Promise<void> {
  await page.goto(`${env.site.url}#/runs`);
  await page.setInputFiles('[data-testid="import-run"]', path);
  await page.waitForSelector('[role="status"]:has-text("Imported run")');
}

const dialogOpen = (page: Page) => page.evaluate(() => !!document.querySelector<HTMLDialogElement>('[data-testid="send-confirm"]')?.open);

describe('keys and hosts in the browser', () => {
  it('item 1: an imported run asks before Resume sends anything, shows the host, and never gets a key entered for another host', async () => {
    const [compatHost, openaiHost] = others;
    const { page, errors, close } = await open();
    await page.goto(`${env.site.url}#/evaluate`);
    // The user: keys for both OpenAI kinds, remembered, each for the home host.
    await enterKey(page, 'openai-compatible', `${home.url}/v1`, KEY_COMPAT, true);
    expect(await page.textContent('[data-testid="key-host"]')).toBe(origin(home));
    await enterKey(page, 'openai', `${home.url}/v1`, KEY_OPENAI, true);
    const stored = await page.evaluate(() => ({ compat: localStorage.getItem('osvlab.key.openai-compatible'), openai: localStorage.getItem('osvlab.key.openai') }));
    expect(JSON.parse(stored.compat!)).toEqual({ [origin(home)]: KEY_COMPAT });
    expect(JSON.parse(stored.openai!)).toEqual({ [origin(home)]: KEY_OPENAI });
    // Another origin in the field: the key field is that origin's (none), and the label says so.
    await page.fill('[data-testid="base-url"]', `${compatHost.url}/v1`);
    expect(await page.inputValue('[data-testid="api-key"]')).toBe('');
    expect(await page.textContent('[data-testid="key-host"]')).toBe(origin(compatHost));
    expect(await page.getByLabel('Remember on this device').isChecked()).toBe(false);
    await page.fill('[data-testid="base-url"]', `${home.url}/v1`);
    expect(await page.inputValue('[data-testid="api-key"]')).toBe(KEY_OPENAI);

    const compatRun = makeStoppedRunFile({ provider: 'openai-compatible', baseUrl: `${compatHost.url}/v1`, name: 'compat-elsewhere', tasks: ['sys_kill-v0'] });
    const openaiRun = makeStoppedRunFile({ provider: 'openai', baseUrl: `${openaiHost.url}/v1`, name: 'openai-elsewhere', tasks: ['sys_kill-v0'] });
    await importRun(page, compatRun.path);
    await importRun(page, openaiRun.path);

    // Resume on the Runs page: the question comes first, naming the host; nothing has reached it.
    const item = page.locator('[data-testid="run-list"] li', { hasText: 'compat-elsewhere' });
    await item.locator('[data-testid="runs-resume"]').click();
    await page.waitForSelector('[data-testid="send-confirm"][open]');
    const host = page.locator('[data-testid="send-host"]');
    expect(await host.getAttribute('data-origin')).toBe(origin(compatHost));
    expect(await host.getAttribute('data-key')).toBe('false');
    expect(await page.textContent('#send-title')).toContain(origin(compatHost));
    expect(await host.textContent()).toContain('no key goes with the requests');
    // Keyboard: the safe answer has focus, and the dialog is axe-clean.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('send-no');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'key-host-confirm-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'key-host-confirm-390');
    const box = await page.locator('[data-testid="send-confirm"]').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1400, height: 900 });
    expect(traffic(compatHost)).toBe(0);
    // Escape says no: nothing is sent, and the page says so.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="evaluate-notice"]');
    expect(await dialogOpen(page)).toBe(false);
    expect(await page.textContent('[data-testid="evaluate-notice"]')).toContain(`nothing was sent to ${origin(compatHost)}`);
    expect(await page.locator('[data-testid="run-progress"]').count()).toBe(0);
    expect(traffic(compatHost)).toBe(0);

    // Resume again from Evaluate's "Unfinished runs" and say yes: the run goes there, with no key at all.
    await page.locator('li', { hasText: 'compat-elsewhere' }).locator('[data-testid="resume-run"]').click();
    await page.waitForSelector('[data-testid="send-confirm"][open]');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('send-yes');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="run-ended"]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid="run-ended"]')).toMatch(/^Run done/);
    expect(compatHost.requests.length).toBe(1);
    expect(keysAt(compatHost)).toEqual([]);
    expect(compatHost.requests.every((r) => r.headers.authorization === undefined)).toBe(true);

    // The openai kind: no key is entered for that host, so the question says the run cannot send, and it does not.
    await page.locator('li', { hasText: 'openai-elsewhere' }).locator('[data-testid="resume-run"]').click();
    await page.waitForSelector('[data-testid="send-confirm"][open]');
    expect(await host.getAttribute('data-origin')).toBe(origin(openaiHost));
    expect(await host.textContent()).toContain('openai needs one');
    await page.click('[data-testid="send-yes"]');
    await page.waitForFunction((id) => document.querySelector('[data-testid="run-ended"]')?.closest('[data-testid="run-progress"]')?.textContent?.includes(id), openaiRun.runId, { timeout: 60_000 });
    expect(await page.textContent('[data-testid="run-ended"]')).toContain('LLM001');
    expect(traffic(openaiHost)).toBe(0);

    // The keys went nowhere else either.
    expect(traffic(home)).toBe(0);
    for (const f of others) expect(keysAt(f)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 300_000);

  it('item 1: a run made on the page resumes without a question, after a reload and with another host in the field, and takes the key of its own host', async () => {
    home.reset();
    let asked = 0;
    home.respond(() => (++asked === 1 ? { kind: 'hang' } : prose()));
    const { page, close } = await open();
    await page.goto(`${env.site.url}#/evaluate`);
    await enterKey(page, 'openai-compatible', `${home.url}/v1`, KEY_COMPAT, true);
    await page.fill('[data-testid="model"]', `fake-model-own-${Date.now()}`);
    await page.fill('[data-testid="selection"]', 'sys_kill-v0,sys_reap-v0');
    await page.getByLabel('Requests at once').fill('1');
    await expect.poll(() => page.textContent('[data-testid="start-run"]'), { timeout: 60_000 }).toMatch(/^Start/);
    await page.click('[data-testid="start-run"]');
    await expect.poll(() => home.requests.length, { timeout: 120_000 }).toBe(1);
    expect(await dialogOpen(page)).toBe(false);
    await page.click('[data-testid="cancel-run"]');
    await page.waitForSelector('[data-testid="run-ended"]');
    // After a reload the page names another host: the run's own host was approved when it started.
    await page.reload();
    await page.fill('[data-testid="base-url"]', `${others[2].url}/v1`);
    await page.click('[data-testid="resume-run"]');
    await page.waitForSelector('[data-testid="run-ended"]', { timeout: 120_000 });
    expect(await dialogOpen(page)).toBe(false);
    expect(await page.textContent('[data-testid="run-ended"]')).toMatch(/^Run done/);
    expect(home.requests.length).toBe(3);
    expect(keysAt(home)).toEqual([KEY_COMPAT, KEY_COMPAT, KEY_COMPAT]);
    expect(traffic(others[2])).toBe(0);
    await close();
  }, 300_000);

  it('item 1: a key saved by an older version belongs to the host saved with it; the connection test sends it nowhere else', async () => {
    home.reset();
    home.respond(() => ({ kind: 'text', text: 'OK', usage: { input: 5, output: 1 } }));
    const other = others[2];
    other.reset();
    other.respond(() => ({ kind: 'text', text: 'OK', usage: { input: 5, output: 1 } }));
    const { page, close } = await open();
    await page.goto(`${env.site.url}#/evaluate`);
    await page.evaluate(
      ([url]) => {
        localStorage.setItem('osvlab.provider', JSON.stringify({ provider: 'openai-compatible', baseUrl: url, model: 'fake-model' }));
        localStorage.setItem('osvlab.key.openai-compatible', 'sk-saved-before-origins');
        localStorage.setItem('osvlab.key.anthropic', 'sk-ant-saved-before-origins');
      },
      [`${home.url}/v1`],
    );
    await page.reload();
    await page.waitForSelector('[data-testid="api-key"]');
    expect(await page.inputValue('[data-testid="api-key"]')).toBe('sk-saved-before-origins');
    expect(await page.textContent('[data-testid="key-host"]')).toBe(origin(home));
    expect(await page.getByLabel('Remember on this device').isChecked()).toBe(true);
    expect(
      await page.evaluate(() => [localStorage.getItem('osvlab.key.openai-compatible'), localStorage.getItem('osvlab.key.anthropic')].map((t) => JSON.parse(t!))),
    ).toEqual([{ [origin(home)]: 'sk-saved-before-origins' }, { 'https://api.anthropic.com': 'sk-ant-saved-before-origins' }]);
    await page.click('[data-testid="test-connection"]');
    await page.waitForSelector('[data-testid="connection"][data-kind="ok"]');
    expect(keysAt(home)).toEqual(['sk-saved-before-origins']);
    // Another host in the field: no key in it, and the test goes there without one.
    await page.fill('[data-testid="base-url"]', `${other.url}/v1`);
    expect(await page.inputValue('[data-testid="api-key"]')).toBe('');
    await page.click('[data-testid="test-connection"]');
    await page.waitForSelector('[data-testid="connection"][data-kind="ok"]');
    expect(other.requests.length).toBe(1);
    expect(keysAt(other)).toEqual([]);
    // The longest default host, in the key's label and the study panel's base URL, fits a phone.
    await page.selectOption('[data-testid="provider"]', 'gemini');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.textContent('[data-testid="key-host"]')).toBe('https://generativelanguage.googleapis.com');
    expect(await sticksOut(page)).toEqual([]);
    await close();
  }, 120_000);

  it('item 1: a study file naming another host asks first, and that host gets no key', async () => {
    const other = others[1];
    other.reset();
    other.respond(prose);
    home.reset();
    const { page, close } = await open();
    await page.goto(`${env.site.url}#/evaluate`);
    await enterKey(page, 'openai-compatible', `${home.url}/v1`, KEY_COMPAT, true);
    const study = { name: 'elsewhere', provider: 'openai-compatible', baseUrl: `${other.url}/v1`, models: ['fake-model'], feedback: 'none', shots: 0, repair: 0, tasks: 'sys_kill-v0', grading: { strict: false } };
    await page.fill('[data-testid="study-text"]', JSON.stringify(study, null, 2));
    await page.click('[data-testid="study-start"]');
    await page.waitForSelector('[data-testid="send-confirm"][open]');
    expect(await page.locator('[data-testid="send-host"]').getAttribute('data-origin')).toBe(origin(other));
    expect(traffic(other)).toBe(0);
    await page.click('[data-testid="send-no"]');
    await page.waitForSelector('[data-testid="study-notice"]');
    expect(await page.textContent('[data-testid="study-notice"]')).toContain(`nothing was sent to ${origin(other)}`);
    expect(traffic(other)).toBe(0);
    await page.click('[data-testid="study-start"]');
    await page.waitForSelector('[data-testid="send-confirm"][open]');
    await page.click('[data-testid="send-yes"]');
    await page.waitForSelector('[data-testid="study-status"][data-kind="finished"]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid="study-status"]')).toContain('Study done');
    expect(other.requests.length).toBe(1);
    expect(keysAt(other)).toEqual([]);
    expect(traffic(home)).toBe(0);
    await close();
  }, 300_000);

  it('item 2: a redirect to another host is LLM016 naming the host asked, and nothing reaches the other host, with any provider', async () => {
    const target = others[0];
    target.reset();
    const { page, close } = await open();
    await page.goto(`${env.site.url}#/evaluate`);
    for (const [provider, path] of [['openai-compatible', '/v1/chat/completions'], ['anthropic', '/v1/messages']] as const) {
      home.reset();
      home.respond(() => ({ kind: 'raw', status: 307, body: '', headers: { location: `${target.url}${path}` } }));
      await enterKey(page, provider, `${home.url}/v1`, KEY_COMPAT, false);
      await page.click('[data-testid="test-connection"]');
      await page.waitForSelector('[data-testid="connection"][data-kind="failed"]');
      const said = (await page.textContent('[data-testid="connection"]'))!;
      expect(said).toMatch(/^LLM016: /);
      expect(said).toContain(`from ${new URL(home.url).host} to an address the browser does not show`);
      expect(home.requests.length).toBe(1);
    }
    // A run stops at its first redirect, with the same error.
    home.reset();
    home.respond(() => ({ kind: 'raw', status: 307, body: '', headers: { location: `${target.url}/v1/chat/completions` } }));
    await enterKey(page, 'openai-compatible', `${home.url}/v1`, KEY_COMPAT, false);
    await page.fill('[data-testid="model"]', `fake-model-redirect-${Date.now()}`);
    await page.fill('[data-testid="selection"]', 'sys_kill-v0');
    await expect.poll(() => page.textContent('[data-testid="start-run"]'), { timeout: 60_000 }).toMatch(/^Start/);
    await page.click('[data-testid="start-run"]');
    await page.waitForSelector('[data-testid="run-ended"]', { timeout: 60_000 });
    const ended = (await page.textContent('[data-testid="run-ended"]'))!;
    expect(ended).toMatch(/^Run failed: LLM016: /);
    expect(ended).toContain(`from ${new URL(home.url).host} to an address the browser does not show`);
    expect(traffic(target)).toBe(0);
    await close();
  }, 180_000);
});
