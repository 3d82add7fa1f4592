/**
 * JSON (RFC 8259) read into a tree that keeps where each value and key is
 * in the text, so a study file's mistakes can be reported at their line and
 * column. Plain JSON only: no comments, no trailing commas.
 */
import type { Span } from '../../span.ts';

export type JsonNode = { readonly span: Span } & (
  | { readonly kind: 'object'; readonly entries: readonly JsonEntry[] }
  | { readonly kind: 'array'; readonly items: readonly JsonNode[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' }
);

export interface JsonEntry {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: JsonNode;
}

/** Text that is not JSON, with the place it stops being JSON. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}

/** The span from offset `start` to `end` of `text`. */
function spanOf(text: string, start: number, end: number): Span {
  const at = (offset: number) => {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  };
  const s = at(start);
  const e = at(end);
  return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column, offset: start, endOffset: end };
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses `text` as one JSON value; throws `JsonSyntaxError` at the first character that is not JSON. */
export function parseJsonSource(text: string): JsonNode {
  let i = 0;
  const fail = (message: string, start = i, end = Math.min(text.length, start + 1)): never => {
    throw new JsonSyntaxError(message, spanOf(text, start, Math.max(end, start)));
  };
  const describe = () => (i >= text.length ? 'the end of the file' : `'${text[i]}'`);
  const skip = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (c: string, what: string) => {
    skip();
    if (text[i] !== c) fail(`expected ${what}, found ${describe()}`);
    i++;
  };

  function string(): { value: string; span: Span } {
    const start = i;
    i++; // the opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string', start, i);
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('a \\u escape needs four hex digits', i, i + 2);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        if (e === undefined || !(e in ESCAPES)) fail(`unknown escape '\\${e ?? ''}' in a string`, i, i + 2);
        out += ESCAPES[e];
        i += 2;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail('a control character must be escaped in a string');
      out += c;
      i++;
    }
    i++;
    return { value: out, span: spanOf(text, start, i) };
  }

  function value(): JsonNode {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: JsonEntry[] = [];
      skip();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          skip();
          if (text[i] !== '"') fail(`expected a key in double quotes, found ${describe()}`);
          const key = string();
          expect(':', "':' after the key");
          entries.push({ key: key.value, keySpan: key.span, value: value() });
          skip();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          fail(`expected ',' or '}' in an object, found ${describe()}`);
        }
      }
      return { kind: 'object', entries, span: spanOf(text, start, i) };
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      skip();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          items.push(value());
          skip();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          fail(`expected ',' or ']' in a list, found ${describe()}`);
        }
      }
      return { kind: 'array', items, span: spanOf(text, start, i) };
    }
    if (c === '"') {
      const s = string();
      return { kind: 'string', value: s.value, span: s.span };
    }
    const num = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (num) {
      i += num[0].length;
      return { kind: 'number', value: Number(num[0]), span: spanOf(text, start, i) };
    }
    for (const [word, node] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        const span = spanOf(text, start, i);
        return node === null ? { kind: 'null', span } : { kind: 'boolean', value: node, span };
      }
    }
    return fail(`expected a value, found ${describe()}`);
  }

  const root = value();
  skip();
  if (i < text.length) fail(`unexpected ${describe()} after the value`);
  return root;
}
