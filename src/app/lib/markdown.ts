/**
 * A small Markdown reader for task descriptions: headings, paragraphs,
 * bulleted and numbered lists, fenced code, and inline code, bold, italics
 * and links. It returns a tree, never HTML: the page renders the tree with
 * ordinary Svelte elements, so nothing in the text can become markup (raw
 * HTML in the source is shown as text), and links go only to http(s).
 */

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong'; readonly children: readonly Inline[] }
  | { readonly kind: 'em'; readonly children: readonly Inline[] }
  | { readonly kind: 'link'; readonly href: string; readonly children: readonly Inline[] };

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4; readonly children: readonly Inline[] }
  | { readonly kind: 'paragraph'; readonly children: readonly Inline[] }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly start: number; readonly items: readonly (readonly Inline[])[] }
  | { readonly kind: 'code'; readonly lang: string; readonly text: string };

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d+)[.)]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)\s*([\w+-]*)\s*$/;

/** Parses Markdown source into blocks. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i++; // the closing fence (or the end)
      out.push({ kind: 'code', lang: fence[2], text: body.join('\n') });
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      out.push({ kind: 'heading', level: Math.min(4, h[1].length) as 1 | 2 | 3 | 4, children: parseInline(h[2]) });
      i++;
      continue;
    }
    const bullet = BULLET.test(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = !bullet;
      const items: string[] = [];
      while (i < lines.length && lines[i].trim() !== '') {
        const b = ordered ? NUMBERED.exec(lines[i]) : BULLET.exec(lines[i]);
        if (b) items.push(ordered ? b[2] : b[1]);
        else if (items.length && /^\s+\S/.test(lines[i])) items[items.length - 1] += ' ' + lines[i].trim();
        else break;
        i++;
      }
      out.push({ kind: 'list', ordered, start: numbered ? Number(numbered[1]) : 1, items: items.map(parseInline) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && !FENCE.test(lines[i]) && !HEADING.test(lines[i]) && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i])) {
      para.push(lines[i++].trim());
    }
    out.push({ kind: 'paragraph', children: parseInline(para.join(' ')) });
  }
  return out;
}

/** A link target we are willing to follow: absolute http(s) only. */
function safeHref(href: string): string | undefined {
  return /^https?:\/\/[^\s"'<>]+$/i.test(href) ? href : undefined;
}

/** Parses inline markup: `code`, **strong**, *em* or _em_, [text](https://...). */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const ticks = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + ticks.length, end).trim() || text.slice(i + ticks.length, end) });
        i = end + ticks.length;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] === c) {
      const end = text.indexOf(c + c, i + 2);
      if (end > i + 2) {
        flush();
        out.push({ kind: 'strong', children: parseInline(text.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if (c === '*' || (c === '_' && !/\w/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf(c, i + 1);
      // A closing `_` must not be inside a word (snake_case names stay as they are).
      if (end > i + 1 && text[i + 1] !== ' ' && (c === '*' || !/\w/.test(text[end + 1] ?? ''))) {
        flush();
        out.push({ kind: 'em', children: parseInline(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(text.slice(i));
      const href = m ? safeHref(m[2]) : undefined;
      if (m && href) {
        flush();
        out.push({ kind: 'link', href, children: parseInline(m[1]) });
        i += m[0].length;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
  return out;
}
