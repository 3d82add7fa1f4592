/** Per-file setup for browser tests: a fresh build (made once), a preview server and a Chromium. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type Site, ensureBuilt, launch, serve } from './harness.ts';

export interface Env {
  site: Site;
  browser: Browser;
}

/** Registers beforeAll/afterAll hooks and returns the environment they fill in. */
export function useSite(): Env {
  const env = {} as Env;
  beforeAll(async () => {
    env.site = await serve(await ensureBuilt());
    env.browser = await launch();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}
