/**
 * A share link whose spec has a `\N{NAME}` escape, in a real Chromium against
 * the built site: the verifier worker and the page load the Unicode name
 * filter on demand (docs/design.md, "The worker's first code"), and the
 * verdict is the one the lexer gives with it, an unknown name a SPEC001 at
 * the escape and a known one no error at all. A link without the escape
 * never fetches the filter.
 */
import { describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { useSite } from './setup.ts';
import { shareFragment } from './share-link.ts';

const env = useSite();
/** sys_kill that leaves the killed flag clear: refuted by running, with no query (test/pool/solver-free.test.ts). */
const WRONG = oracleSpec('sys_kill')!.replace('killed = z3.BoolVal(True)', 'killed = z3.BoolVal(False)');

/** The verdict a share link of `spec` (for sys_kill) shows, and whether the page or its workers fetched the filter. */
async function opened(spec: string): Promise<{ status: string | null; text: string; filter: boolean }> {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  let filter = false;
  context.on('request', (r) => (filter ||= /unicode-name-filter-[\w-]+\.js$/.test(r.url())));
  await page.goto(env.site.url + shareFragment({ handler: 'sys_kill', spec }));
  const verdict = page.locator('[data-testid="verdict"]');
  await verdict.waitFor({ timeout: 120_000 });
  const out = { status: await verdict.getAttribute('data-status'), text: (await verdict.textContent()) ?? '', filter };
  await context.close();
  return out;
}

describe('a share link with a \\N{...} escape', () => {
  it('shows the SPEC001 of an unknown name', async () => {
    const v = await opened("import z3\n\nNAME = u'pid \\N{DASH}'\n");
    expect(v.status).toBe('spec-error');
    expect(v.text).toContain("unknown Unicode character name 'DASH'");
    expect(v.filter).toBe(true);
  });

  it('verifies past a known name, and a link without one never fetches the filter', async () => {
    const named = await opened(`${WRONG}\nNOTE = u'\\N{EM DASH}'\n`);
    expect(named.status).toBe('refuted');
    expect(named.filter).toBe(true);
    const plain = await opened(WRONG);
    expect(plain.status).toBe('refuted');
    expect(plain.filter).toBe(false);
  });
});
