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

/**
 * The most a share link may carry once inflated. A spec is a few KB (the
 * largest oracle is under 4 KB); a link of 1.5 KB can inflate to 20 MiB and
 * more, which held a tab for minutes.
 */
export const SHARE_MAX_BYTES = 256 * 1024;
/** The longest spec a share link may carry, in characters (the same as a teacher's exercise, teacher-link.ts LIMITS.spec). */
const SHARE_MAX_SPEC = 64_000;
/** The longest payload read at all: far above what SHARE_MAX_BYTES of text compresses to. */
const MAX_PAYLOAD_CHARS = 400_000;
/** Compressed bytes fed to the inflater at a time: deflate expands a byte at most about 1032 times, so one feed yields at most about 260 KB. */
const FEED = 256;

/** Why a link cannot be opened: LINK001 too large, LINK002 damaged, LINK003 not a link this page reads (docs/app.md, "Share links"). */
export type ShareLinkCode = 'LINK001' | 'LINK002' | 'LINK003';

export class ShareLinkError extends Error {
  override name = 'ShareLinkError';
  constructor(
    readonly code: ShareLinkCode,
    message: string,
  ) {
    super(`${message} (${code})`);
  }
}

const tooLarge = (max: number) => new ShareLinkError('LINK001', `This link carries more than ${max / 1024} KB once unpacked, far more than any spec; it was not opened.`);

/**
 * Inflates `bytes` (deflate-raw), refusing with LINK001 as soon as the output
 * passes `max` bytes: the input is fed a little at a time, so a bomb is
 * stopped after about `max` + 260 KB, never inflated whole.
 */
async function inflate(bytes: Uint8Array, max: number): Promise<Uint8Array> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const feeding = (async () => {
    for (let i = 0; i < bytes.length; i += FEED) await writer.write(bytes.slice(i, i + FEED) as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  // A damaged stream fails the reads below too; the feeder's own failure is not needed.
  feeding.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await reader.read();
    } catch {
      throw new ShareLinkError('LINK002', 'This link is damaged: it could not be decompressed.');
    }
    if (r.done) break;
    total += r.value.length;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      await writer.abort().catch(() => undefined);
      throw tooLarge(max);
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The JSON value of a link's payload: bounded before it is inflated (LINK001), damaged (LINK002) when it cannot be read. */
async function readPayload(payload: string, max: number): Promise<unknown> {
  if (payload.length > MAX_PAYLOAD_CHARS) throw tooLarge(max);
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(payload);
  } catch {
    throw new ShareLinkError('LINK002', 'This link is damaged: it could not be decompressed.');
  }
  const text = await inflate(bytes, max);
  try {
    return JSON.parse(new TextDecoder().decode(text));
  } catch {
    throw new ShareLinkError('LINK002', 'This link is damaged: it could not be decompressed.');
  }
}

/** Returns the fragment payload (no prefix) for `state`. */
async function encodeShared(state: SharedState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

/** Decodes a payload made by `encodeShared`; throws ShareLinkError on anything else. */
export async function decodeShared(payload: string): Promise<SharedState> {
  const value = await readPayload(payload, SHARE_MAX_BYTES);
  const s = value as Partial<SharedState>;
  if (!s || s.v !== 1 || typeof s.handler !== 'string' || typeof s.spec !== 'string') {
    throw new ShareLinkError('LINK003', 'This share link was not made by a version of OSVLab this page understands.');
  }
  if (s.spec.length > SHARE_MAX_SPEC) throw new ShareLinkError('LINK001', `This link carries a spec of ${s.spec.length} characters, more than the ${SHARE_MAX_SPEC} a link may carry; it was not opened.`);
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

/** The JSON value of a payload made by `encodeJson`, at most `max` bytes inflated; throws ShareLinkError when it cannot be read. */
export function decodeJson(payload: string, max = SHARE_MAX_BYTES): Promise<unknown> {
  return readPayload(payload, max);
}
