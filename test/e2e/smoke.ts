/**
 * The smoke path every browser engine must walk (docs/app.md, "Browser
 * support"), driven through test/e2e/driver.ts so the same steps run in
 * Chromium, Firefox and WebKit (test/e2e/smoke-<engine>.test.ts):
 *
 * - the playground: a correct spec verified, a wrong one refuted with its
 *   counterexample table, Cancel, the variant matrix;
 * - one course exercise graded (the starter fails, the fix passes), the
 *   failure's counterexample adding no height to the document;
 * - a share link opened in a fresh profile, verifying to the same verdict,
 *   its toolbar still while its check runs;
 * - a 3-task Evaluate run against the local fake provider, graded here on
 *   the pool's workers, and Runs: a run file imported and re-verified;
 * - a 1-task run in the agent mode against the scripted agent, and its
 *   trajectory's timeline on the Runs page;
 * - About: the Z3 memory in use, the small memory when the setting asks, and
 *   whether Z3 runs its own threads (Chromium) or the worker's one thread
 *   (Firefox by default, WebKitGTK always; `?z3-threads=1` in Firefox).
 *
 * Every step runs in every engine: none is a Chromium-only feature. A wait
 * for a result also ends, with the page's message, when the page reports an
 * error instead (a worker stopped at the pool's hard limit).
 *
 * Every wait is on a state the page exposes (a ready attribute, a verdict's
 * status, a counter), never a fixed time; screenshots at 1400 and 390 px go
 * to test-artifacts/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAnswer } from '../fake-provider/answers.ts';
import { scriptedAgent } from '../fake-provider/agent.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { type Engine, type EngineName, type Tab, launchEngine } from './driver.ts';
import { ARTIFACTS, ROOT, type Site, ensureBuilt, serve } from './harness.ts';
import { makeRunFile } from './run-file.ts';
import { attr, editorReady, setEditor, text, verifyOnce } from './playground-tab.ts';
import { THREAD_WORKERS_AHEAD } from '../../src/z3/threads.ts';

const HANDLER = 'sys_set_runnable';
const ORACLE = readFileSync(join(ROOT, `tasks/hv6/specs/${HANDLER}.py`), 'utf8');
// Wrong on purpose (lesson 1's starter): starting a child does not run it.
const WRONG = ORACLE.replace(/PROC_RUNNABLE/g, 'PROC_RUNNING');
// Cancel needs a verification that waits for Z3: a spec a reachable state refutes is answered by running,
// with no query (docs/design.md §3). This one drops an index bound no state of the bank shows.
const SOLVER_HANDLER = 'sys_map_pcipage';
const SOLVER_ONLY = readFileSync(join(ROOT, `tasks/hv6/specs/${SOLVER_HANDLER}.py`), 'utf8').replace('        z3.ULT(index, 512),\n', '');
const KEY = 'test-key-smoke-0123456789';

/** Long enough for a loaded CI machine running one browser per core: a wait that runs out is a failure. */
const LONG = 240_000;

async function shoot(tab: Tab, engine: EngineName, name: string): Promise<void> {
  await tab.screenshot(join(ARTIFACTS, `smoke-${engine}-${name}-1400.png`));
  await tab.resize(390, 844);
  await tab.screenshot(join(ARTIFACTS, `smoke-${engine}-${name}-390.png`));
  await tab.resize(1400, 900);
}

/** Registers the smoke path for `name` in the calling test file. */
export function smokeSuite(name: EngineName): void {
  let site: Site;
  let engine: Engine;
  let fake: FakeProvider;

  beforeAll(async () => {
    site = await serve(await ensureBuilt());
    fake = await startFakeProvider({ key: KEY });
    engine = await launchEngine(name);
  });
  afterAll(async () => {
    await engine?.close();
    await fake?.close();
    await site?.close();
  });

  describe(`the smoke path in ${name}`, () => {
    let shareLink = '';
    let sharedStatus = '';

    it('playground: verified, refuted with a counterexample, Cancel, the variant matrix', async () => {
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/play`);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await tab.select('[data-testid="handler"]', HANDLER);
        await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, HANDLER);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await tab.select('[data-testid="timeout"]', '120000');

        await setEditor(tab, ORACLE);
        expect(await verifyOnce(tab)).toBe('verified');

        await setEditor(tab, WRONG);
        expect(await verifyOnce(tab)).toBe('refuted');
        expect(await tab.eval(text, '[data-testid="cex-table"]')).toContain('procs.state');
        await shoot(tab, name, 'refuted');

        // A link to this state, for a fresh profile below.
        await tab.click('[data-testid="copy-link"]');
        await tab.waitFor('the link in the address', () => location.hash.startsWith('#/s/'));
        shareLink = await tab.eval(() => location.href);
        sharedStatus = 'refuted';

        // Cancel: Verify, then Cancel once the run shows (one frame later, long before any proof ends).
        await tab.select('[data-testid="handler"]', SOLVER_HANDLER);
        await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, SOLVER_HANDLER);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await setEditor(tab, SOLVER_ONLY);
        await tab.eval(async () => {
          (document.querySelector('[data-testid="verify"]') as HTMLButtonElement).click();
          for (let i = 0; i < 100 && !document.querySelector('[data-testid="cancel"]'); i++) await new Promise((r) => requestAnimationFrame(r));
          (document.querySelector('[data-testid="cancel"]') as HTMLButtonElement).click();
        });
        await tab.waitFor('the cancelled state', () => !!document.querySelector('[data-testid="cancelled"]'));
        await tab.select('[data-testid="handler"]', HANDLER);
        await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, HANDLER);
        await tab.waitFor('the editor', editorReady, LONG, 'spec-editor');
        await setEditor(tab, WRONG);

        // The variant matrix: the wrong spec and the reference against all five variants (ten
        // verifications on the pool).
        await tab.click('[data-testid="run-matrix"]');
        await tab.waitFor(
          'the whole matrix',
          () => {
            const cells = [...document.querySelectorAll('[data-testid="matrix"] td')].map((td) => td.textContent ?? '');
            return cells.length > 0 && cells.every((c) => !c.includes('running'));
          },
          LONG,
        );
        // Every cell a verdict (a job whose worker failed shows `unknown`): the wrong spec is refuted
        // everywhere, the reference verified on the correct implementation (the first row) and
        // refuted on the four buggy ones.
        const rows = await tab.eval(() => [...document.querySelectorAll('[data-testid="matrix"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent?.replace(/^\W+/, '').trim())));
        expect(rows).toEqual([
          ['refuted', 'verified'],
          ['refuted', 'refuted'],
          ['refuted', 'refuted'],
          ['refuted', 'refuted'],
          ['refuted', 'refuted'],
        ]);
        await shoot(tab, name, 'matrix');
      } finally {
        await tab.close();
      }
    }, 900_000);

    it('a share link opened in a fresh profile shows the spec and verifies to the same verdict', async () => {
      expect(shareLink).toContain('#/s/');
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(shareLink);
        await tab.waitFor('the shared banner', () => !!document.querySelector('[data-testid="shared-banner"]'), LONG);
        // Issue 55 item 6: nothing in the toolbar moves while the link's own check runs, and it offers no
        // "Re-verify" of a check the reader never started. Every frame until the verdict is sampled.
        await tab.eval(() => {
          const w = window as unknown as { toolbarFrames: { running: boolean; rects: string; words: string }[] };
          w.toolbarFrames = [];
          const sample = () => {
            const bar = document.querySelector('[role="toolbar"]');
            const rects = [...(bar?.querySelectorAll('button, select') ?? [])].map((el) => {
              const r = el.getBoundingClientRect();
              return `${(el as HTMLElement).dataset.testid}@${Math.round(r.left)},${Math.round(r.top)}`;
            });
            w.toolbarFrames.push({ running: !!document.querySelector('[data-testid="progress"]'), rects: rects.join(' '), words: bar?.textContent ?? '' });
            if (!document.querySelector('[data-testid="verdict"]')) requestAnimationFrame(sample);
          };
          sample();
        });
        await tab.waitFor('the shared verdict', () => !!document.querySelector('[data-testid="verdict"]'), LONG);
        expect(await tab.eval(attr, '[data-testid="verdict"]', 'data-status')).toBe(sharedStatus);
        const frames = await tab.eval(() => (window as unknown as { toolbarFrames: { running: boolean; rects: string; words: string }[] }).toolbarFrames);
        const after = await tab.eval(() => [...(document.querySelector('[role="toolbar"]')?.querySelectorAll('button, select') ?? [])].map((el) => {
          const r = el.getBoundingClientRect();
          return `${(el as HTMLElement).dataset.testid}@${Math.round(r.left)},${Math.round(r.top)}`;
        }).join(' '));
        expect(frames.some((f) => f.running), 'a frame while the check ran').toBe(true);
        expect([...new Set(frames.map((f) => f.rects))]).toEqual([after]);
        for (const f of frames) expect(f.words).not.toContain('Re-verify');
        expect(await tab.eval(() => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value)).toBe(HANDLER);
        await shoot(tab, name, 'shared');
      } finally {
        await tab.close();
      }
    }, 600_000);

    it('Learn: an exercise graded, failed as started and passed when fixed', async () => {
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/learn/state-machines/fix-state`);
        await tab.waitFor('the exercise editor', editorReady, LONG, 'lesson-editor');
        await tab.click('[data-testid="lesson-check"]');
        await tab.waitFor('a failed grade', () => document.querySelector('[data-testid="lesson-grade"]')?.getAttribute('data-kind') === 'failed', LONG);
        // Issue 55 item 5: the counterexample adds no blank band below the page (the document is the
        // viewport's height; <main> scrolls), at both widths.
        const heights = () => ({ document: document.documentElement.scrollHeight, viewport: innerHeight });
        for (const [w, h] of [[1400, 900], [390, 844]]) {
          await tab.resize(w, h);
          const m = await tab.eval(heights);
          expect(m.document, `the document's height at ${w} px`).toBe(m.viewport);
        }
        await tab.resize(1400, 900);
        await setEditor(tab, ORACLE, 'lesson-editor');
        await tab.click('[data-testid="lesson-check"]');
        await tab.waitFor('a passed grade', () => document.querySelector('[data-testid="lesson-grade"]')?.getAttribute('data-kind') === 'passed', LONG);
        await tab.waitFor('the progress', () => /^1 of/.test(document.querySelector('[data-testid="progress-count"]')?.textContent ?? ''));
        await shoot(tab, name, 'learn');
      } finally {
        await tab.close();
      }
    }, 900_000);

    // Three answers on the pool's two workers: a worker that fails to start grades its answer `internal`.
    const tasks = [0, 1, 2];
    it(`Evaluate: a ${tasks.length}-task run against the local fake provider, graded here`, async () => {
      fake.reset();
      fake.respond(() => ({ kind: 'text', text: codeAnswer(ORACLE), usage: { input: 900, output: 250 } }));
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/evaluate`);
        await tab.waitFor('the provider form', () => !!document.querySelector('[data-testid="provider"]'), LONG);
        await tab.select('[data-testid="provider"]', 'openai-compatible');
        await tab.fill('[data-testid="base-url"]', `${fake.url}/v1`);
        await tab.fill('[data-testid="model"]', `fake-smoke-${name}`);
        await tab.fill('[data-testid="api-key"]', KEY);
        await tab.eval(() => document.querySelector('[data-testid="api-key"]')?.dispatchEvent(new Event('change', { bubbles: true })));
        await tab.fill('[data-testid="selection"]', tasks.map((i) => `${HANDLER}-v${i}`).join(', '));
        // Refinement grading only: the lemma check's lemma queries would triple the time, and test/e2e/evaluate.test.ts covers it.
        if (await tab.eval(() => (document.querySelector('[data-testid="strict"]') as HTMLInputElement).checked)) await tab.click('[data-testid="strict"]');
        await tab.click('[data-testid="start-run"]');
        // The run's end, whatever its status (an answer left ungraded ends it `incomplete`).
        // A run that never ends says where it stood (the stress run that stalled here in WebKit named only the wait).
        await tab.waitFor('the run to end', () => !!document.querySelector('[data-testid="run-ended"]'), 600_000).catch(async (e: Error) => {
          const at = await tab.eval(() => {
            const line = (sel: string, none: string) => document.querySelector(sel)?.textContent?.replace(/\s+/g, ' ').trim() ?? none;
            const rows = [...document.querySelectorAll('[data-testid="live-attempts"] tbody tr')].map((tr) => tr.textContent?.replace(/\s+/g, ' ').trim());
            return `data-run=${document.documentElement.dataset.run} data-z3=${document.documentElement.dataset.z3}; ${line('[data-testid="run-progress"]', 'no progress line')}; ${line('[data-testid="attempt-counts"]', 'no attempt counts')}; attempts: ${rows.join(' | ') || 'none'}`;
          });
          throw new Error(`${e.message}; the page: ${at}; provider requests ${fake.requests.length}`);
        });
        const progress = await tab.eval(text, '[data-testid="run-progress"]');
        expect(await tab.eval(() => document.documentElement.dataset.run), progress).toBe('done');
        const m = /(\d+) of (\d+) \(100%\) · passed (\d+)/.exec(progress);
        expect(m, progress).not.toBeNull();
        expect([m![1], m![2]]).toEqual([String(tasks.length), String(tasks.length)]);
        expect(Number(m![3]), progress).toBe(tasks.length);
        expect(fake.requests.length).toBe(tasks.length);
        await shoot(tab, name, 'evaluate');
      } finally {
        await tab.close();
      }
    }, 900_000);

    it('Evaluate in the agent mode: the scripted agent verifies, reads the counterexample, answers; Runs shows the timeline', async () => {
      fake.reset();
      fake.respond(scriptedAgent());
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/evaluate`);
        await tab.waitFor('the provider form', () => !!document.querySelector('[data-testid="provider"]'), LONG);
        await tab.select('[data-testid="provider"]', 'openai-compatible');
        await tab.fill('[data-testid="base-url"]', `${fake.url}/v1`);
        await tab.fill('[data-testid="model"]', `fake-agent-${name}`);
        await tab.fill('[data-testid="api-key"]', KEY);
        await tab.eval(() => document.querySelector('[data-testid="api-key"]')?.dispatchEvent(new Event('change', { bubbles: true })));
        await tab.fill('[data-testid="selection"]', `${HANDLER}-v0`);
        if (await tab.eval(() => (document.querySelector('[data-testid="strict"]') as HTMLInputElement).checked)) await tab.click('[data-testid="strict"]');
        await tab.select('[data-testid="run-mode"]', 'agent');
        await tab.waitFor('the agent options', () => !!document.querySelector('[data-testid="agent-options"]'), LONG);
        await tab.click('[data-testid="start-run"]');
        await tab.waitFor('the run to end', () => !!document.querySelector('[data-testid="run-ended"]'), 600_000);
        expect(await tab.eval(() => document.documentElement.dataset.run)).toBe('done');
        // Three turns: verify the buggy draft, verify the fix, answer.
        expect(fake.requests.length).toBe(3);
        // The tools offered: verify, run (one concrete state) and submit.
        expect(fake.requests.every((r) => r.body.tools?.length === 3)).toBe(true);
        await tab.click('[data-testid="run-ended"] a');
        await tab.waitFor('the trajectory', () => !!document.querySelector('[data-testid="trajectory"]'), LONG);
        await tab.click('[data-testid="trajectory"] > summary');
        const calls = await tab.eval(() => [...document.querySelectorAll('[data-testid="tool-call"]')].map((c) => `${c.getAttribute('data-tool')}:${c.getAttribute('data-result')}`));
        expect(calls).toEqual(['verify:semantic', 'verify:pass']);
        expect(await tab.eval(text, '[data-testid="tool-result"]')).toMatch(/Counterexample:/);
        expect(await tab.eval(text, '[data-testid="final-grade"]')).toMatch(/graded pass/);
        // The timeline in view at both widths.
        const toTimeline = () => document.querySelector('[data-testid="trajectories"]')?.scrollIntoView();
        await tab.eval(toTimeline);
        await tab.screenshot(join(ARTIFACTS, `smoke-${name}-agent-1400.png`));
        await tab.resize(390, 844);
        await tab.eval(toTimeline);
        await tab.screenshot(join(ARTIFACTS, `smoke-${name}-agent-390.png`));
        // Nothing wider than the phone's screen.
        expect(await tab.eval(() => document.querySelector('[data-testid="trajectories"]')!.scrollWidth <= window.innerWidth)).toBe(true);
      } finally {
        await tab.close();
      }
    }, 900_000);

    it('Runs: a run file imported and re-verified', async () => {
      const { path } = await makeRunFile();
      const tab = await engine.open(1400, 900);
      try {
        await tab.goto(`${site.url}#/runs`);
        await tab.waitFor('the import field', () => !!document.querySelector('[data-testid="import-run"]'), LONG);
        await tab.upload('[data-testid="import-run"]', path);
        await tab.waitFor('the metrics', () => !!document.querySelector('[data-testid="metrics"]'), LONG);
        expect(await tab.eval(text, '[data-testid="metrics"]')).toMatch(/pass rate\s*50\.0%/);
        await tab.click('[data-testid="reverify"]');
        await tab.waitFor('the re-verify', () => !!document.querySelector('[data-testid="reverify-result"]'), 600_000);
        // Graded again here: a summary of both answers. The file's grades are made up, so the pass
        // may change (it gains the lemma check's mark), but only to a pass: the oracle answer
        // graded `internal` or `timeout` is a verifier that failed here.
        expect(await tab.eval(text, '[data-testid="reverify-summary"]')).toMatch(/of 2\b/);
        const changed = await tab.eval(() => [...document.querySelectorAll('[data-testid="reverify-changed"] li')].map((li) => li.textContent?.trim() ?? ''));
        for (const line of changed) expect(line).toMatch(/-> pass\b/);
        await shoot(tab, name, 'runs');
      } finally {
        await tab.close();
      }
    }, 900_000);

    // How Z3 runs by default (docs/app.md, "Browser support"): on threads of its own in Chromium,
    // in the worker's one thread in Firefox (its threads stall) and in WebKitGTK (no memory shared with workers).
    const threads = name === 'chromium' ? 'true' : 'false';
    it(`About: Z3 runs in the largest memory, and in 256 MiB when the setting asks; ${threads === 'true' ? 'on its own threads' : 'in one thread'}${name === 'firefox' ? ', on its threads with ?z3-threads=1' : ''}`, async () => {
      const tab = await engine.open(1400, 900);
      try {
        const cases: { query: string; mib: string; threads: string; selfTest: boolean }[] = [
          { query: '', mib: '2048', threads, selfTest: true },
          { query: '?z3-memory=256', mib: '256', threads, selfTest: true },
        ];
        // The setting overrides Firefox's default; only the load is checked (a check on Z3's threads is what stalls there).
        if (name === 'firefox') cases.push({ query: '?z3-threads=1', mib: '2048', threads: 'true', selfTest: false });
        for (const c of cases) {
          await tab.goto(`${site.url}${c.query}#/about`);
          // Ready, or failed with the page's message (a start whose warm-up stalled three times says so).
          await tab.waitFor('Z3 loaded', () => ['ready', 'failed'].includes(document.querySelector('[data-testid="engine-status"]')?.getAttribute('data-kind') ?? ''), LONG);
          expect(await tab.eval(text, '[data-testid="z3-failed"]'), `Z3's start with '${c.query}'`).toBe('');
          expect(await tab.eval(attr, '[data-testid="z3-memory"]', 'data-mib')).toBe(c.mib);
          expect(await tab.eval(attr, '[data-testid="z3-threads"]', 'data-threads'), `Z3's threads with '${c.query}'`).toBe(c.threads);
          // On threads by default, the warm-up's two threads ran in the workers made while the wasm compiled
          // (src/z3/threads.ts); Firefox's opt-in threads make none ahead.
          const steps = JSON.parse((await tab.eval(attr, '[data-testid="engine-status"]', 'data-steps')) ?? '{}') as { threadsAhead?: number };
          expect(steps.threadsAhead, `thread workers made ahead and taken, with '${c.query}'`).toBe(c.threads === 'true' ? (name === 'firefox' ? 0 : THREAD_WORKERS_AHEAD) : undefined);
          if (!c.selfTest) continue;
          await tab.click('[data-testid="self-test"]');
          // Its result, or the error the page shows when the self-test does not answer within its limit (60 s).
          await tab.waitFor('the self-test', () => !!document.querySelector('[data-testid="self-test-result"], [data-testid="self-test-error"]'), LONG);
          expect(await tab.eval(text, '[data-testid="self-test-error"]'), `self-test at ${c.mib} MiB`).toBe('');
          expect(await tab.eval(attr, '[data-testid="self-test-result"]', 'data-ok')).toBe('true');
        }
        await shoot(tab, name, 'about');
      } finally {
        await tab.close();
      }
    }, 600_000);
  });
}
