/**
 * What the browser tests do to the playground in a tab of any engine (driver.ts): read an attribute or the text
 * of an element, wait for a Monaco editor, set an editor's text, and Verify once. The functions that run in the
 * page (`attr`, `text`, `editorReady`) are passed to `tab.eval` / `tab.waitFor`, which send their source.
 */
import type { Tab } from './driver.ts';

/** How long a verification may take on a loaded CI machine running one browser per core. */
const VERDICT_WAIT_MS = 240_000;

/** In the page: attribute `name` of the first element matching `sel`, or null. */
export const attr = (sel: string, name: string) => document.querySelector(sel)?.getAttribute(name) ?? null;

/** In the page: the text of the first element matching `sel`, or ''. */
export const text = (sel: string) => document.querySelector(sel)?.textContent ?? '';

/** In the page: whether the Monaco editor of `testid` is mounted and takes input. */
export const editorReady = (testid: string) =>
  !!document.querySelector(`[data-testid="${testid}"][data-ready="true"] .monaco-editor textarea, [data-testid="${testid}"][data-ready="true"] .monaco-editor .native-edit-context`);

/** Replaces the text of the Monaco editor `testid` (the spec's by default). */
export async function setEditor(tab: Tab, value: string, testid = 'spec-editor'): Promise<void> {
  await tab.eval(
    (t: string, id: string) => {
      const el = document.querySelector(`[data-testid="${id}"]`) as (HTMLElement & { monacoEditor?: { setValue(v: string): void } }) | null;
      if (!el?.monacoEditor) throw new Error('editor not mounted');
      el.monacoEditor.setValue(t);
    },
    value,
    testid,
  );
}

/** Clicks Verify and waits for the finished-run counter to move; returns the verdict's status. */
export async function verifyOnce(tab: Tab): Promise<string> {
  const before = Number(await tab.eval(attr, '[data-testid="results"]', 'data-runs'));
  await tab.click('[data-testid="verify"]');
  // A verdict, or the error the page shows instead (a worker that did not answer within the hard limit).
  await tab.waitFor('a verdict', (n: number) => Number(document.querySelector('[data-testid="results"]')?.getAttribute('data-runs')) > n || !!document.querySelector('[data-testid="run-error"]'), VERDICT_WAIT_MS, before);
  const error = await tab.eval(text, '[data-testid="run-error"]');
  if (error) throw new Error(`the verification failed: ${error}`);
  const status = await tab.eval(attr, '[data-testid="verdict"]', 'data-status');
  if (status === null) throw new Error(`no verdict: ${await tab.eval(text, '[data-testid="results"]')}`);
  return status;
}
