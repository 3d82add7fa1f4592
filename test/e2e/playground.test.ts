/**
 * The playground in a real Chromium against the built site: verdicts for a
 * correct spec, a wrong one and a broken one; share links; autosave.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageTab, ready } from './driver.ts';
import { ROOT, editorText, newPage, screenshot, setEditorText, waitForEditor } from './harness.ts';
import { useSite } from './setup.ts';
import { shareFragment } from './share-link.ts';

const env = useSite();


const ORACLE_KILL = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
const ORACLE_DUP = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_dup.py'), 'utf8');

// Wrong on purpose, and hard: it also claims success whenever oldfd * newfd
// is the 64-bit semiprime 4229662571 * 3286711663 (test/c/budget.test.ts), so
// refuting it means factoring that number: it is still running at its time
// limit, however fast the machine. (An oracle is no use here: its goals are
// proved at build time, tasks/hv6/refinement-proofs.json, so it verifies at once.)
const FACTORING_DUP = ORACLE_DUP.replace(
  '    new = old.copy()',
  '    cond = z3.Or(cond, z3.And(z3.ZeroExt(32, oldfd) * z3.ZeroExt(32, newfd) == 0xc0ecb17d91c13665, z3.UGT(oldfd, 1), z3.UGT(newfd, 1)))\n\n    new = old.copy()',
);

// Wrong on purpose: a killed RUNNING process is turned into a zombie at once,
// but the kernel only marks it; the refutation shows procs.state.
const WRONG_KILL = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = dt.proc_state.PROC_ZOMBIE
    return cond, util.If(cond, new, old)
`;

// Wrong on purpose (lesson 1's starter): starting a child does not run it.
const WRONG_SET_RUNNABLE = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    return cond, util.If(cond, new, old)
`;

// Line 9 is not Python.
const BROKEN_KILL = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_kill(old, pid):
    new = old.copy()
    cond = z3.And(is_pid_valid(pid),, )
    return cond, util.If(cond, new, old)
`;

async function openPlayground(page: Page, handler = 'sys_kill') {
  await page.goto(env.site.url + '#/play');
  await waitForEditor(page);
  // The buggy variants come with the task bundle (the variant list is disabled until then).
  await ready(pageTab(page), 'tasks');
  if ((await page.locator('[data-testid="handler"]').inputValue()) !== handler) {
    await page.selectOption('[data-testid="handler"]', handler);
    await waitForEditor(page);
  }
  // A loaded CI machine can take tens of seconds per proof: do not let the time limit decide a test.
  await page.selectOption('[data-testid="timeout"]', '120000');
}

async function verify(page: Page): Promise<string> {
  await page.click('[data-testid="verify"]');
  const verdict = page.locator('[data-testid="verdict"]');
  await verdict.waitFor({ timeout: 90_000 });
  return (await verdict.getAttribute('data-status')) ?? '';
}

describe('playground', () => {
  it('shows the handler C code read-only with C colouring', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await waitForEditor(page, 'c-code');
    const code = await editorText(page, 'c-code');
    expect(code).toMatch(/int sys_kill\(pid_t pid\)/);
    // The pane opens at the handler's definition, not at the macros on line 1.
    // (Monaco renders spaces as no-break spaces.)
    await expect
      .poll(async () => ((await page.locator('[data-testid="c-code"] .view-lines').textContent()) ?? '').replace(/\u00a0/g, ' '))
      .toContain('sys_kill(pid_t pid)');
    // Monaco's C tokenizer colours keywords.
    expect(await page.locator('[data-testid="c-code"] .view-lines span[class^="mtk"]').count()).toBeGreaterThan(10);
    // The reference spec is hidden until asked for.
    expect(await page.locator('[data-testid="reference"]').count()).toBe(0);
    await page.check('[data-testid="show-reference"]');
    await waitForEditor(page, 'reference');
    expect(await editorText(page, 'reference')).toContain('def sys_kill(old, pid):');
    await context.close();
  });

  it('verifies a correct spec', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await setEditorText(page, ORACLE_KILL);
    expect(await verify(page)).toBe('verified');
    expect(await page.locator('[data-testid="obligations"] li').count()).toBeGreaterThan(0);
    await screenshot(page, 'playground-verified');
    // Editing the spec makes the verdict stale at once (dimmed, with a note) ...
    expect(await page.locator('[data-testid="stale"]').count()).toBe(0);
    await setEditorText(page, ORACLE_KILL + '# edited\n');
    await page.waitForSelector('[data-testid="stale"]');
    expect(await page.locator('[data-stale="true"] [data-testid="verdict"]').count()).toBe(1);
    // ... and so does another implementation variant, with the old text back.
    await setEditorText(page, ORACLE_KILL);
    await page.waitForSelector('[data-testid="stale"]', { state: 'detached' });
    const variants = await page.locator('[data-testid="variant"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await page.selectOption('[data-testid="variant"]', variants[1]);
    await page.waitForSelector('[data-testid="stale"]');
    await context.close();
  }, 300_000);

  it('with "Lemmas" on, also proves the lemma checks', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await setEditorText(page, ORACLE_KILL);
    await page.check('[data-testid="strict"]');
    expect(await verify(page)).toBe('verified');
    const names = await page.locator('[data-testid="obligations"] code').allTextContents();
    // Refinement's obligations, then every lemma and spec invariant.
    expect(names).toContain('cond');
    expect(names).toContain('isolation');
    expect(names).toContain('nr_children_refcnt');
    expect(names.some((n) => n.startsWith('inv: '))).toBe(true);
    await context.close();
  }, 300_000);

  it('refutes a wrong spec and shows the counterexample table', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await setEditorText(page, WRONG_KILL);
    expect(await verify(page)).toBe('refuted');
    const table = page.locator('[data-testid="cex-table"]');
    await table.waitFor();
    const differing = table.locator('tr.differs');
    expect(await differing.count()).toBeGreaterThan(0);
    expect(await differing.first().textContent()).toContain('procs.state');
    // A well-formed start state: old and new process states print as enum names alike.
    const cells = await differing.first().locator('td code').allTextContents();
    for (const c of cells) expect(c).toMatch(/^PROC_[A-Z]+$/);
    expect(await page.locator('[data-testid="counterexample"]').textContent()).not.toContain('not a member');
    await screenshot(page, 'playground-counterexample');
    await context.close();
  }, 300_000);

  it('cancels a running verification at once, and a newer Verify supersedes an older one', async () => {
    const { page, context } = await newPage(env.browser);
    expect(FACTORING_DUP).not.toBe(ORACLE_DUP);
    await openPlayground(page, 'sys_dup');
    await page.waitForSelector('[data-testid="engine-status"][data-kind="ready"]', { timeout: 120_000 });
    await setEditorText(page, FACTORING_DUP);
    const respawns = async () => Number(await page.locator('[data-testid="engine-status"]').getAttribute('data-respawns'));
    const finished = async () => Number(await page.locator('[data-testid="results"]').getAttribute('data-runs'));
    const before = await respawns();
    const done = await finished();

    // "At once" is a state, not a time: the page says cancelled, the worker
    // that held the proof was terminated (and replaced), and no verdict came of it.
    await page.click('[data-testid="verify"]');
    await page.waitForSelector('[data-testid="progress"]');
    await page.click('[data-testid="cancel"]');
    await page.waitForSelector('[data-testid="cancelled"]', { timeout: 60_000 });
    expect(await respawns()).toBe(before + 1);
    expect(await finished()).toBe(done);
    // The editor stayed responsive throughout: it still takes input.
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# still typing');
    expect(await editorText(page)).toContain('# still typing');

    // Verify twice: the first run (the factoring spec, on the replacement worker) is
    // superseded and its worker stopped; the second (the oracle) answers.
    await page.click('[data-testid="verify"]');
    await page.waitForSelector('[data-testid="progress"]');
    await setEditorText(page, ORACLE_DUP);
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="verdict"]', { timeout: 180_000 });
    expect(await page.locator('[data-testid="verdict"]').getAttribute('data-status')).toBe('verified');
    expect(await respawns()).toBe(before + 2);
    expect(await finished()).toBe(done + 1);
    await context.close();
  }, 300_000);

  it('marks a syntax error in Monaco at the right line', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await setEditorText(page, BROKEN_KILL);
    await expect
      .poll(
        () =>
          page.$eval('[data-testid="spec-editor"]', (el) =>
            ((el as HTMLElement & { markers: () => { startLineNumber: number; code?: unknown }[] }).markers() ?? []).map((m) => m.startLineNumber),
          )
      )
      .toContain(9);
    await expect.poll(() => page.locator('.monaco-editor .squiggly-error').count()).toBeGreaterThan(0);
    await screenshot(page, 'playground-syntax-error');
    await context.close();
  });

  it('completes dialect names and documents them on hover', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    await setEditorText(page, ORACLE_KILL);
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nx = dt.proc_state.');
    const suggest = page.locator('.suggest-widget');
    await expect.poll(() => suggest.textContent()).toContain('PROC_ZOMBIE');
    await page.keyboard.press('Escape');
    await page.keyboard.type('PROC_RUNNING\ny = old.procs[pid].');
    await expect.poll(() => suggest.textContent()).toContain('nr_children');
    await page.keyboard.press('Escape');
    // Hover over a helper shows its signature and documentation.
    const lines = ORACLE_KILL.split('\n');
    const lineNumber = lines.findIndex((l) => /^\s+is_pid_valid\(pid\)/.test(l)) + 1;
    const column = lines[lineNumber - 1].indexOf('is_pid_valid') + 3;
    const at = await page.$eval(
      '[data-testid="spec-editor"]',
      (el, pos) => {
        type Ed = { revealLine(n: number): void; getScrolledVisiblePosition(p: object): { top: number; left: number; height: number } | null; getDomNode(): HTMLElement };
        const ed = (el as HTMLElement & { monacoEditor: Ed }).monacoEditor;
        ed.revealLine(pos.lineNumber);
        const p = ed.getScrolledVisiblePosition(pos)!;
        const r = ed.getDomNode().getBoundingClientRect();
        return { x: r.left + p.left + 2, y: r.top + p.top + p.height / 2 };
      },
      { lineNumber, column },
    );
    await page.mouse.move(at.x, at.y);
    await expect.poll(() => page.locator('.monaco-hover').first().textContent()).toContain('is_pid_valid(');
    await screenshot(page, 'playground-completion');
    await context.close();
  });

  it('restores the autosaved draft after a reload', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page, 'sys_reap');
    const marker = `# autosave check ${Date.now()}`;
    const text = (await editorText(page)) + marker + '\n';
    await setEditorText(page, text);
    await expect.poll(() => page.locator('[data-testid="saved"]').textContent()).toBe('saved');
    await page.reload();
    await waitForEditor(page);
    expect(await page.locator('[data-testid="handler"]').inputValue()).toBe('sys_reap');
    expect(await editorText(page)).toBe(text);
    await context.close();
  });

  it('round-trips a share link into a fresh browser context', async () => {
    const a = await newPage(env.browser);
    await openPlayground(a.page, 'sys_set_runnable');
    const spec = WRONG_SET_RUNNABLE + `# shared ${Date.now()}\n`;
    await setEditorText(a.page, spec);
    await a.page.selectOption('[data-testid="timeout"]', '60000');
    await a.page.click('[data-testid="copy-link"]');
    await expect.poll(() => a.page.url()).toContain('#/s/');
    const link = a.page.url();
    expect(link).not.toMatch(/key|sk-/i);
    const status = await verify(a.page);
    expect(status).toBe('refuted');
    await a.context.close();

    const b = await newPage(env.browser);
    await b.page.goto(link);
    await b.page.waitForSelector('[data-testid="shared-banner"]');
    await waitForEditor(b.page);
    expect(await editorText(b.page)).toBe(spec);
    expect(await b.page.locator('[data-testid="handler"]').inputValue()).toBe('sys_set_runnable');
    expect(await b.page.locator('[data-testid="timeout"]').inputValue()).toBe('60000');
    // Opening a link verifies at once, and gives the same verdict.
    const verdict = b.page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.getAttribute('data-status')).toBe(status);
    await screenshot(b.page, 'playground-shared');
    // A reload keeps the shared spec and variant (the address still holds the link) ...
    await b.page.reload();
    await b.page.waitForSelector('[data-testid="shared-banner"]');
    await waitForEditor(b.page);
    expect(await editorText(b.page)).toBe(spec);
    expect(await b.page.locator('[data-testid="handler"]').inputValue()).toBe('sys_set_runnable');
    // ... until it is edited: then it is the user's draft, and a reload shows that.
    const edited = spec + '# mine now\n';
    await setEditorText(b.page, edited);
    await expect.poll(() => b.page.url()).toContain('#/play');
    await expect.poll(() => b.page.locator('[data-testid="saved"]').textContent()).toBe('saved');
    await b.page.reload();
    await waitForEditor(b.page);
    expect(await b.page.locator('[data-testid="handler"]').inputValue()).toBe('sys_set_runnable');
    expect(await editorText(b.page)).toBe(edited);
    await b.context.close();
  }, 300_000);

  it('reports a damaged share link plainly', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.site.url + '#/s/not-a-real-payload');
    await expect.poll(() => page.locator('[data-testid="share-error"]').textContent()).toContain('damaged');
    await context.close();
  });

  it('opens "Reveal the bug" at the first changed line', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page, 'sys_dup');
    const variants = await page.locator('[data-testid="variant"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await page.selectOption('[data-testid="variant"]', variants[variants.length - 1]);
    await page.click('[data-testid="reveal-bug"]');
    const diff = page.locator('[data-testid="bug-diff"]');
    await expect.poll(() => diff.getAttribute('data-first-change')).toMatch(/^\d+$/);
    const first = Number(await diff.getAttribute('data-first-change'));
    expect(first).toBeGreaterThan(20);
    const visible = await page.$eval('[data-testid="bug-diff"]', (el) => {
      type R = { startLineNumber: number; endLineNumber: number };
      const d = (el as HTMLElement & { monacoDiff: { getModifiedEditor(): { getVisibleRanges(): R[] } } }).monacoDiff;
      const r = d.getModifiedEditor().getVisibleRanges();
      return [r[0].startLineNumber, r[r.length - 1].endLineNumber];
    });
    expect(visible[0]).toBeLessThanOrEqual(first);
    expect(visible[1]).toBeGreaterThanOrEqual(first);
    await context.close();
  });

  it('traps Tab in the spec editor and says how to leave: Esc then Tab, or Ctrl+M', async () => {
    const { page, context } = await newPage(env.browser);
    await openPlayground(page);
    const hint = page.locator('[data-testid="tab-hint"]');
    expect(await hint.textContent()).toMatch(/Esc.*Tab.*Ctrl\+M/s);
    const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="spec-editor"]'));
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);
    // Ctrl+M: Tab moves focus until pressed again.
    await page.click('[data-testid="spec-editor"] .view-lines');
    await page.keyboard.press('Control+m');
    await expect.poll(() => hint.getAttribute('data-tab-moves')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);
    await context.close();
  });

  it('says what to do next when lemma checks time out', async () => {
    const { page, context } = await newPage(env.browser);
    // A share link with a 1 ms limit and "Lemmas" on. Not the oracle itself: its
    // committed proofs decide it with no query at all, however short the limit (docs/lemmas.md,
    // "Reusing what is known"), so whether it timed out depended on how fast the page got there.
    // The same spec with two conjuncts swapped is new to the proof store: its lemma checks
    // are queries, which cannot be decided in 1 ms.
    const swapped = ORACLE_KILL.replace(/^(.*PROC_UNUSED,\n)(.*\n)(.*PROC_ZOMBIE,\n)/m, '$3$2$1');
    expect(swapped).not.toBe(ORACLE_KILL);
    await page.goto(env.site.url + shareFragment({ handler: 'sys_kill', spec: swapped, timeoutMs: 1, strict: true }));
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.getAttribute('data-status')).toBe('timeout');
    const help = await page.locator('[data-testid="timeout-help"]').textContent();
    expect(help).toContain('Time limit');
    expect(help).toContain('"Lemmas" on');
    expect(help).toContain('npx osvlab verify sys_kill --spec my_spec.py --lemmas');
    await context.close();
  }, 120_000);
});
