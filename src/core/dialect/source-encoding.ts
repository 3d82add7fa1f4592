/**
 * How Python 2.7 reads the text of a source file (PEP 263), the way hv6's
 * specs are read: a UTF-8 byte-order mark, or a coding comment on line 1
 * (or on line 2 below a blank or comment-only line 1), declares the
 * encoding; without either, the text must be ASCII. Python refuses a coding
 * it does not know, and a byte-order mark beside a coding other than
 * UTF-8, as "encoding problem" SyntaxErrors; both are SPEC001 here.
 *
 * The dialect receives text, not bytes: the bytes are the text's UTF-8.
 * A byte-string literal holds those bytes whatever the coding (Python
 * decodes the file and encodes the literal back). A unicode literal holds
 * the text under a UTF-8 coding, and one character per byte under
 * Latin-1. Non-ASCII text under any other coding Python knows is refused
 * (SPEC001; docs/spec-errors.md): the dialect has no tables for cp1252,
 * Shift JIS and the rest.
 */
import type { Span } from '../span.ts';
import { lexicalError } from './errors.ts';
import { CODEC_ALIASES, CODEC_MODULES } from './source-codecs.ts';

/** How the non-ASCII text of a unicode literal decodes; 'ascii': there is none. */
export type SourceCoding = 'utf-8' | 'latin-1' | 'ascii';

export interface SourceEncoding {
  /** The text starts with a byte-order mark (skipped; it takes no column). */
  readonly bom: boolean;
  readonly coding: SourceCoding;
}

/** A comment-only line with `coding:` or `coding=` and a name (CPython 2.7's get_coding_spec). */
const CODING_LINE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;
const BLANK_OR_COMMENT = /^[ \t\f]*(#.*)?\r?$/;

/**
 * CPython 2.7's get_normal_name: the first 12 characters, lower case, '_'
 * as '-', name UTF-8 or Latin-1 under their common spellings; any other
 * name is kept as written.
 */
function normalName(name: string): string {
  const head = name.slice(0, 12).toLowerCase().replace(/_/g, '-');
  if (head === 'utf-8' || head.startsWith('utf-8-')) return 'utf-8';
  for (const l of ['latin-1', 'iso-8859-1', 'iso-latin-1']) if (head === l || head.startsWith(`${l}-`)) return 'iso-8859-1';
  return name;
}

/** The codec module a coding names (codecs.lookup: lower case, runs of other characters than letters, digits and '.' as '_', then the aliases). */
function codecModule(name: string): string | undefined {
  const norm = name.toLowerCase().split(/[^a-z0-9.]+/).filter((p) => p !== '').join('_');
  const aliased = CODEC_ALIASES.get(norm) ?? CODEC_ALIASES.get(norm.replace(/\./g, '_'));
  for (const m of [aliased, norm]) if (m !== undefined && CODEC_MODULES.has(m)) return m;
  return undefined;
}

/**
 * The encoding `src` declares, or a SPEC001 error where Python 2 refuses
 * the file: an unknown coding, a byte-order mark with another coding than
 * UTF-8, non-ASCII text without a declaration (or under a coding the
 * dialect cannot decode). `spanAt(offset)` gives the span of one character.
 */
export function sourceEncoding(src: string, spanAt: (offset: number) => Span): SourceEncoding {
  const bom = src.startsWith('\ufeff');
  const start = bom ? 1 : 0;
  const lines = src.slice(start).split('\n', 2);
  const firstLen = (lines[0] ?? '').length + 1;
  let found: { name: string; offset: number } | undefined;
  for (const [i, line] of lines.entries()) {
    const m = CODING_LINE.exec(line);
    if (m) {
      found = { name: m[1], offset: start + (i === 0 ? 0 : firstLen) + m.index + m[0].length - m[1].length };
      break;
    }
    if (!BLANK_OR_COMMENT.test(line)) break;
  }
  const nonAscii = src.slice(start).search(/[^\x00-\x7f]/);
  if (!found) {
    if (bom) return { bom, coding: 'utf-8' };
    if (nonAscii >= 0) {
      const ch = src.codePointAt(start + nonAscii)!;
      throw lexicalError(
        spanAt(start + nonAscii),
        `non-ASCII character U+${ch.toString(16).toUpperCase().padStart(4, '0')} but no encoding declared (Python 2 reads source as ASCII unless a coding line on line 1 or 2 names the encoding, PEP 263)`,
      );
    }
    return { bom, coding: 'ascii' };
  }
  const at = spanAt(found.offset);
  const span: Span = { ...at, endColumn: at.column + found.name.length, endOffset: at.offset + found.name.length };
  const normal = normalName(found.name);
  if (bom && normal !== 'utf-8') throw lexicalError(span, `encoding problem: ${normal} with BOM (a byte-order mark says UTF-8)`);
  if (normal === 'utf-8') return { bom, coding: 'utf-8' };
  if (normal === 'iso-8859-1') return { bom, coding: 'latin-1' };
  const module = codecModule(found.name);
  if (module === undefined) throw lexicalError(span, `encoding problem: ${found.name} (Python 2 knows no such coding)`);
  if (module === 'utf_8' || module === 'utf_8_sig') return { bom, coding: 'utf-8' };
  if (module === 'latin_1') return { bom, coding: 'latin-1' };
  if (nonAscii >= 0) {
    const ch = src.codePointAt(start + nonAscii)!;
    const hex = ch.toString(16).toUpperCase().padStart(4, '0');
    throw lexicalError(
      spanAt(start + nonAscii),
      module === 'ascii'
        ? `the coding ${found.name} cannot decode U+${hex} (Python 2 refuses the file)`
        : `non-ASCII character U+${hex} under the coding ${found.name}: specs decode non-ASCII text only as UTF-8 or Latin-1`,
    );
  }
  return { bom, coding: 'ascii' };
}
