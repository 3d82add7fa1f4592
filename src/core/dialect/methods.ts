/**
 * The methods of Python 2's str, unicode, list and tuple that a spec may
 * call (`'a,b'.split(',')`, `', '.join(names)`, `'{0}'.format(x)`,
 * `xs.index(x)`, `xs.sort()`), as Python 2.7 defines them. A str is bytes:
 * its case and class tests (`upper`, `isalpha`) know ASCII only, as
 * Python 2's do in the C locale; a unicode knows Unicode. A str method
 * given a unicode argument answers in unicode (the str is decoded as
 * ASCII), as Python 2 does.
 */
import type { Span } from '../span.ts';
import { arity, argSpan, pyInt } from './coerce.ts';
import { closest, indexOutOfRange, lookupError, typeError, unknownAttribute, valueError } from './errors.ts';
import { type FieldAccess, strFormat } from './format.ts';
import { collect, itemsOf } from './iteration.ts';
import { utf8Bytes } from './lexer.ts';
import { MAX_SEQ } from './limits.ts';
import { bumpEpoch } from './maps.ts';
import { Builtin, type CallSite, PyList, PyTuple, PyUnicode, type PyValue } from './objects.ts';
import { compare } from './pyops.ts';
import { asciiDecode, asciiEncode, intOf, isPyInt, isText, truthy, typeName } from './values.ts';
import { sortArguments, sortItems } from './sort.ts';

/** Python's `x == y` as list.index, count and remove test it: the same object, or equal. */
function same(a: PyValue, b: PyValue, span: Span): boolean {
  return a === b || truthy(compare('==', a, b, span), span, 'the comparison of list items');
}

/** A slice bound of find/index/count/startswith, clamped as Python clamps it. */
function bound(v: PyValue | undefined, len: number, dflt: number, span: Span): number {
  if (v === undefined || v === null) return dflt;
  if (!isPyInt(v)) throw typeError(span, 'slice indices must be integers or None or have an __index__ method');
  let n = Number(intOf(v));
  if (n < 0) n += len;
  return Math.max(0, Math.min(len, n));
}

// ------------------------------------------------------------------ str and unicode

/** Text of either kind as an array of characters (bytes of a str, code points of a unicode). */
interface Text {
  readonly unicode: boolean;
  readonly chars: readonly string[];
}

const ASCII_SPACE = ' \t\n\r\x0b\x0c';

function isSpace(c: string, unicode: boolean): boolean {
  return ASCII_SPACE.includes(c) || (unicode && /^\s$/u.test(c) && c !== '\ufeff');
}

const isAlpha = (c: string, u: boolean) => (u ? /^\p{L}$/u.test(c) : /^[A-Za-z]$/.test(c));
const isDigit = (c: string, u: boolean) => (u ? /^\p{Nd}$/u.test(c) : /^[0-9]$/.test(c));
const isLower = (c: string, u: boolean) => (u ? /^\p{Ll}$/u.test(c) : /^[a-z]$/.test(c));
const isUpper = (c: string, u: boolean) => (u ? /^\p{Lu}$/u.test(c) || /^\p{Lt}$/u.test(c) : /^[A-Z]$/.test(c));
const lower = (c: string, u: boolean) => (u || c < '\x80' ? c.toLowerCase() : c);
const upper = (c: string, u: boolean) => (u || c < '\x80' ? c.toUpperCase() : c);

function textOf(v: string | PyUnicode): Text {
  return typeof v === 'string' ? { unicode: false, chars: [...v] } : { unicode: true, chars: Array.from(v.text) };
}


/**
 * The str or unicode methods of `self`, bound. Arguments that are text
 * join the receiver's kind; a unicode among them makes the answer unicode.
 */
export function textMethod(self: string | PyUnicode, attr: string, span: Span, access: FieldAccess): Builtin {
  const kind = typeof self === 'string' ? 'str' : 'unicode';
  const method = (impl: (args: PyValue[], site: CallSite, kw: ReadonlyMap<string, PyValue> | undefined) => PyValue, keywords = false) =>
    new Builtin(`${kind}.${attr}`, (args, kw, site) => impl(args, site, kw), keywords);
  /** The receiver and text arguments as one kind: unicode when any is. */
  const unify = (site: CallSite, ...others: (PyValue | undefined)[]): { unicode: boolean; texts: string[] } => {
    const all = [self, ...others];
    const unicode = all.some((x) => x instanceof PyUnicode);
    return {
      unicode,
      texts: all.map((x, i) => {
        if (x === undefined || x === null) return '';
        if (!isText(x)) throw typeError(i === 0 ? site.span : argSpan(site, i - 1), `expected a string or other character buffer object, got ${typeName(x)}`);
        if (!unicode || x instanceof PyUnicode) return typeof x === 'string' ? x : x.text;
        return asciiDecode(x, site.span).text;
      }),
    };
  };
  const chars = (s: string, unicode: boolean) => (unicode ? Array.from(s) : [...s]);
  const out = (unicode: boolean, s: string): PyValue => (unicode ? new PyUnicode(s) : s);
  const find = (site: CallSite, args: PyValue[], fromRight: boolean): number => {
    arity(site, attr, args, 1, 3);
    const { unicode, texts } = unify(site, args[0]);
    const hay = chars(texts[0], unicode);
    const needle = chars(texts[1], unicode);
    const lo = bound(args[1], hay.length, 0, site.span);
    const hi = bound(args[2], hay.length, hay.length, site.span);
    const at = (i: number) => needle.every((c, k) => hay[i + k] === c);
    if (fromRight) {
      for (let i = hi - needle.length; i >= lo; i--) if (at(i)) return i;
    } else {
      for (let i = lo; i + needle.length <= hi; i++) if (at(i)) return i;
    }
    return -1;
  };
  const strip = (site: CallSite, args: PyValue[], left: boolean, right: boolean): PyValue => {
    arity(site, attr, args, 0, 1);
    const { unicode, texts } = unify(site, args[0] ?? null);
    const cs = chars(texts[0], unicode);
    const set = args[0] === undefined || args[0] === null ? undefined : new Set(chars(texts[1], unicode));
    const drop = (c: string) => (set ? set.has(c) : isSpace(c, unicode));
    let a = 0;
    let b = cs.length;
    if (left) while (a < b && drop(cs[a])) a++;
    if (right) while (b > a && drop(cs[b - 1])) b--;
    return out(unicode, cs.slice(a, b).join(''));
  };
  const split = (site: CallSite, args: PyValue[], fromRight: boolean): PyValue => {
    arity(site, attr, args, 0, 2);
    const sep = args[0] ?? null;
    const max = args[1] === undefined ? -1 : Number(pyInt(args[1], argSpan(site, 1), attr));
    const { unicode, texts } = unify(site, sep);
    const s = texts[0];
    const parts: string[] = [];
    if (sep === null) {
      let cs = chars(s, unicode);
      if (fromRight) cs = cs.reverse();
      let i = 0;
      let splits = 0;
      while (i < cs.length) {
        while (i < cs.length && isSpace(cs[i], unicode)) i++;
        if (i >= cs.length) break;
        if (max >= 0 && splits >= max) {
          // The rest keeps its whitespace at the far end, as Python leaves it.
          const rest = cs.slice(i);
          parts.push((fromRight ? rest.reverse() : rest).join(''));
          break;
        }
        const j0 = i;
        while (i < cs.length && !isSpace(cs[i], unicode)) i++;
        const piece = cs.slice(j0, i);
        parts.push((fromRight ? piece.reverse() : piece).join(''));
        splits++;
      }
      if (fromRight) parts.reverse();
    } else {
      const d = texts[1];
      if (d === '') throw valueError(argSpan(site, 0), 'empty separator');
      let pieces = s.split(d);
      if (max >= 0 && pieces.length - 1 > max) {
        pieces = fromRight ? [pieces.slice(0, pieces.length - max).join(d), ...pieces.slice(pieces.length - max)] : [...pieces.slice(0, max), pieces.slice(max).join(d)];
      }
      parts.push(...pieces);
    }
    return new PyList(parts.map((p) => out(unicode, p)));
  };
  const justify = (site: CallSite, args: PyValue[], how: 'l' | 'r' | 'c'): PyValue => {
    arity(site, attr, args, 1, 2);
    const width = Number(pyInt(args[0], argSpan(site, 0), attr));
    if (width > MAX_SEQ) throw valueError(site.span, 'string too long');
    const { unicode, texts } = unify(site, undefined, args[1]);
    const cs = chars(texts[0], unicode);
    const fill = args[1] === undefined ? ' ' : texts[2];
    if (chars(fill, unicode).length !== 1) throw typeError(argSpan(site, 1), `${attr}() argument 2 must be char, not ${typeName(args[1])}`);
    const n = Math.max(0, width - cs.length);
    const s = cs.join('');
    if (how === 'l') return out(unicode, s + fill.repeat(n));
    if (how === 'r') return out(unicode, fill.repeat(n) + s);
    // Python's center puts the odd fill character on the right, unless the width is odd (then left).
    const left = Math.floor(n / 2) + (n & width & 1);
    return out(unicode, fill.repeat(left) + s + fill.repeat(n - left));
  };
  const test = (site: CallSite, args: PyValue[], every: (c: string, u: boolean) => boolean): boolean => {
    arity(site, attr, args, 0);
    const { unicode, chars: cs } = textOf(self);
    return cs.length > 0 && cs.every((c) => every(c, unicode));
  };
  const map = (site: CallSite, args: PyValue[], f: (cs: readonly string[], u: boolean) => string): PyValue => {
    arity(site, attr, args, 0);
    const t = textOf(self);
    return out(t.unicode, f(t.chars, t.unicode));
  };
  const cased = (cs: readonly string[], u: boolean, want: (c: string, u: boolean) => boolean) => {
    let any = false;
    for (const c of cs) {
      if (isLower(c, u) || isUpper(c, u)) {
        if (!want(c, u)) return false;
        any = true;
      }
    }
    return any;
  };
  switch (attr) {
    case 'find':
    case 'rfind':
      return method((args, site) => BigInt(find(site, args, attr === 'rfind')));
    case 'index':
    case 'rindex':
      return method((args, site) => {
        const i = find(site, args, attr === 'rindex');
        if (i < 0) throw valueError(site.span, 'substring not found');
        return BigInt(i);
      });
    case 'count':
      return method((args, site) => {
        arity(site, attr, args, 1, 3);
        const { unicode, texts } = unify(site, args[0]);
        const hay = chars(texts[0], unicode);
        const lo = bound(args[1], hay.length, 0, site.span);
        const hi = bound(args[2], hay.length, hay.length, site.span);
        const part = hay.slice(lo, hi).join('');
        if (texts[1] === '') return BigInt(hi - lo + 1);
        return BigInt(part.split(texts[1]).length - 1);
      });
    case 'startswith':
    case 'endswith':
      return method((args, site) => {
        arity(site, attr, args, 1, 3);
        const prefixes = args[0] instanceof PyTuple ? args[0].items : [args[0]];
        return prefixes.some((p) => {
          const { unicode, texts } = unify(site, p);
          const hay = chars(texts[0], unicode);
          const lo = bound(args[1], hay.length, 0, site.span);
          const hi = bound(args[2], hay.length, hay.length, site.span);
          const part = hay.slice(lo, hi).join('');
          return attr === 'startswith' ? part.startsWith(texts[1]) : part.endsWith(texts[1]);
        });
      });
    case 'strip':
      return method((args, site) => strip(site, args, true, true));
    case 'lstrip':
      return method((args, site) => strip(site, args, true, false));
    case 'rstrip':
      return method((args, site) => strip(site, args, false, true));
    case 'split':
      return method((args, site) => split(site, args, false));
    case 'rsplit':
      return method((args, site) => split(site, args, true));
    case 'splitlines':
      return method((args, site) => {
        arity(site, attr, args, 0, 1);
        const keep = args.length > 0 && truthy(args[0], site.span, 'splitlines()');
        const t = textOf(self);
        const lines: string[] = [];
        let cur = '';
        const breaks = t.unicode ? '\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029' : '\n\r';
        for (let i = 0; i < t.chars.length; i++) {
          const c = t.chars[i];
          if (!breaks.includes(c)) {
            cur += c;
            continue;
          }
          let brk = c;
          if (c === '\r' && t.chars[i + 1] === '\n') brk += t.chars[++i];
          lines.push(keep ? cur + brk : cur);
          cur = '';
        }
        if (cur !== '') lines.push(cur);
        return new PyList(lines.map((l) => out(t.unicode, l)));
      });
    case 'partition':
    case 'rpartition':
      return method((args, site) => {
        arity(site, attr, args, 1);
        const { unicode, texts } = unify(site, args[0]);
        const [s, d] = texts;
        if (d === '') throw valueError(argSpan(site, 0), 'empty separator');
        const at = attr === 'partition' ? s.indexOf(d) : s.lastIndexOf(d);
        const parts = at < 0 ? (attr === 'partition' ? [s, '', ''] : ['', '', s]) : [s.slice(0, at), d, s.slice(at + d.length)];
        return new PyTuple(parts.map((p) => out(unicode, p)));
      });
    case 'replace':
      return method((args, site) => {
        arity(site, attr, args, 2, 3);
        const { unicode, texts } = unify(site, args[0], args[1]);
        const [s, a, b] = texts;
        let max = args.length === 3 ? Number(pyInt(args[2], argSpan(site, 2), attr)) : -1;
        if (a === '') {
          // Python inserts the new text between every character (and at both ends).
          const cs = chars(s, unicode);
          let r = '';
          for (let i = 0; i <= cs.length; i++) {
            if (max !== 0) {
              r += b;
              max--;
            }
            if (i < cs.length) r += cs[i];
            if (r.length > MAX_SEQ) throw valueError(site.span, 'string too long');
          }
          return out(unicode, r);
        }
        const pieces = s.split(a);
        if (max < 0 || max >= pieces.length - 1) {
          if (s.length + (pieces.length - 1) * Math.max(0, b.length - a.length) > MAX_SEQ) throw valueError(site.span, 'string too long');
          return out(unicode, pieces.join(b));
        }
        return out(unicode, pieces.slice(0, max + 1).join(b) + a + pieces.slice(max + 1).join(a));
      });
    case 'join':
      return method((args, site) => {
        arity(site, attr, args, 1);
        const items = collect(args[0], site.span);
        items.forEach((x, i) => {
          if (!isText(x)) throw typeError(argSpan(site, 0), `sequence item ${i}: expected string, ${typeName(x)} found`);
        });
        const { unicode, texts } = unify(site, ...items);
        const [sep, ...parts] = texts;
        if (parts.reduce((n, p) => n + p.length + sep.length, 0) > MAX_SEQ) throw valueError(site.span, 'string too long');
        return out(unicode, parts.join(sep));
      });
    case 'format':
      return method((args, site, kw) => strFormat(self, args, kw ?? new Map(), access, site.span), true);
    case 'upper':
      return method((args, site) => map(site, args, (cs, u) => cs.map((c) => upper(c, u)).join('')));
    case 'lower':
      return method((args, site) => map(site, args, (cs, u) => cs.map((c) => lower(c, u)).join('')));
    case 'swapcase':
      return method((args, site) => map(site, args, (cs, u) => cs.map((c) => (isUpper(c, u) ? lower(c, u) : upper(c, u))).join('')));
    case 'capitalize':
      return method((args, site) => map(site, args, (cs, u) => (cs.length ? upper(cs[0], u) + cs.slice(1).map((c) => lower(c, u)).join('') : '')));
    case 'title':
      return method((args, site) =>
        map(site, args, (cs, u) => {
          let prevCased = false;
          return cs
            .map((c) => {
              const r = prevCased ? lower(c, u) : upper(c, u);
              prevCased = isLower(c, u) || isUpper(c, u);
              return r;
            })
            .join('');
        }),
      );
    case 'isalpha':
      return method((args, site) => test(site, args, isAlpha));
    case 'isdigit':
      return method((args, site) => test(site, args, isDigit));
    case 'isalnum':
      return method((args, site) => test(site, args, (c, u) => isAlpha(c, u) || isDigit(c, u)));
    case 'isspace':
      return method((args, site) => test(site, args, isSpace));
    case 'islower':
      return method((args, site) => {
        arity(site, attr, args, 0);
        const t = textOf(self);
        return cased(t.chars, t.unicode, isLower);
      });
    case 'isupper':
      return method((args, site) => {
        arity(site, attr, args, 0);
        const t = textOf(self);
        return cased(t.chars, t.unicode, isUpper);
      });
    case 'center':
      return method((args, site) => justify(site, args, 'c'));
    case 'ljust':
      return method((args, site) => justify(site, args, 'l'));
    case 'rjust':
      return method((args, site) => justify(site, args, 'r'));
    case 'zfill':
      return method((args, site) => {
        arity(site, attr, args, 1);
        const width = Number(pyInt(args[0], argSpan(site, 0), attr));
        if (width > MAX_SEQ) throw valueError(site.span, 'string too long');
        const t = textOf(self);
        const s = t.chars.join('');
        const n = width - t.chars.length;
        if (n <= 0) return out(t.unicode, s);
        const sign = s[0] === '+' || s[0] === '-' ? s[0] : '';
        return out(t.unicode, sign + '0'.repeat(n) + s.slice(sign.length));
      });
    case 'encode':
    case 'decode':
      return method((args, site) => {
        arity(site, attr, args, 0, 2);
        const name = args[0] === undefined ? 'ascii' : args[0];
        if (!isText(name)) throw typeError(argSpan(site, 0), `${attr}() argument 1 must be string, not ${typeName(name)}`);
        const codec = CODECS.get((typeof name === 'string' ? name : name.text).toLowerCase().replace(/[-_ ]/g, ''));
        if (!codec) throw valueError(argSpan(site, 0), `the codec ${typeof name === 'string' ? name : name.text} is not supported in specs (ascii, utf-8 and latin-1 are)`);
        // Python 2 decodes a str as ASCII before encoding it, and encodes a unicode as ASCII before decoding it.
        if (attr === 'encode') return codec.encode(typeof self === 'string' ? asciiDecode(self, site.span).text : self.text, site.span);
        return new PyUnicode(codec.decode(typeof self === 'string' ? self : asciiEncode(self, site.span), site.span));
      });
  }
  throw unknownAttribute(span, `'${kind}' object`, attr, closest(attr, TEXT_METHODS));
}

const TEXT_METHODS = [
  'find', 'rfind', 'index', 'rindex', 'count', 'startswith', 'endswith', 'strip', 'lstrip', 'rstrip', 'split', 'rsplit',
  'splitlines', 'partition', 'rpartition', 'replace', 'join', 'format', 'upper', 'lower', 'swapcase', 'capitalize', 'title',
  'isalpha', 'isdigit', 'isalnum', 'isspace', 'islower', 'isupper', 'center', 'ljust', 'rjust', 'zfill', 'encode', 'decode',
];

interface Codec {
  encode(text: string, span: Span): string;
  decode(bytes: string, span: Span): string;
}

const ASCII: Codec = {
  encode: (t, span) => asciiEncode(new PyUnicode(t), span),
  decode: (b, span) => asciiDecode(b, span).text,
};

const UTF8: Codec = {
  encode: (t) => Array.from(t, utf8Bytes).join(''),
  decode: (b, span) => {
    const t = decodeUtf8(b);
    if (t === undefined) throw valueError(span, "'utf8' codec can't decode these bytes: invalid UTF-8");
    return t;
  },
};

const LATIN1: Codec = {
  encode: (t, span) => {
    if (/[^\x00-\xff]/.test(t)) throw valueError(span, "'latin-1' codec can't encode a character past U+00FF: ordinal not in range(256)");
    return t;
  },
  decode: (b) => b,
};

/** The codecs str.decode and unicode.encode know (bytes: one character 0-255 each), by normalised name. */
const CODECS: ReadonlyMap<string, Codec> = new Map([
  ['ascii', ASCII], ['usascii', ASCII], ['us', ASCII],
  ['utf8', UTF8], ['utf', UTF8], ['u8', UTF8],
  ['latin1', LATIN1], ['iso88591', LATIN1], ['l1', LATIN1], ['latin', LATIN1],
]);

/** Strict UTF-8 decoding of bytes (no overlong forms, no surrogates), or undefined. */
function decodeUtf8(b: string): string | undefined {
  let out = '';
  for (let i = 0; i < b.length; ) {
    const c = b.charCodeAt(i);
    const n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
    if (n < 0 || i + n > b.length - 1) return undefined;
    let cp = n === 0 ? c : c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b.charCodeAt(i + k);
      if ((d & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff))) return undefined;
    out += String.fromCodePoint(cp);
    i += n + 1;
  }
  return out;
}

// ------------------------------------------------------------------ list and tuple

/** The methods of a list or tuple, bound. */
export function sequenceMethod(self: PyList | PyTuple, attr: string, span: Span): Builtin {
  const kind = self.kind;
  const method = (impl: (args: PyValue[], site: CallSite, kw: ReadonlyMap<string, PyValue> | undefined) => PyValue, keywords = false) =>
    new Builtin(`${kind}.${attr}`, (args, kw, site) => impl(args, site, kw), keywords);
  switch (attr) {
    case 'index':
      return method((args, site) => {
        arity(site, attr, args, 1, 3);
        const lo = bound(args[1], self.items.length, 0, site.span);
        const hi = bound(args[2], self.items.length, self.items.length, site.span);
        for (let i = lo; i < hi; i++) if (same(self.items[i], args[0], site.span)) return BigInt(i);
        throw valueError(site.span, `${kind}.index(x): x not in ${kind}`);
      });
    case 'count':
      return method((args, site) => {
        arity(site, attr, args, 1);
        return BigInt(self.items.filter((x) => same(x, args[0], site.span)).length);
      });
  }
  if (self instanceof PyList) {
    const list = self;
    const grow = (site: CallSite, more: number) => {
      if (list.items.length + more > MAX_SEQ) throw valueError(site.span, 'sequence too long');
    };
    switch (attr) {
      case 'append':
        return method((args, site) => {
          arity(site, attr, args, 1);
          grow(site, 1);
          bumpEpoch();
          list.items.push(args[0]);
          return null;
        });
      case 'extend':
        return method((args, site) => {
          arity(site, attr, args, 1);
          const more = [...itemsOf(args[0], site.span)];
          grow(site, more.length);
          bumpEpoch();
          list.items.push(...more);
          return null;
        });
      case 'insert':
        return method((args, site) => {
          arity(site, attr, args, 2);
          grow(site, 1);
          const n = list.items.length;
          let i = Number(pyInt(args[0], argSpan(site, 0), 'insert'));
          if (i < 0) i = Math.max(0, i + n);
          bumpEpoch();
          list.items.splice(Math.min(i, n), 0, args[1]);
          return null;
        });
      case 'pop':
        return method((args, site) => {
          arity(site, attr, args, 0, 1);
          const n = list.items.length;
          if (n === 0) throw lookupError(site.span, 'pop from empty list');
          let i = args.length ? Number(pyInt(args[0], argSpan(site, 0), 'pop')) : n - 1;
          if (i < 0) i += n;
          if (i < 0 || i >= n) throw indexOutOfRange(site.span, 'pop');
          bumpEpoch();
          return list.items.splice(i, 1)[0];
        });
      case 'remove':
        return method((args, site) => {
          arity(site, attr, args, 1);
          const i = list.items.findIndex((x) => same(x, args[0], site.span));
          if (i < 0) throw valueError(site.span, 'list.remove(x): x not in list');
          bumpEpoch();
          list.items.splice(i, 1);
          return null;
        });
      case 'reverse':
        return method((args, site) => {
          arity(site, attr, args, 0);
          bumpEpoch();
          list.items.reverse();
          return null;
        });
      case 'sort':
        return method((args, site, kw) => {
          arity(site, attr, args, 0, 3);
          const sorted = sortItems([...list.items], sortArguments(args, kw, 'sort', site), 'sort', site);
          bumpEpoch();
          list.items.splice(0, list.items.length, ...sorted);
          return null;
        }, true);
    }
  }
  throw unknownAttribute(span, `'${kind}' object`, attr, closest(attr, kind === 'list' ? ['index', 'count', 'append', 'extend', 'insert', 'pop', 'remove', 'reverse', 'sort'] : ['index', 'count']));
}

