/**
 * Share links: the playground's state, compressed into the URL fragment so it
 * never reaches a server. deflate-raw (CompressionStream) + base64url. A link
 * holds only what reproduces a verdict: handler, variant, spec text, options
 * and the versions it was made with. Never keys or settings.
 */

/** What a share link carries. Field names are short on purpose: they end up in URLs. */
export interface SharedState {
  /** Format version of this payload. */
  readonly v: 1;
  readonly handler: string;
  /** Task id of the implementation variant. */
  readonly variant?: string;
  readonly spec: string;
  readonly options: { readonly timeoutMs: number; readonly strict: boolean };
  /** App version and kernel fingerprint at the time the link was made. */
  readonly app: string;
  readonly kernel: string;
}

/** The fragment prefix of a share link: `#/s/<payload>`. */
const SHARE_PREFIX = '#/s/';

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const blob = new Blob([bytes as BlobPart]);
  const out = await new Response(blob.stream().pipeThrough(stream)).arrayBuffer();
  return new Uint8Array(out);
}

/** Returns the fragment payload (no prefix) for `state`. */
async function encodeShared(state: SharedState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

export class ShareLinkError extends Error {
  override name = 'ShareLinkError';
}

/** Decodes a payload made by `encodeShared`; throws ShareLinkError on anything else. */
export async function decodeShared(payload: string): Promise<SharedState> {
  let value: unknown;
  try {
    const bytes = await pipe(fromBase64Url(payload), new DecompressionStream('deflate-raw'));
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ShareLinkError('This share link is damaged: it could not be decompressed.');
  }
  const s = value as Partial<SharedState>;
  if (!s || s.v !== 1 || typeof s.handler !== 'string' || typeof s.spec !== 'string') {
    throw new ShareLinkError('This share link was not made by a version of OSVLab this page understands.');
  }
  return {
    v: 1,
    handler: s.handler,
    variant: typeof s.variant === 'string' ? s.variant : undefined,
    spec: s.spec,
    options: {
      timeoutMs: Number(s.options?.timeoutMs) > 0 ? Number(s.options!.timeoutMs) : 30_000,
      strict: s.options?.strict === true,
    },
    app: String(s.app ?? '?'),
    kernel: String(s.kernel ?? '?'),
  };
}

/** The route of a share link of `state` (`s/` and its payload), for `router.go`. */
export async function shareRoute(state: SharedState): Promise<string> {
  return `${SHARE_PREFIX.slice(2)}${await encodeShared(state)}`;
}

/** The full URL of a share link for the current page. */
export async function shareUrl(state: SharedState, location: Location = window.location): Promise<string> {
  return `${location.origin}${location.pathname}${SHARE_PREFIX}${await encodeShared(state)}`;
}

/** Compresses any JSON value into a fragment payload, as share links do (teacher links use it too). */
export async function encodeJson(value: unknown): Promise<string> {
  return toBase64Url(await pipe(new TextEncoder().encode(JSON.stringify(value)), new CompressionStream('deflate-raw')));
}

/** The JSON value of a payload made by `encodeJson`; throws ShareLinkError when it cannot be read. */
export async function decodeJson(payload: string): Promise<unknown> {
  try {
    const bytes = await pipe(fromBase64Url(payload), new DecompressionStream('deflate-raw'));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ShareLinkError('This link is damaged: it could not be decompressed.');
  }
}
