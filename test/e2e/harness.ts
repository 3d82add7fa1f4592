/**
 * Browser test harness: builds the site for the current sources (reusing a
 * build of the same sources), serves it with `vite preview` on a free port (with the
 * COOP/COEP headers from vite.config.ts), and drives Debian's Chromium with
 * playwright-core. Used by the e2e tests and by perf/app-load.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type PreviewServer, preview } from 'vite';
import { NET_DELAY_MS, netDelay } from '../net-delay.ts';
import { type Tab, WAIT_MS, pageTab } from './driver.ts';

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

const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'scripts', 'src', 'public', 'tasks'];

/** Newest mtime and file count under `path`: changes whenever a source file is edited, added or removed. */
function scan(path: string, acc = { newest: 0, files: 0 }): { newest: number; files: number } {
  if (!existsSync(path)) return acc;
  const st = statSync(path);
  if (!st.isDirectory()) {
    acc.newest = Math.max(acc.newest, st.mtimeMs);
    acc.files++;
    return acc;
  }
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    scan(join(path, name), acc);
  }
  return acc;
}

/** A fingerprint of every source the site is built from. */
export function sourceFingerprint(): string {
  const acc = { newest: 0, files: 0 };
  for (const s of SOURCES) scan(join(ROOT, s), acc);
  return `${Math.floor(acc.newest)}-${acc.files}`;
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Builds the site for the current sources into test-artifacts/site-<fingerprint>/
 * and returns that directory; a build for the same sources is reused. Each
 * source state gets its own directory, so a test file that rebuilds after an
 * edit never pulls files from under a server another test file is using.
 * A lock directory makes parallel test files build one at a time.
 */
export async function ensureBuilt(): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const lock = join(ARTIFACTS, '.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building; a lock older than 5 minutes is stale.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      await sleep(300);
    }
  }
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'copy-z3.ts')], { cwd: ROOT, stdio: 'pipe' });
    const outDir = join(ARTIFACTS, `site-${sourceFingerprint()}`);
    if (existsSync(join(outDir, '.complete'))) return outDir;
    // Old builds go, except recent ones another test file may be serving.
    for (const name of readdirSync(ARTIFACTS)) {
      const p = join(ARTIFACTS, name);
      if (name.startsWith('site-') && p !== outDir && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true });
    }
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
      { cwd: ROOT, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } },
    );
    writeFileSync(join(outDir, '.complete'), new Date().toISOString());
    return outDir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Site {
  readonly url: string;
  readonly server: PreviewServer;
  close(): Promise<void>;
}

/** Serves a built site (default: dist/) with `vite preview` on a free port on 127.0.0.1. */
export async function serve(outDir = DIST): Promise<Site> {
  const server = await preview({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
    // The stress mode's slow network (test/net-delay.ts): every file is on its way a while.
    plugins: NET_DELAY_MS > 0 ? [{ name: 'osvlab-net-delay', configurePreviewServer: (s) => void s.middlewares.use((_req, _res, next) => void netDelay().then(() => next())) }] : [],
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

/**
 * Debian's Chromium. Each of its contexts waits up to WAIT_MS for what a
 * click, a fill or a selector waits on (Playwright's own default is 30 s),
 * the same bound as every other wait of the tests (test/e2e/driver.ts).
 */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    return context;
  };
  return browser;
}

/** A fresh context and page; `tab` is the page for waits on its states (test/e2e/driver.ts), `errors` its uncaught errors. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; tab: Tab; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const tab = pageTab(page);
  return { context, page, tab, errors: tab.errors };
}

/** Saves a screenshot under test-artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Waits until the spec editor (Monaco) is mounted and editable. */
export async function waitForEditor(page: Page, testid = 'spec-editor'): Promise<void> {
  await page.waitForSelector(`[data-testid="${testid}"][data-ready="true"] .monaco-editor textarea, [data-testid="${testid}"][data-ready="true"] .monaco-editor .native-edit-context`, {
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

export const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
};

/**
 * Serves a built site the way a plain static host does: files only, none of
 * the cross-origin isolation headers (to exercise public/sw.js). `hold`, when
 * given, is awaited before each file is served (a test holds one back).
 */
export async function serveStatic(outDir: string, options: { hold?(path: string): Promise<void> } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const { extname, normalize } = await import('node:path');
  const server = createServer(async (req, res) => {
    await netDelay();
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, '');
    await options.hold?.(path);
    const file = join(outDir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('static server has no port');
  return {
    url: `http://127.0.0.1:${addr.port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
