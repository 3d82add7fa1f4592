/**
 * The question before a run from a file sends anything (issue 35, item 1;
 * docs/providers.md, "Keys in the browser"), in Firefox ESR through
 * test/e2e/driver.ts: the `<dialog>` opens naming the file's host, "Don't
 * send" sends nothing, "Send" sends without the key entered for another
 * host. The fakes record every request, so what reached a host is read from
 * the servers. Chromium covers the rest (test/e2e/key-host.test.ts); this
 * file is kept to one run of one task, answered in prose (graded at once,
 * without Z3), so it stays short.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { type Engine, launchEngine } from './driver.ts';
import { type Site, ensureBuilt, serve } from './harness.ts';
import { makeStoppedRunFile } from './run-file.ts';

const KEY = 'sk-firefox-home-0123456789abcdef';
const WAIT = 60_000;

let site: Site;
let engine: Engine;
let home: FakeProvider;
let other: FakeProvider;

beforeAll(async () => {
  [site, engine, home, other] = await Promise.all([ensureBuilt().then(serve), launchEngine('firefox'), startFakeProvider(), startFakeProvider({ host: '127.0.0.2' })]);
  for (const f of [home, other]) f.respond(() => ({ kind: 'text', text: proseAnswer(), usage: { input: 20, output: 10 } }));
});
afterAll(async () => {
  await engine?.close();
  await Promise.all([home?.close(), other?.close(), site?.close()]);
});

const text = (sel: string) => document.querySelector(sel)?.textContent ?? '';
const dialogOpen = () => !!document.querySelector<HTMLDialogElement>('[data-testid="send-confirm"]')?.open;

describe('keys and hosts in Firefox', () => {
  it('item 1: Resume of an imported run asks first, naming the host; no sends nothing, yes sends without the other host\'s key', async () => {
    const there = new URL(other.url).origin;
    const run = makeStoppedRunFile({ provider: 'openai-compatible', baseUrl: `${other.url}/v1`, name: 'firefox-elsewhere', tasks: ['sys_kill-v0'] });
    const tab = await engine.open(1400, 900);
    try {
      await tab.goto(`${site.url}#/evaluate`);
      await tab.waitFor('the provider form', () => !!document.querySelector('[data-testid="provider"]'), WAIT);
      await tab.select('[data-testid="provider"]', 'openai-compatible');
      await tab.fill('[data-testid="base-url"]', `${home.url}/v1`);
      await tab.fill('[data-testid="model"]', 'fake-model');
      await tab.fill('[data-testid="api-key"]', KEY);
      await tab.eval(() => document.querySelector('[data-testid="api-key"]')?.dispatchEvent(new Event('change', { bubbles: true })));
      expect(await tab.eval(text, '[data-testid="key-host"]')).toBe(new URL(home.url).origin);

      await tab.goto(`${site.url}#/runs`);
      await tab.waitFor('the import field', () => !!document.querySelector('[data-testid="import-run"]'), WAIT);
      await tab.upload('[data-testid="import-run"]', run.path);
      await tab.waitFor('the imported run with Resume', () => !!document.querySelector('[data-testid="runs-resume"]'), WAIT);
      await tab.click('[data-testid="runs-resume"]');
      await tab.waitFor('the question', dialogOpen, WAIT);
      expect(await tab.eval((sel: string) => document.querySelector(sel)?.getAttribute('data-origin'), '[data-testid="send-host"]')).toBe(there);
      expect(await tab.eval(text, '#send-title')).toContain(there);
      // The safe answer has focus, as in Chromium.
      expect(await tab.eval(() => document.activeElement?.getAttribute('data-testid'))).toBe('send-no');
      expect(other.requests.length + other.preflights.length).toBe(0);

      await tab.click('[data-testid="send-no"]');
      await tab.waitFor('the notice', () => !!document.querySelector('[data-testid="evaluate-notice"]'), WAIT);
      expect(await tab.eval(dialogOpen)).toBe(false);
      expect(await tab.eval(text, '[data-testid="evaluate-notice"]')).toContain(`nothing was sent to ${there}`);
      expect(other.requests.length + other.preflights.length).toBe(0);

      await tab.click('[data-testid="resume-run"]');
      await tab.waitFor('the question again', dialogOpen, WAIT);
      await tab.click('[data-testid="send-yes"]');
      await tab.waitFor('the run to end', () => !!document.querySelector('[data-testid="run-ended"]'), 120_000);
      expect(await tab.eval(text, '[data-testid="run-ended"]')).toMatch(/^Run done/);
      expect(other.requests.length).toBe(1);
      expect(other.requests.map((r) => r.key)).toEqual([undefined]);
      expect(home.requests.length).toBe(0);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 180_000);
});
