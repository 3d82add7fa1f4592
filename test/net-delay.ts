/**
 * The stress mode's slow network (scripts/test-stress.ts, test/README.md
 * "Timing"): every local server the tests run (the fake provider, the
 * built site's preview and static servers) holds each request this long
 * before it handles it. No delay unless OSVLAB_TEST_NET_DELAY_MS is set.
 */
export const NET_DELAY_MS = Math.max(0, Number(process.env.OSVLAB_TEST_NET_DELAY_MS) || 0);

/** Resolves after the stress mode's network delay (at once when there is none). */
export function netDelay(): Promise<void> {
  return NET_DELAY_MS > 0 ? new Promise((r) => setTimeout(r, NET_DELAY_MS)) : Promise.resolve();
}
