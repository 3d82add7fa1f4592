/**
 * Python 2's string formatting on dialect values: `fmt % args` (printf
 * style) and `fmt.format(...)` / `format(value, spec)` (the format
 * mini-language), for the values a spec has: ints, longs, bools, strings,
 * unicode, None, lists, tuples and z3 terms (formatted by their str()).
 * Floats do not exist in the dialect: `%f` and `{:f}` format an int as
 * Python formats it after converting it to a float; `%e`, `%g` and their
 * mini-language kin are refused (SPEC003). A format of the wrong shape
 * raises as Python does (SPEC020 for its TypeError, SPEC023 for its
 * ValueError).
 */
import type { Span } from '../span.ts';
import { lookupError, typeError, unsupportedFormat, valueError } from './errors.ts';
import { MAX_SEQ } from './limits.ts';
import { PyUnicode, type PyValue } from './objects.ts';
import { asciiDecode, intOf, isPyInt, isTerm, pyRepr, pyStr, typeName } from './values.ts';

/** How `{0.attr}` and `{0[key]}` read a value: the interpreter's own attribute and item access. */
export interface FieldAccess {
  attr(obj: PyValue, name: string): PyValue;
  item(obj: PyValue, key: PyValue): PyValue;
}

const tooLong = (span: Span) => valueError(span, `this would build a string of more than ${MAX_SEQ} characters`);

/** Pads `body` (already signed) to `width` as the flags say: left, zero after the sign/prefix, or right. */
function pad(body: string, width: number, left: boolean, zero: boolean, prefixLen: number, span: Span): string {
  if (width > MAX_SEQ) throw tooLong(span);
  if (body.length >= width) return body;
  const fill = width - body.length;
  if (left) return body + ' '.repeat(fill);
  if (zero) return body.slice(0, prefixLen) + '0'.repeat(fill) + body.slice(prefixLen);
  return ' '.repeat(fill) + body;
}

/** An int in `radix` with a sign, as `%d`, `%x`, `%o` write it ('#' adds 0x / 0). */
function intText(n: bigint, conv: string, flags: string, precision: number | undefined): { text: string; prefixLen: number } {
  const neg = n < 0n;
  const mag = neg ? -n : n;
  const radix = conv === 'x' || conv === 'X' ? 16 : conv === 'o' ? 8 : 10;
  let digits = mag.toString(radix);
  if (conv === 'X') digits = digits.toUpperCase();
  if (precision !== undefined && digits.length < precision) digits = '0'.repeat(precision - digits.length) + digits;
  let prefix = '';
  if (flags.includes('#')) {
    if (conv === 'x') prefix = '0x';
    else if (conv === 'X') prefix = '0X';
    else if (conv === 'o' && !digits.startsWith('0')) prefix = '0';
  }
  const sign = neg ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
  return { text: sign + prefix + digits, prefixLen: sign.length + prefix.length };
}

/** An int written as Python writes the float it converts to with `%.Nf` (exact: the int has no fraction). */
function fixedText(n: bigint, precision: number): string {
  const sign = n < 0n ? '-' : '';
  const mag = n < 0n ? -n : n;
  // A float holds 53 bits: past 2^53 Python prints the nearest double, which this reproduces.
  const shown = mag > 1n << 53n ? BigInt(Number(mag)) : mag;
  return `${sign}${shown}${precision > 0 ? `.${'0'.repeat(precision)}` : ''}`;
}

function numberArg(v: PyValue, conv: string, span: Span): bigint {
  if (isPyInt(v)) return intOf(v);
  throw typeError(span, `%${conv} format: a number is required, not ${typeName(v)}`);
}

/**
 * `fmt % args`. A tuple gives the values in order; any other value is the
 * one value. The result is unicode when `fmt` is, or when a `%s` meets a
 * unicode value (the text so far is then decoded as ASCII, as Python does).
 */
export function percentFormat(fmt: string | PyUnicode, args: PyValue, span: Span): string | PyUnicode {
  const values = typeof args === 'object' && args !== null && !isTerm(args) && args.kind === 'tuple' ? args.items : [args];
  const text = typeof fmt === 'string' ? fmt : fmt.text;
  let unicode = fmt instanceof PyUnicode;
  let next = 0;
  const take = (): PyValue => {
    if (next >= values.length) throw typeError(span, 'not enough arguments for format string');
    return values[next++];
  };
  let out = '';
  let i = 0;
  while (i < text.length) {
    const pct = text.indexOf('%', i);
    if (pct < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, pct);
    i = pct + 1;
    if (text[i] === '(') throw typeError(span, 'format requires a mapping');
    let flags = '';
    while (i < text.length && '-+ #0'.includes(text[i])) flags += text[i++];
    const number = (): number | undefined => {
      if (text[i] === '*') {
        i++;
        const w = take();
        if (!isPyInt(w)) throw typeError(span, '* wants int');
        return Number(intOf(w));
      }
      const m = /^\d+/.exec(text.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      return Number(m[0]);
    };
    let width = number() ?? 0;
    if (width < 0) {
      flags += '-';
      width = -width;
    }
    let precision: number | undefined;
    if (text[i] === '.') {
      i++;
      precision = number() ?? 0;
    }
    while (i < text.length && 'hlL'.includes(text[i])) i++;
    const conv = text[i++];
    if (conv === undefined) throw valueError(span, 'incomplete format');
    // A precision pads a number with zeros: bounded like a width (a string's only cuts it).
    if (precision !== undefined && precision > MAX_SEQ && !'src%'.includes(conv)) throw tooLong(span);
    const left = flags.includes('-');
    const zero = flags.includes('0') && !left;
    let piece: string;
    let prefixLen = 0;
    switch (conv) {
      case '%':
        piece = '%';
        break;
      case 's':
      case 'r': {
        const v = take();
        let s: string;
        if (conv === 's' && v instanceof PyUnicode) {
          if (!unicode) {
            out = asciiDecode(out, span).text;
            unicode = true;
          }
          s = v.text;
        } else {
          s = conv === 's' ? pyStr(v, span) : pyRepr(v, span);
          if (unicode) s = asciiDecode(s, span).text;
        }
        piece = precision !== undefined ? s.slice(0, precision) : s;
        break;
      }
      case 'c': {
        const v = take();
        if (isPyInt(v)) {
          const n = intOf(v);
          if (n < 0n || n > (unicode ? 0x10ffffn : 255n)) throw typeError(span, unicode ? '%c arg not in range(0x110000)' : '%c arg not in range(256)');
          piece = String.fromCodePoint(Number(n));
        } else if ((typeof v === 'string' && v.length === 1) || (v instanceof PyUnicode && Array.from(v.text).length === 1)) {
          piece = typeof v === 'string' ? v : v.text;
        } else {
          throw typeError(span, '%c requires int or char');
        }
        break;
      }
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        const r = intText(numberArg(take(), conv, span), conv, flags, precision);
        piece = r.text;
        prefixLen = r.prefixLen;
        break;
      }
      case 'f':
      case 'F': {
        const n = numberArg(take(), conv, span);
        const r = fixedText(n, precision ?? 6);
        const sign = n >= 0n && flags.includes('+') ? '+' : n >= 0n && flags.includes(' ') ? ' ' : '';
        piece = sign + r;
        prefixLen = sign.length + (n < 0n ? 1 : 0);
        break;
      }
      case 'e':
      case 'E':
      case 'g':
      case 'G':
        throw unsupportedFormat(span, `%${conv}`);
      default:
        throw valueError(span, `unsupported format character '${conv}' (0x${conv.charCodeAt(0).toString(16)}) at index ${i - 1}`);
    }
    out += pad(piece, width, left, zero && conv !== 's' && conv !== 'r' && conv !== 'c' && conv !== '%', prefixLen, span);
    if (out.length > MAX_SEQ) throw tooLong(span);
  }
  if (next < values.length) throw typeError(span, 'not all arguments converted during string formatting');
  return unicode ? new PyUnicode(out) : out;
}

interface Spec {
  fill: string;
  align: string;
  sign: string;
  alt: boolean;
  zero: boolean;
  width: number;
  comma: boolean;
  precision: number | undefined;
  type: string;
}

const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?(,)?(?:\.(\d+))?([a-zA-Z%])?$/s;

/** `format(value, spec)`: the format mini-language for one value. */
export function formatValue(v: PyValue, specText: string, span: Span): string {
  const m = SPEC.exec(specText);
  if (!m) throw valueError(span, 'Invalid conversion specification');
  const spec: Spec = {
    fill: m[1] ?? (m[5] && !m[2] ? '0' : ' '),
    align: m[2] ?? (m[5] ? '=' : ''),
    sign: m[3] ?? '-',
    alt: m[4] !== undefined,
    zero: m[5] !== undefined,
    width: m[6] ? Number(m[6]) : 0,
    comma: m[7] !== undefined,
    precision: m[8] !== undefined ? Number(m[8]) : undefined,
    type: m[9] ?? '',
  };
  if (spec.width > MAX_SEQ) throw tooLong(span);
  if (spec.precision !== undefined && spec.precision > MAX_SEQ && spec.type !== 's' && spec.type !== '') throw tooLong(span);
  let body: string;
  let prefix = '';
  if (isPyInt(v) && !(typeof v === 'boolean' && spec.type === '')) {
    const n = intOf(v);
    const t = spec.type || 'd';
    if ('eEgG%'.includes(t)) throw unsupportedFormat(span, `the format type '${t}'`);
    if (t === 's') throw valueError(span, `Unknown format code 's' for object of type '${typeName(v)}'`);
    if (t === 'c') {
      body = String.fromCodePoint(Number(n));
    } else if (t === 'f' || t === 'F') {
      body = fixedText(n < 0n ? -n : n, spec.precision ?? 6);
    } else {
      const radix = t === 'x' || t === 'X' ? 16 : t === 'o' ? 8 : t === 'b' ? 2 : 10;
      if (!'dxXobn'.includes(t)) throw valueError(span, `Unknown format code '${t}' for object of type '${typeName(v)}'`);
      body = (n < 0n ? -n : n).toString(radix);
      if (t === 'X') body = body.toUpperCase();
      if (spec.comma && radix === 10) body = body.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      if (spec.alt && radix !== 10) prefix = t === 'X' ? '0X' : t === 'x' ? '0x' : t === 'o' ? '0o' : '0b';
    }
    const sign = n < 0n ? '-' : spec.sign === '+' ? '+' : spec.sign === ' ' ? ' ' : '';
    return align(sign + prefix, body, spec, '>', span);
  }
  if (spec.type !== '' && spec.type !== 's') throw valueError(span, `Unknown format code '${spec.type}' for object of type '${typeName(v)}'`);
  body = typeof v === 'string' ? v : v instanceof PyUnicode ? v.text : pyStr(v, span);
  if (spec.precision !== undefined) body = body.slice(0, spec.precision);
  if (spec.align === '=') throw valueError(span, "'=' alignment not allowed in string format specifier");
  return align('', body, spec, '<', span);
}

function align(signPrefix: string, body: string, spec: Spec, dflt: string, span: Span): string {
  const total = signPrefix.length + body.length;
  const fill = Math.max(0, spec.width - total);
  if (fill > MAX_SEQ) throw tooLong(span);
  switch (spec.align || dflt) {
    case '<':
      return signPrefix + body + spec.fill.repeat(fill);
    case '^':
      return spec.fill.repeat(fill >> 1) + signPrefix + body + spec.fill.repeat(fill - (fill >> 1));
    case '=':
      return signPrefix + spec.fill.repeat(fill) + body;
    default:
      return spec.fill.repeat(fill) + signPrefix + body;
  }
}

/**
 * `fmt.format(*args, **kwargs)`: replacement fields `{}`, `{0}`, `{name}`,
 * with `.attr` and `[index]` after the name, a conversion `!s` or `!r`, and
 * a format spec after ':' (which may hold fields of its own); `{{` and `}}`
 * are braces.
 */
export function strFormat(fmt: string | PyUnicode, args: readonly PyValue[], kwargs: ReadonlyMap<string, PyValue>, access: FieldAccess, span: Span): string | PyUnicode {
  const unicode = fmt instanceof PyUnicode;
  let auto = 0;
  let manual = false;
  const field = (text: string, depth: number): string => {
    // name, then conversion, then spec
    let i = 0;
    while (i < text.length && text[i] !== '.' && text[i] !== '[' && text[i] !== '!' && text[i] !== ':') i++;
    const name = text.slice(0, i);
    let v: PyValue;
    if (name === '') {
      if (manual) throw valueError(span, 'cannot switch from manual field specification to automatic field numbering');
      if (auto >= args.length) throw lookupError(span, 'tuple index out of range');
      v = args[auto++];
    } else if (/^\d+$/.test(name)) {
      if (auto > 0) throw valueError(span, 'cannot switch from automatic field numbering to manual field specification');
      manual = true;
      const k = Number(name);
      if (k >= args.length) throw lookupError(span, 'tuple index out of range');
      v = args[k];
    } else {
      if (!kwargs.has(name)) throw lookupError(span, `KeyError: '${name}'`);
      v = kwargs.get(name)!;
    }
    while (i < text.length && (text[i] === '.' || text[i] === '[')) {
      if (text[i] === '.') {
        const m = /^\.(\w+)/.exec(text.slice(i));
        if (!m) throw valueError(span, 'Empty attribute in format string');
        v = access.attr(v, m[1]);
        i += m[0].length;
      } else {
        const close = text.indexOf(']', i);
        if (close < 0) throw valueError(span, "Missing ']' in format string");
        const key = text.slice(i + 1, close);
        v = access.item(v, /^\d+$/.test(key) ? BigInt(key) : key);
        i = close + 1;
      }
    }
    let conversion = '';
    if (text[i] === '!') {
      conversion = text[i + 1] ?? '';
      if (conversion !== 's' && conversion !== 'r') throw valueError(span, `Unknown conversion specifier ${conversion}`);
      i += 2;
    }
    let specText = '';
    if (text[i] === ':') specText = expand(text.slice(i + 1), depth + 1);
    else if (i < text.length) throw valueError(span, "expected ':' after format specifier");
    if (conversion === 's') v = v instanceof PyUnicode ? v : pyStr(v, span);
    else if (conversion === 'r') v = pyRepr(v, span);
    return formatValue(v, specText, span);
  };
  const expand = (text: string, depth: number): string => {
    if (depth > 2) throw valueError(span, 'Max string recursion exceeded');
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '{') {
        if (text[i + 1] === '{') {
          out += '{';
          i += 2;
          continue;
        }
        let level = 1;
        let j = i + 1;
        for (; j < text.length && level > 0; j++) {
          if (text[j] === '{') level++;
          else if (text[j] === '}') level--;
        }
        if (level > 0) throw valueError(span, "expected '}' before end of string");
        out += field(text.slice(i + 1, j - 1), depth);
        i = j;
      } else if (c === '}') {
        if (text[i + 1] !== '}') throw valueError(span, "Single '}' encountered in format string");
        out += '}';
        i += 2;
      } else {
        out += c;
        i++;
      }
      if (out.length > MAX_SEQ) throw tooLong(span);
    }
    return out;
  };
  const text = expand(unicode ? fmt.text : fmt, 0);
  return unicode ? new PyUnicode(text) : text;
}
