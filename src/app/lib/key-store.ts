/**
 * How the browser keeps API keys apart (docs/providers.md, "Keys in the
 * browser"): a key belongs to one provider kind and one origin (scheme, host
 * and port of the base URL it was entered for), and is only ever sent there.
 * Remembered keys are stored per provider kind as JSON `{origin: key}`.
 */

/** The origin a key entered for `baseUrl` belongs to; undefined when `baseUrl` is no http(s) URL. */
export function keyOrigin(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
}

/**
 * The remembered keys of one provider kind, read from what local storage
 * holds: `{origin: key}`, or a key saved by an older version (one plain key
 * for the kind), which belongs to `legacyOrigin`: the origin of the base URL
 * saved with it, else the provider's default. Anything else reads as none.
 */
export function parseStoredKeys(text: string | null, legacyOrigin: string | undefined): Record<string, string> {
  if (text === null || text === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const out: Record<string, string> = {};
    for (const [origin, key] of Object.entries(json)) if (typeof key === 'string' && key && keyOrigin(origin) === origin) out[origin] = key;
    return out;
  }
  // An older version stored the key itself (keys are never JSON objects).
  return legacyOrigin ? { [legacyOrigin]: text } : {};
}

/** The stored form of `keys` (undefined: nothing left to store). */
export function storedKeysText(keys: Readonly<Record<string, string>>): string | undefined {
  return Object.keys(keys).length ? JSON.stringify(keys) : undefined;
}
