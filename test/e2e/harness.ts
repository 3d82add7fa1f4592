/**
 * Browser test harness: builds the site when the build is missing or older
 * than its sources, serves dist/ with `vite preview` on a free port (with the
 * COOP/COEP headers from vite.config.ts), and drives Debian's Chromium with
 * playwright-core. Used by the e2e tests and by bench/app-load.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type PreviewServer, preview } from 'vite';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'src', 'public', 'tasks'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    max = Math.max(max, newestMtime(join(path, name)));
  }
  return max;
}

/** True when dist/ exists and is newer than every source file. */
export function buildIsFresh(): boolean {
  const built = join(DIST, 'index.html');
  if (!existsSync(built) || !existsSync(join(DIST, 'z3-built.wasm'))) return false;
  const t = statSync(built).mtimeMs;
  return SOURCES.every((s) => newestMtime(join(ROOT, s)) <= t);
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Builds the site unless a fresh build exists. Test files run in parallel, so
 * a lock directory makes sure only one of them builds.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(ROOT, 'test-artifacts', '.build-lock');
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building; a lock older than 5 minutes is stale.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    if (buildIsFresh()) return;
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'copy-z3.mjs')], { cwd: ROOT, stdio: 'pipe' });
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Site {
  readonly url: string;
  readonly server: PreviewServer;
  close(): Promise<void>;
}

/** Serves dist/ with `vite preview` on a free port on 127.0.0.1. */
export async function serve(): Promise<Site> {
  const server = await preview({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const addr = server.httpServer.address();
  if (!addr || typeof addr === 'string') throw new Error('preview server has no port');
  const url = `http://127.0.0.1:${addr.port}/`;
  return {
    url,
    server,
    close: () => server.close(),
  };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Saves a screenshot under test-artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Waits until the spec editor (Monaco) is mounted and editable. */
export async function waitForEditor(page: Page, testid = 'spec-editor'): Promise<void> {
  await page.waitForSelector(`[data-testid="${testid}"][data-ready="true"] .monaco-editor textarea, [data-testid="${testid}"][data-ready="true"] .monaco-editor .native-edit-context`, {
    timeout: 30_000,
    state: 'attached',
  });
}

/** Replaces an editor's text through Monaco's model (as a paste would), so the app sees a real edit. */
export async function setEditorText(page: Page, text: string, testid = 'spec-editor'): Promise<void> {
  await page.$eval(
    `[data-testid="${testid}"]`,
    (el, t) => {
      const ed = (el as HTMLElement & { monacoEditor?: { setValue(v: string): void } }).monacoEditor;
      if (!ed) throw new Error('editor not mounted');
      ed.setValue(t);
    },
    text,
  );
}

/** Reads an editor's text from Monaco's model. */
export async function editorText(page: Page, testid = 'spec-editor'): Promise<string> {
  return page.$eval(`[data-testid="${testid}"]`, (el) => {
    const ed = (el as HTMLElement & { monacoEditor?: { getValue(): string } }).monacoEditor;
    return ed ? ed.getValue() : '';
  });
}

/** Does the build contain the refinement verifier yet? */
export function verifierLanded(): boolean {
  return existsSync(join(ROOT, 'src', 'core', 'verify', 'index.ts'));
}

/** Does the build contain the spec checker yet? */
export function checkerLanded(): boolean {
  return existsSync(join(ROOT, 'src', 'core', 'spec', 'index.ts'));
}
