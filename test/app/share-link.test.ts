/**
 * Share links carry a bounded size (issue 57 item 4): a link of 1.5 KB can
 * inflate to 1 MiB, one of 20 KB to 20 MiB, and the page held its tab for
 * minutes on them. The payload is inflated a little at a time and refused
 * with LINK001 as soon as it passes SHARE_MAX_BYTES; a spec longer than a
 * link may carry is refused too. Node's DecompressionStream is the one the
 * page uses (the WHATWG stream); the page itself is tested in Chromium
 * (test/e2e/playground-edges.test.ts).
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SHARE_MAX_BYTES, ShareLinkError, decodeJson, decodeShared, shareUrl } from '../../src/app/lib/share.ts';

const state = (spec: string) => ({ v: 1, handler: 'sys_dup', spec, options: { timeoutMs: 30_000, strict: false }, app: 't', kernel: 't' });
const payload = (value: unknown) => deflateRawSync(Buffer.from(JSON.stringify(value)), { level: 9 }).toString('base64url');

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; ms: number }> {
  const t0 = Date.now();
  try {
    await p;
  } catch (e) {
    if (e instanceof ShareLinkError) return { code: e.code, message: e.message, ms: Date.now() - t0 };
    throw e;
  }
  throw new Error('not refused');
}

describe('share links', () => {
  it('round-trips a spec', async () => {
    const url = await shareUrl(state('def sys_dup(old, fd):\n    pass\n') as never, { origin: 'http://x', pathname: '/' } as Location);
    const back = await decodeShared(url.slice(url.indexOf('#/s/') + 4));
    expect(back.spec).toBe('def sys_dup(old, fd):\n    pass\n');
  });

  it('refuses a 1.5 KB link that inflates to 1 MiB, and one that inflates to 20 MiB, with LINK001 before inflating it all', async () => {
    const mib = payload(state('a'.repeat(1 << 20)));
    expect(mib.length).toBeLessThan(1600);
    const r1 = await refusal(decodeShared(mib));
    expect(r1.code).toBe('LINK001');
    expect(r1.message).toBe(`This link carries more than ${SHARE_MAX_BYTES / 1024} KB once unpacked, far more than any spec; it was not opened. (LINK001)`);
    const big = payload(state('b'.repeat(20 << 20)));
    const r20 = await refusal(decodeShared(big));
    expect(r20.code).toBe('LINK001');
    // Bounded work: the 20 MiB is never made (a whole inflate and parse of it takes far longer on this machine).
    expect(r20.ms).toBeLessThan(3000);
    expect((await refusal(decodeJson(big, 1 << 20))).code).toBe('LINK001');
  });

  it('refuses a spec longer than a link may carry, a damaged link and a foreign one, each with its code', async () => {
    expect((await refusal(decodeShared(payload(state('x'.repeat(70_000)))))).code).toBe('LINK001');
    expect((await refusal(decodeShared('AAAAbroken-payload'))).code).toBe('LINK002');
    expect((await refusal(decodeShared('!!!'))).code).toBe('LINK002');
    expect((await refusal(decodeShared(payload([1, 2])))).code).toBe('LINK003');
    expect((await refusal(decodeShared('A'.repeat(500_000)))).code).toBe('LINK001');
  });
});
