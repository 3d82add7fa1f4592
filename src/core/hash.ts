/**
 * Content hashes: SHA-256 (Web Crypto, present in Node 20, browsers and
 * workers) over canonical JSON. A leaf of the core: run ids, the LLM cache,
 * task content digests and lesson attempt files all hash this one way.
 */

/** JSON with object keys sorted and undefined fields dropped, so equal data hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : sortKeys(x)));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): Promise<string> {
  return sha256HexOfBytes(new TextEncoder().encode(text));
}

/** Lower-case hex SHA-256 of `bytes` (a file as it was read, before any decoding). */
export async function sha256HexOfBytes(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
