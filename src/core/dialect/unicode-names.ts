/**
 * `\N{NAME}` in a unicode literal: whether Python 2.7 (Unicode 5.2.0) knows
 * the name, and the character. CJK unified ideographs and Hangul syllables
 * are named after their code point, so they are computed here, exactly (and,
 * as in CPython, only in upper case); any other name is looked up, in any
 * case, in a Bloom filter of the names (unicode-name-filter.ts). The filter
 * knows that a name exists, not its character: such an escape stands for
 * U+FFFD here, and about one made-up name in a hundred passes as a name
 * (docs/spec-errors.md).
 *
 * The filter is 28 kB with brotli that no other spec needs, so it is loaded
 * on demand (`loadNameFilter`), never with the lexer: the verifier worker's
 * and the page's first code do not carry it (docs/design.md, "The worker's
 * first code"). The lexer is synchronous: whoever lexes text in which
 * `mayNeedNameFilter` is true awaits `loadNameFilter` first (the worker's
 * service does, src/core/service/serve.ts). A name looked up before that
 * is an internal error, never a different answer.
 */

import { loadOnce } from '../load-once.ts';

type NameFilter = { readonly size: number; readonly hashes: number; readonly bits: string };

let filter: NameFilter | undefined;

/** Whether lexing `source` may look a name up in the filter: it holds `\N{` (case-sensitive, as in Python: `\n{` is a newline). */
export function mayNeedNameFilter(source: string): boolean {
  return source.includes('\\N{');
}

/** Whether the filter is loaded (`unicodeCharacter` can answer any name). */
export function nameFilterLoaded(): boolean {
  return filter !== undefined;
}

/** Loads the filter, once (again after a failed load). */
export const loadNameFilter: () => Promise<void> = loadOnce(() =>
  import('./unicode-name-filter.ts').then((m) => {
    filter = m.NAME_FILTER;
  }),
);

/** Thrown for a name looked up before `loadNameFilter` finished: a bug of the caller, not of the spec. */
export class NameFilterNotLoadedError extends Error {
  constructor(name: string) {
    super(`the Unicode name filter is not loaded, so \\N{${name}} cannot be checked (its caller must await loadNameFilter() first)`);
    this.name = 'NameFilterNotLoadedError';
  }
}

/** The code point `name` stands for (U+FFFD for a name known only to the filter), or undefined for no name. */
export function unicodeCharacter(name: string): number | undefined {
  const cjk = /^CJK UNIFIED IDEOGRAPH-([0-9A-F]{4,5})$/.exec(name);
  if (cjk) {
    const cp = parseInt(cjk[1], 16);
    return CJK_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? cp : undefined;
  }
  if (name.startsWith('HANGUL SYLLABLE ')) return hangul().get(name.slice('HANGUL SYLLABLE '.length));
  return inFilter(name.toUpperCase()) ? 0xfffd : undefined;
}

/** The CJK unified ideographs of Unicode 5.2 (the base block and extensions A, B and C). */
const CJK_RANGES: readonly (readonly [number, number])[] = [[0x3400, 0x4db5], [0x4e00, 0x9fcb], [0x20000, 0x2a6d6], [0x2a700, 0x2b734]];

let syllables: Map<string, number> | undefined;

/** Hangul syllables by the jamo part of their name (`GA` is U+AC00), built on first use. */
function hangul(): Map<string, number> {
  if (syllables) return syllables;
  const lead = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '', 'J', 'JJ', 'C', 'K', 'T', 'P', 'H'];
  const vowel = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA', 'WAE', 'OE', 'YO', 'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I'];
  const tail = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB', 'LS', 'LT', 'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C', 'K', 'T', 'P', 'H'];
  syllables = new Map();
  let cp = 0xac00;
  for (const l of lead) for (const v of vowel) for (const t of tail) syllables.set(l + v + t, cp++);
  return syllables;
}

let filterBytes: Uint8Array | undefined;

function inFilter(name: string): boolean {
  if (!filter) throw new NameFilterNotLoadedError(name);
  filterBytes ??= base64Bytes(filter.bits);
  const m = filter.size;
  const h1 = fnv1a(name, 0x811c9dc5) % m;
  const h2 = fnv1a(name, 0x01000193) % m;
  for (let i = 0; i < filter.hashes; i++) {
    const k = (h1 + i * h2) % m;
    if (!(filterBytes[k >> 3] & (1 << (k & 7)))) return false;
  }
  return true;
}

/** FNV-1a over the characters of an ASCII string, then murmur3's finaliser (as the generator hashes them). */
function fnv1a(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function base64Bytes(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (const c of clean) {
    acc = (acc << 6) | alphabet.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
