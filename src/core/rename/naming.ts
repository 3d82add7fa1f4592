/**
 * The new names of a renaming, deterministic from its style and seed
 * (docs/rename.md): `synonym` rewrites each part of a name through the
 * synonym table (synonyms.ts), a seed choosing among a part's
 * alternatives; `opaque` draws a name that means nothing (syllables from a
 * generator keyed by the seed and the name) keeping only the name's case,
 * its leading underscores and a C `_t` suffix. The result is one to one,
 * and no new name is an original name, a reserved name or a keyword.
 */
import { rng } from '../rng.ts';
import type { RenameStyle } from './choice.ts';
import { KEPT_PARTS, SYNONYMS } from './synonyms.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Thrown when a name cannot be renamed (a part the synonym table lacks) or two names would get the same new name. */
export class NamingError extends Error {
  readonly code = 'RENAME001';
}

/** A name's pieces: the separators (leading underscores, `_`) and the words between them, split at case changes too. */
interface Piece {
  readonly text: string;
  readonly sep: boolean;
}

function pieces(name: string): Piece[] {
  const out: Piece[] = [];
  const lead = /^_*/.exec(name)![0];
  if (lead) out.push({ text: lead, sep: true });
  const body = name.slice(lead.length);
  for (const chunk of body.split(/(_+)/)) {
    if (!chunk) continue;
    if (chunk.startsWith('_')) {
      out.push({ text: chunk, sep: true });
      continue;
    }
    // BaseStruct -> Base Struct; DMAPage -> DMA Page; PCIPage -> PCI Page.
    const words = chunk.replace(/([a-z0-9])([A-Z])/g, '$1\0$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1\0$2').split('\0');
    for (const w of words) out.push({ text: w, sep: false });
  }
  return out;
}

/** `word` in the case of `like`: UPPER, Capitalized or lower. */
function caseLike(word: string, like: string): string {
  if (like.length > 1 && like === like.toUpperCase() && like !== like.toLowerCase()) return word.toUpperCase();
  if (like.length === 1 && like === like.toUpperCase() && like !== like.toLowerCase()) return word.toUpperCase();
  if (like[0] === like[0].toUpperCase() && like[0] !== like[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
}

/** The replacement of one table key under `seed`. */
function pick(key: string, seed: number): string {
  const alts = SYNONYMS[key].split(' ');
  return alts.length === 1 ? alts[0] : alts[Math.floor(rng(`rename/synonym/${seed}/${key}`)() * alts.length)];
}

/** The table key and its suffix for one word: itself, or without a plural `s` or a trailing number. */
export function synonymKey(word: string): { key: string; suffix: string } | undefined {
  const w = word.toLowerCase();
  if (Object.hasOwn(SYNONYMS, w) || KEPT_PARTS.has(w)) return { key: w, suffix: '' };
  const digits = /^(.*?)(\d+)$/.exec(w);
  if (digits && digits[1] && Object.hasOwn(SYNONYMS, digits[1])) return { key: digits[1], suffix: digits[2] };
  if (w.endsWith('s') && Object.hasOwn(SYNONYMS, w.slice(0, -1))) return { key: w.slice(0, -1), suffix: 's' };
  return undefined;
}

/**
 * The synonym of `name`: each run of words that forms a phrase of the
 * table (longest first) or a single word, replaced in the case it was
 * written; separators kept. Undefined when some word has no entry.
 */
export function synonymOf(name: string, seed: number): string | undefined {
  const r = synonymParts(name, seed);
  return r.missing.length ? undefined : r.name;
}

/** The words of a name no synonym table entry covers (a test lists them for a new kernel name). */
export function missingSynonyms(name: string): string[] {
  return synonymParts(name, 0).missing;
}

function synonymParts(name: string, seed: number): { name: string; missing: string[] } {
  const missing: string[] = [];
  const ps = pieces(name);
  const camel = !ps.some((p) => p.sep) && ps.length > 1;
  let out = '';
  for (let i = 0; i < ps.length; ) {
    if (ps[i].sep) {
      out += ps[i++].text;
      continue;
    }
    // The longest phrase of the table starting here: words joined by single underscores.
    let phrase: { key: string; end: number } | undefined;
    let key = ps[i].text.toLowerCase();
    for (let j = i + 2; j < ps.length && ps[j - 1].text === '_' && !ps[j].sep; j += 2) {
      key += `_${ps[j].text.toLowerCase()}`;
      if (Object.hasOwn(SYNONYMS, key)) phrase = { key, end: j + 1 };
    }
    if (phrase) {
      out += caseLike(pick(phrase.key, seed), ps[i].text);
      i = phrase.end;
      continue;
    }
    const word = ps[i].text;
    const k = synonymKey(word);
    if (!k) {
      missing.push(word);
      i++;
      continue;
    }
    const base = KEPT_PARTS.has(k.key) ? k.key : pick(k.key, seed);
    const replaced = caseLike(base + k.suffix, word);
    // In a CamelCase name a replacement's own underscores become case changes.
    out += camel ? replaced.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()) : replaced;
    i++;
  }
  return { name: out, missing };
}

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** A name that means nothing: three syllables, in the case of `name`, with its leading underscores and `_t` suffix. */
function opaqueOf(name: string, draw: () => number): string {
  let w = '';
  for (let i = 0; i < 3; i++) w += CONSONANTS[Math.floor(draw() * CONSONANTS.length)] + VOWELS[Math.floor(draw() * VOWELS.length)];
  const lead = /^_*/.exec(name)![0];
  const body = name.slice(lead.length);
  const typeSuffix = body.endsWith('_t') && body.length > 2;
  const shape = body.replace(/_t$/, '').replace(/[_\d]/g, '');
  const cased = shape && shape === shape.toUpperCase() ? w.toUpperCase() : /^[A-Z]/.test(shape) ? w[0].toUpperCase() + w.slice(1) : w;
  return `${lead}${cased}${typeSuffix ? '_t' : ''}`;
}

/**
 * The new name of every vocabulary name in `style` with `seed`, one to one,
 * none of them an original or reserved name. Throws `NamingError` when the
 * synonym table lacks a part or two names would share a new name.
 */
export function newNames(vocab: Vocabulary, style: RenameStyle, seed: number): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Map<string, string>();
  const free = (n: string) => !taken.has(n) && !vocab.names.has(n) && !vocab.reserved.has(n);
  for (const name of vocab.names.keys()) {
    let next: string | undefined;
    if (style === 'synonym') {
      next = synonymOf(name, seed);
      if (next === undefined) throw new NamingError(`no synonym for ${missingSynonyms(name).map((w) => `'${w}'`).join(', ')} of '${name}' (src/core/rename/synonyms.ts)`);
      if (!free(next)) throw new NamingError(`'${name}' would be renamed '${next}', which is ${taken.has(next) ? `the new name of '${taken.get(next)}'` : 'an original or reserved name'}`);
    } else if (style === 'opaque') {
      const draw = rng(`rename/opaque/${seed}/${name}`);
      do next = opaqueOf(name, draw);
      while (!free(next));
    } else {
      throw new NamingError(`unknown renaming style ${JSON.stringify(style)}`);
    }
    out.set(name, next);
    taken.set(next, name);
  }
  return out;
}
