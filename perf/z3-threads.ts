/**
 * Z3 with its own threads against Z3 in the worker's one thread, in one
 * browser engine, interleaved in one run (docs/app.md, "Browser support"):
 * each round opens a fresh profile per mode (`?z3-threads=1`, `?z3-threads=0`,
 * in alternating order), verifies the reference and a wrong spec of one
 * handler `--verifies` times and runs the variant matrix (ten jobs on the
 * pool). It prints every timing, the median per kind and mode, and how many
 * timings ran past 3x their kind's median over both modes (a stalled job:
 * one that waited for the pool's hard limit).
 *
 *   npx tsx perf/z3-threads.ts [--browser firefox|chromium|webkit] [--rounds N] [--verifies N]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EngineName, type Tab, launchEngine } from '../test/e2e/driver.ts';
import { ROOT, ensureBuilt, serve } from '../test/e2e/harness.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const BROWSER = arg('browser', 'firefox') as EngineName;
const ROUNDS = Number(arg('rounds', '4'));
const VERIFIES = Number(arg('verifies', '4'));
const HANDLER = 'sys_set_runnable';
const ORACLE = readFileSync(join(ROOT, `tasks/hv6/specs/${HANDLER}.py`), 'utf8');
const WRONG = ORACLE.replace(/PROC_RUNNABLE/g, 'PROC_RUNNING');
const LONG = 400_000;

type Mode = 'threads' | 'one-thread';
interface Sample {
  mode: Mode;
  kind: string;
  ms: number;
  note: string;
}

const editorReady = () => !!document.querySelector('[data-testid="spec-editor"][data-ready="true"] .monaco-editor');

async function setEditor(tab: Tab, text: string): Promise<void> {
  await tab.eval((t: string) => {
    const el = document.querySelector('[data-testid="spec-editor"]') as (HTMLElement & { monacoEditor?: { setValue(v: string): void } }) | null;
    if (!el?.monacoEditor) throw new Error('editor not mounted');
    el.monacoEditor.setValue(t);
  }, text);
}

async function verifyOnce(tab: Tab): Promise<string> {
  const before = Number(await tab.eval(() => document.querySelector('[data-testid="results"]')?.getAttribute('data-runs')));
  await tab.click('[data-testid="verify"]');
  await tab.waitFor('a verdict', (n: number) => Number(document.querySelector('[data-testid="results"]')?.getAttribute('data-runs')) > n || !!document.querySelector('[data-testid="run-error"]'), LONG, before);
  return tab.eval(() => document.querySelector('[data-testid="run-error"]')?.textContent || document.querySelector('[data-testid="verdict"]')?.getAttribute('data-status') || '?');
}

async function session(engineName: EngineName, url: string, mode: Mode, out: Sample[]): Promise<void> {
  const engine = await launchEngine(engineName);
  const tab = await engine.open(1400, 900);
  const took = async (kind: string, f: () => Promise<string>) => {
    const t0 = Date.now();
    const note = await f();
    const s = { mode, kind, ms: Date.now() - t0, note };
    out.push(s);
    console.log(`${mode.padEnd(10)} ${kind.padEnd(14)} ${String(s.ms).padStart(7)} ms  ${note}`);
  };
  try {
    await took('editor', async () => {
      await tab.goto(`${url}?z3-threads=${mode === 'threads' ? 1 : 0}#/play`);
      await tab.waitFor('the editor', editorReady, LONG);
      return '';
    });
    await tab.select('[data-testid="handler"]', HANDLER);
    await tab.waitFor('the handler', (h: string) => (document.querySelector('[data-testid="handler"]') as HTMLSelectElement).value === h, LONG, HANDLER);
    await tab.waitFor('the editor', editorReady, LONG);
    await tab.select('[data-testid="timeout"]', '60000');
    for (let i = 0; i < VERIFIES; i++) {
      const wrong = i % 2 === 1;
      await setEditor(tab, wrong ? WRONG : ORACLE);
      await took(i === 0 ? 'first-verify' : wrong ? 'verify-wrong' : 'verify-ok', () => verifyOnce(tab));
    }
    await took('matrix', async () => {
      await tab.click('[data-testid="run-matrix"]');
      await tab.waitFor(
        'the whole matrix',
        () => {
          const cells = [...document.querySelectorAll('[data-testid="matrix"] td')].map((td) => td.textContent ?? '');
          return cells.length > 0 && cells.every((c) => !c.includes('running'));
        },
        LONG,
      );
      const spec = await tab.eval(() => [...document.querySelectorAll('[data-testid="matrix-spec"]')].map((td) => td.textContent?.trim()).join(','));
      return spec.slice(0, 120);
    });
    // The mode in use, as About shows it (the same pool: the route changes, not the page).
    await tab.eval(() => void (location.hash = '#/about'));
    await tab.waitFor('About', () => !!document.querySelector('[data-testid="z3-threads"][data-threads]'), 60_000);
    console.log(`  threads in use: ${await tab.eval(() => document.querySelector('[data-testid="z3-threads"]')?.getAttribute('data-threads'))}`);
  } finally {
    await tab.close().catch(() => undefined);
    await engine.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const site = await serve(await ensureBuilt());
const samples: Sample[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const order: Mode[] = r % 2 ? ['one-thread', 'threads'] : ['threads', 'one-thread'];
    for (const mode of order) {
      try {
        await session(BROWSER, site.url, mode, samples);
      } catch (e) {
        console.log(`${mode} round ${r}: ${String(e).slice(0, 300)}`);
        samples.push({ mode, kind: 'failed', ms: LONG, note: String(e).slice(0, 200) });
      }
    }
  }
} finally {
  await site.close();
}
console.log(`\n${BROWSER}, ${ROUNDS} rounds, ${VERIFIES} verifies + 1 matrix per round and mode`);
for (const kind of [...new Set(samples.map((s) => s.kind))]) {
  const all = samples.filter((s) => s.kind === kind);
  const m = median(all.map((s) => s.ms));
  for (const mode of ['threads', 'one-thread'] as Mode[]) {
    const mine = all.filter((s) => s.mode === mode);
    const stalls = mine.filter((s) => s.ms > 3 * m).length;
    console.log(`${kind.padEnd(14)} ${mode.padEnd(10)} n=${mine.length} median ${median(mine.map((s) => s.ms))} ms, max ${Math.max(...mine.map((s) => s.ms))} ms, >3x median(${m}): ${stalls}`);
  }
}
