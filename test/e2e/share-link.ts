/** Share links made as the playground makes them, for browser tests and perf/app-load.ts. */
import { deflateRawSync } from 'node:zlib';

/** What a share link carries (src/app/lib/share.ts's format). */
export interface Shared {
  readonly handler: string;
  readonly spec: string;
  readonly timeoutMs?: number;
  readonly strict?: boolean;
  /** The app and kernel versions the link names (default 'test'). */
  readonly label?: string;
}

/** The route of a share link of `s` (`#/s/` and the deflated state, base64url). */
export function shareFragment({ handler, spec, timeoutMs = 30_000, strict = false, label = 'test' }: Shared): string {
  const state = { v: 1, handler, spec, options: { timeoutMs, strict }, app: label, kernel: label };
  return `#/s/${deflateRawSync(Buffer.from(JSON.stringify(state))).toString('base64url')}`;
}
