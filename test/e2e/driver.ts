/**
 * One small driver over the three browser engines the app is tested in
 * (docs/app.md, "Browser support"), so one test file runs per engine:
 *
 * - chromium: Debian's Chromium through playwright-core (as the rest of test/e2e);
 * - firefox: Debian's firefox-esr through puppeteer-core over WebDriver BiDi
 *   (Playwright cannot drive a stock Firefox);
 * - webkit: WebKitGTK's MiniBrowser through WebKitWebDriver, spoken to with a
 *   minimal W3C WebDriver client over fetch, on an Xvfb display this module
 *   starts and stops by its pid.
 *
 * Pages are driven the same way in all three: a selector is CSS, page code is
 * a function serialised into an expression, and every wait is `waitFor` on a
 * state the page exposes (a ready attribute, a verdict, a counter), never a
 * fixed time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export const ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** One page (tab) in one profile. */
export interface Tab {
  readonly engine: EngineName;
  goto(url: string): Promise<void>;
  /** Runs `fn(...args)` in the page and returns its (awaited, JSON-cloneable) result. */
  eval<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** A real click on the first element matching `selector` (scrolled into view). */
  click(selector: string): Promise<void>;
  /** Replaces a text field's value by typing, as a person would. */
  fill(selector: string, value: string): Promise<void>;
  /** Chooses an option of a `<select>` by value and fires its input and change events. */
  select(selector: string, value: string): Promise<void>;
  /** Chooses a local file in a file input, as a person picking it would. */
  upload(selector: string, path: string): Promise<void>;
  /** Sets the viewport (CSS pixels). */
  resize(width: number, height: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  /**
   * Resolves when `condition(...args)`, run in the page, is truthy; rejects
   * after `timeoutMs` naming `what`. Navigations in between are retried.
   */
  waitFor<A extends unknown[]>(what: string, condition: (...args: A) => unknown, timeoutMs?: number, ...args: A): Promise<void>;
  /** Sends a DevTools protocol command to this tab's page (Chromium only: perf/app-load.ts's mobile profile). */
  cdp?(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Uncaught page errors seen so far (Chromium and Firefox; WebKit's WebDriver does not report them). */
  readonly errors: string[];
  close(): Promise<void>;
}

/** A running browser; each `open` is a fresh profile (no storage, cache or service worker shared). */
export interface Engine {
  readonly name: EngineName;
  open(width?: number, height?: number): Promise<Tab>;
  close(): Promise<void>;
}

/**
 * How long a wait goes on before it fails, naming what it waited for. Every
 * wait is for a state (of the page, or of a local server); this bound only
 * turns a hang into a failure that says where, so it is far above what the
 * slowest state takes on a loaded machine (test/README.md, "Timing"). A wait
 * for long work (a proof, a run) passes its own, larger bound.
 */
export const WAIT_MS = 60_000;

/**
 * The expression that calls `fn` with `args` (JSON), for every engine's
 * evaluate. tsx compiles with esbuild's keepNames, which wraps inner named
 * functions in calls to a helper `__name` that the page lacks: the
 * expression defines it in the function's scope.
 */
function callExpression(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `((__name) => (${fn.toString()})(...${JSON.stringify(args)}))((f) => f)`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The one wait of the browser tests: polls `probe` until it is truthy; its
 * errors (a navigation under way) count as not yet. `Tab.waitFor` runs its
 * condition in the page through this; called directly it waits on a state
 * of this process (a fake provider's requests, a file).
 */
export async function waitUntil(what: string, probe: () => unknown, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return;
      last = undefined;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------- Chromium

const CHROMIUM_ARGS = [
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

/** A Playwright page (Chromium) as a Tab; `errors` collects its uncaught errors from now on. */
export function pageTab(page: Page): Tab {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const evalIn = <R>(expr: string) => page.evaluate(expr) as Promise<R>;
  return {
    engine: 'chromium',
    errors,
    goto: async (url) => void (await page.goto(url)),
    eval: (fn, ...args) => evalIn(callExpression(fn as never, args)),
    click: (sel) => page.click(sel),
    fill: (sel, value) => page.fill(sel, value),
    select: async (sel, value) => void (await page.selectOption(sel, value)),
    upload: (sel, path) => page.setInputFiles(sel, path),
    resize: (w, h) => page.setViewportSize({ width: w, height: h }),
    screenshot: async (path) => void (await page.screenshot({ path })),
    waitFor: (what, cond, timeoutMs = WAIT_MS, ...args) => waitUntil(what, () => evalIn(callExpression(cond as never, args)), timeoutMs),
    close: () => page.context().close(),
  };
}

async function chromiumEngine(): Promise<Engine> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  return {
    name: 'chromium',
    async open(width = 1280, height = 800) {
      const context = await browser.newContext({ viewport: { width, height } });
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      let session: Awaited<ReturnType<typeof context.newCDPSession>> | undefined;
      return Object.assign(pageTab(page), {
        cdp: async (method: string, params?: Record<string, unknown>) => {
          session ??= await context.newCDPSession(page);
          return session.send(method as never, params as never);
        },
      });
    },
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------- Firefox

export const FIREFOX = '/usr/bin/firefox-esr';

/**
 * Sets a Firefox tab's viewport. puppeteer-core sends WebDriver BiDi's
 * `browsingContext.setViewport` and `emulation.setScreenOrientationOverride`
 * together and rejects when either fails; Firefox ESR 140.12 knows no
 * `emulation.setScreenOrientationOverride` ("unknown command"), yet applies
 * the viewport. That one rejection is let go, and the size is waited for.
 */
async function firefoxViewport(page: import('puppeteer-core').Page, width: number, height: number): Promise<void> {
  try {
    await page.setViewport({ width, height });
  } catch (e) {
    if (!/unknown command emulation\.setScreenOrientationOverride/.test(String(e))) throw e;
  }
  await page.waitForFunction(`innerWidth === ${width} && innerHeight === ${height}`, { timeout: 10_000 });
}

async function firefoxEngine(): Promise<Engine> {
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    // No first-run pages, updates or telemetry in a test profile.
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false },
  });
  return {
    name: 'firefox',
    async open(width = 1280, height = 800) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      await firefoxViewport(page, width, height);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const evalIn = <R>(expr: string) => page.evaluate(expr) as Promise<R>;
      return {
        engine: 'firefox',
        errors,
        goto: async (url) => void (await page.goto(url)),
        eval: (fn, ...args) => evalIn(callExpression(fn as never, args)),
        click: async (sel) => {
          const el = await page.waitForSelector(sel);
          if (!el) throw new Error(`no element ${sel}`);
          await el.click();
        },
        fill: (sel, value) => page.locator(sel).fill(value),
        select: async (sel, value) => {
          const got = await page.select(sel, value);
          if (!got.includes(value)) throw new Error(`${sel} has no option ${value}`);
        },
        upload: async (sel, path) => {
          const el = await page.waitForSelector(sel);
          if (!el) throw new Error(`no element ${sel}`);
          await (el as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(path);
        },
        resize: (w, h) => firefoxViewport(page, w, h),
        screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
        waitFor: (what, cond, timeoutMs = WAIT_MS, ...args) => waitUntil(what, () => evalIn(callExpression(cond as never, args)), timeoutMs),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------- WebKit

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';

/** Where Debian puts MiniBrowser (webkit2gtk-4.1; the 6.0 API on newer releases). */
export function miniBrowser(): string {
  const candidates = [
    '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser',
    '/usr/lib/aarch64-linux-gnu/webkitgtk-6.0/MiniBrowser',
  ];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`MiniBrowser not found (install webkit2gtk-driver); looked in ${candidates.join(', ')}`);
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** An X display of our own: Xvfb started with -displayfd, stopped by its pid. */
async function startXvfb(): Promise<{ display: string; stop(): void }> {
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    const fd3 = proc.stdio[3] as NodeJS.ReadableStream;
    fd3.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it chose a display`)));
    proc.once('error', reject);
  });
  return { display, stop: () => void proc.kill('SIGTERM') };
}

/** A minimal W3C WebDriver client: one session, the commands the tests use. */
class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  /** A new session; rejects when the driver has not answered within `timeoutMs`. */
  static async create(base: string, capabilities: object, timeoutMs: number): Promise<WebDriverSession> {
    const res = await fetch(`${base}/session`, {
      method: 'POST',
      body: JSON.stringify({ capabilities: { alwaysMatch: capabilities } }),
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((e: unknown) => {
      throw new Error(`WebDriver: no new session within ${timeoutMs} ms (${e instanceof Error && e.name === 'TimeoutError' ? 'no answer' : String(e)})`);
    });
    const body = (await res.json()) as { value: { sessionId?: string; message?: string; error?: string } };
    if (!res.ok || !body.value.sessionId) throw new Error(`WebDriver: new session failed: ${body.value.error ?? res.status} ${body.value.message ?? ''}`);
    return new WebDriverSession(base, body.value.sessionId);
  }

  async command<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<T> {
    const res = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    const json = (await res.json()) as { value: T & { error?: string; message?: string } };
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error ?? res.status}: ${json.value?.message ?? ''}`);
    return json.value;
  }

  /** Runs a script body (`arguments` are its args) and returns its awaited value. */
  execute<T>(script: string, args: unknown[] = []): Promise<T> {
    return this.command<T>('POST', '/execute/sync', { script, args });
  }

  async element(selector: string): Promise<string> {
    const found = await this.command<Record<string, string>>('POST', '/element', { using: 'css selector', value: selector });
    return Object.values(found)[0];
  }
}

/** How long WebKitWebDriver gets to start a MiniBrowser and answer a new session (seconds on a loaded machine). */
const SESSION_MS = 120_000;

/** WebKitWebDriver on `display`, in a process group of its own so that stopping it stops the browsers it started. */
async function startWebKitDriver(display: string): Promise<{ base: string; log(): string; stop(): void }> {
  const port = await freePort();
  // OSVLAB_WEBKIT_LOG=<file> keeps the driver's and the browser's output, console messages included;
  // otherwise its last lines are kept to explain a session that did not start.
  const file = process.env.OSVLAB_WEBKIT_LOG ? openSync(process.env.OSVLAB_WEBKIT_LOG, 'a') : 'pipe';
  const proc = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: ['ignore', file, file], env: { ...process.env, DISPLAY: display }, detached: true });
  let tail = '';
  const keep = (d: Buffer) => void (tail = (tail + d.toString()).slice(-2000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const stop = () => {
    try {
      if (proc.pid) process.kill(-proc.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntil('WebKitWebDriver to listen', async () => (await fetch(`${base}/status`)).ok);
  } catch (e) {
    stop();
    throw e;
  }
  return { base, log: () => tail.trim(), stop };
}

async function webkitEngine(): Promise<Engine> {
  const xvfb = await startXvfb();
  let driver: Awaited<ReturnType<typeof startWebKitDriver>> | undefined;
  try {
    driver = await startWebKitDriver(xvfb.display);
    const binary = miniBrowser();
    const capabilities = {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary,
        args: ['--automation', ...(process.env.OSVLAB_WEBKIT_LOG ? ['--enable-write-console-messages-to-stdout=true'] : [])],
      },
    };
    // Each session is a new MiniBrowser process with an ephemeral profile. Once in a CI run the
    // driver never answered a new session (undici gave up after 300 s): a browser that did not
    // connect back holds it. Such a driver is stopped with its browsers and a new one tried once.
    const newSession = async (): Promise<WebDriverSession> => {
      try {
        return await WebDriverSession.create(driver!.base, capabilities, SESSION_MS);
      } catch (first) {
        const log = driver!.log();
        driver!.stop();
        driver = await startWebKitDriver(xvfb.display);
        process.stderr.write(`webkit: ${(first as Error).message}; started a new WebKitWebDriver${log ? `; the old one's last output:\n${log}` : ''}\n`);
        return WebDriverSession.create(driver.base, capabilities, SESSION_MS);
      }
    };
    return {
      name: 'webkit',
      async open(width = 1280, height = 800) {
        const s = await newSession();
        await s.command('POST', '/timeouts', { script: 120_000, pageLoad: 120_000 });
        const resize = async (w: number, h: number) => {
          await s.command('POST', '/window/rect', { width: w, height: h });
          // The window's chrome takes some of it: size the window so the page's viewport is w x h.
          const inner = await s.execute<[number, number]>('return [innerWidth, innerHeight]');
          if (inner[0] !== w || inner[1] !== h) await s.command('POST', '/window/rect', { width: w + (w - inner[0]), height: h + (h - inner[1]) });
        };
        await resize(width, height);
        const evalIn = <R>(expr: string) => s.execute<R>(`return ${expr};`);
        return {
          engine: 'webkit',
          errors: [],
          goto: async (url) => void (await s.command('POST', '/url', { url })),
          eval: (fn, ...args) => evalIn(callExpression(fn as never, args)),
          click: async (sel) => {
            const el = await s.element(sel);
            await s.command('POST', `/element/${el}/click`);
          },
          fill: async (sel, value) => {
            const el = await s.element(sel);
            await s.command('POST', `/element/${el}/clear`);
            await s.command('POST', `/element/${el}/value`, { text: value });
          },
          select: async (sel, value) => {
            const ok = await s.execute<boolean>(
              `const el = document.querySelector(arguments[0]);
               if (!el || ![...el.options].some((o) => o.value === arguments[1])) return false;
               el.value = arguments[1];
               el.dispatchEvent(new Event('input', { bubbles: true }));
               el.dispatchEvent(new Event('change', { bubbles: true }));
               return true;`,
              [sel, value],
            );
            if (!ok) throw new Error(`${sel} has no option ${value}`);
          },
          upload: async (sel, path) => {
            // WebDriver sets a file input's files from the path sent to it as keys.
            const el = await s.element(sel);
            await s.command('POST', `/element/${el}/value`, { text: path });
          },
          resize,
          screenshot: async (path) => {
            const png = await s.command<string>('GET', '/screenshot');
            mkdirSync(dirname(path), { recursive: true });
            writeFileSync(path, Buffer.from(png, 'base64'));
          },
          waitFor: (what, cond, timeoutMs = WAIT_MS, ...args) => waitUntil(what, () => evalIn(callExpression(cond as never, args)), timeoutMs),
          close: async () => {
            await s.command('DELETE', '').catch(() => undefined);
          },
        };
      },
      async close() {
        driver?.stop();
        xvfb.stop();
      },
    };
  } catch (e) {
    driver?.stop();
    xvfb.stop();
    throw e;
  }
}

/** What the page loads that a test may wait for: the root element's ready states (src/app/state/readiness.svelte.ts). */
export type ReadyPart = 'tasks' | 'z3';

/**
 * Waits until the page has loaded each of `parts` (the task bundle, Z3). A
 * part that could not load fails the wait at once, with the page's word for
 * why (Z3 `failed`, `unavailable`, `no-isolation`; tasks `failed`).
 */
export async function ready(tab: Tab, ...parts: ReadyPart[]): Promise<void> {
  for (const part of parts) {
    // Loading Z3 (a 2 GiB wasm memory, its threads) is the slowest thing a page does.
    const bound = part === 'z3' ? 2 * WAIT_MS : WAIT_MS;
    await tab.waitFor(`the page's ${part} to load`, (p) => !['idle', 'loading', undefined].includes(document.documentElement.dataset[p]), bound, part);
    const state = await tab.eval((p) => document.documentElement.dataset[p], part);
    if (state !== 'ready') throw new Error(`the page's ${part} did not load: ${state}`);
  }
}

/**
 * Waits until what is on screen under `root` has stopped moving: the fonts
 * are loaded and no element's box changed between two animation frames (a
 * smooth scroll ended, an editor or a chart finished laying out). What a
 * test measures or clicks by position is then where it stays.
 */
export function settled(tab: Tab, root = 'body'): Promise<void> {
  return tab.waitFor(
    `the layout under ${root} to settle`,
    (sel) =>
      new Promise<boolean>((resolve) => {
        const boxes = () => {
          const top = document.querySelector(sel);
          if (!top) return '';
          const all = [top, ...top.querySelectorAll('*')];
          const scrolls = all.filter((e) => e.scrollTop || e.scrollLeft).map((e) => `${e.scrollTop},${e.scrollLeft}`);
          return `${scrollX},${scrollY};${scrolls.join(';')};${all.map((e) => { const r = e.getBoundingClientRect(); return `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`; }).join(';')}`;
        };
        if (document.fonts.status !== 'loaded') return resolve(false);
        const before = boxes();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(before !== '' && before === boxes())));
      }),
    WAIT_MS,
    root,
  );
}

/** Starts `name`'s browser. */
export function launchEngine(name: EngineName): Promise<Engine> {
  switch (name) {
    case 'chromium':
      return chromiumEngine();
    case 'firefox':
      return firefoxEngine();
    case 'webkit':
      return webkitEngine();
  }
}
