/**
 * Where the names of a text stand, found by our own lexers, never by text
 * search (docs/rename.md): C by the kernel's C lexer (identifiers; string
 * and character literals stay as they are), spec code by the dialect's
 * lexer (names; strings stay as they are), with the C lexer as the reader
 * of spec text the dialect cannot lex (an answer with a stray character);
 * comments and prose split into word tokens; Markdown into fenced blocks
 * (by their language), inline code spans (as C) and prose, the fences read
 * line by line as the answer extractor reads them
 * (src/core/eval/grade/answer.ts).
 *
 * A walk rebuilds the text with every name replaced by what `visit`
 * returns for it, and copies everything else byte for byte, so lines and
 * columns stay where they were.
 */
import { lex as lexC } from '../c/lexer.ts';
import { lex as lexSpec } from '../dialect/lexer.ts';
import { NameFilterNotLoadedError } from '../dialect/unicode-names.ts';

/**
 * How a name stands: in code (a token of a lexer), or as a word of prose,
 * where `codeLike` tells whether it is written as code (`procs[pid].state`,
 * `x->state`, `state(`) rather than as a word of a sentence.
 */
export type NameSite = { readonly in: 'code' } | { readonly in: 'prose'; readonly codeLike: boolean };

/** What a walk does with one name: the text to put in its place. */
export type Visit = (name: string, site: NameSite) => string;

export type CodeLanguage = 'c' | 'python';

const CODE: NameSite = { in: 'code' };

/**
 * `text` with each word of prose visited: runs of letters, digits and `_`
 * that start with a letter or `_`. With `lists`, a word that stands alone
 * between punctuation (`Failing obligations: cond, current.`) counts as
 * code too, as in the verifier's diagnoses.
 */
export function walkProse(text: string, visit: Visit, lists = false): string {
  return text.replace(/[A-Za-z0-9_]+/g, (word, at: number) => {
    if (/^[0-9]/.test(word)) return word;
    const before = text.slice(Math.max(0, at - 2), at);
    const after = text[at + word.length] ?? '';
    let codeLike = /[\w\])]\.$/.test(before) || before === '->' || after === '[' || after === '(';
    if (!codeLike && lists) {
      const prev = /(\S?)\s*$/.exec(text.slice(0, at))![1];
      const next = /^\s*(\S?)(\S?)/.exec(text.slice(at + word.length))!;
      const ends = next[1] === '' || ',;:)]='.includes(next[1]) || (next[1] === '.' && (next[2] === '' || /\s/.test(text[at + word.length + 1] ?? '')));
      codeLike = (prev === '' || ':,;(['.includes(prev)) && ends;
    }
    return visit(word, { in: 'prose', codeLike });
  });
}

/** A token of a lexer: where it is, and whether it is a name. */
interface Piece {
  readonly start: number;
  readonly end: number;
  readonly name: boolean;
}

/** Names of C text, and its literals to copy (comments and blanks lie between them). */
function cPieces(text: string): Piece[] {
  const out: Piece[] = [];
  for (const t of lexC('<rename>', text).tokens) {
    if (t.kind === 'eof') continue;
    out.push({ start: t.span.offset, end: t.span.endOffset, name: t.kind === 'ident' });
  }
  return out;
}

/** Names of spec text (the dialect's lexer), or undefined when it does not lex. */
function specPieces(text: string): Piece[] | undefined {
  let toks;
  try {
    toks = lexSpec(text);
  } catch (e) {
    // Text that lexes only once the Unicode names are loaded is no text that does not lex: its caller loads them first
    // (docs/design.md, "The worker's first code").
    if (e instanceof NameFilterNotLoadedError) throw e;
    return undefined;
  }
  const out: Piece[] = [];
  for (const t of toks) {
    if (t.kind === 'newline' || t.kind === 'indent' || t.kind === 'dedent' || t.kind === 'eof') continue;
    out.push({ start: t.span.offset, end: t.span.endOffset, name: t.kind === 'name' });
  }
  return out;
}

/**
 * `text`, code in `language`, with every name visited as code and the words
 * of its comments visited as prose; literals and everything else copied.
 */
export function walkCode(text: string, language: CodeLanguage, visit: Visit): string {
  const pieces = (language === 'python' ? specPieces(text) : undefined) ?? cPieces(text);
  let out = '';
  let at = 0;
  const gap = (to: number) => {
    const between = text.slice(at, to);
    // Most gaps are blanks; only a comment has words.
    return /[A-Za-z_]/.test(between) ? walkProse(between, visit) : between;
  };
  for (const p of pieces) {
    if (p.start < at) continue;
    out += gap(p.start);
    const spelled = text.slice(p.start, p.end);
    out += p.name ? visit(spelled, CODE) : spelled;
    at = p.end;
  }
  return out + gap(text.length);
}

const HEADING = /^ {0,3}#{1,6} /;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*$/;

/** The code language of a fence's info string, or undefined for a block that is not code we rename as code. */
function fenceLanguage(lang: string): CodeLanguage | undefined {
  const l = lang.toLowerCase();
  if (l === 'c' || l === 'h') return 'c';
  if (l === '' || l === 'python' || l === 'py' || l === 'python3') return 'python';
  return undefined;
}

/** Prose with inline code spans: a run of n backticks up to the next run of exactly n is code (read as C). */
function walkInline(text: string, visit: Visit): string {
  let out = '';
  let at = 0;
  const runs = /`+/g;
  for (let m = runs.exec(text); m; m = runs.exec(text)) {
    const open = m[0];
    const close = new RegExp(`(?<!\`)${open}(?!\`)`, 'g');
    close.lastIndex = m.index + open.length;
    const c = close.exec(text);
    if (!c) continue;
    out += walkProse(text.slice(at, m.index), visit) + open + walkCode(text.slice(m.index + open.length, c.index), 'c', visit) + open;
    at = c.index + open.length;
    runs.lastIndex = at;
  }
  return out + walkProse(text.slice(at), visit);
}

/**
 * A piece of a Markdown text and how it is read: `inline` is prose with
 * inline code spans, a language is a fenced block's body, `verbatim` a
 * fence line (with its line break).
 */
export interface Chunk {
  readonly text: string;
  readonly as: 'inline' | 'prose' | 'verbatim' | CodeLanguage;
}

/**
 * A Markdown text (a prompt, a description, a model's answer) cut into
 * chunks whose texts, joined, are the text: its fenced blocks as code of
 * their language, the rest as prose with inline code spans. A fence opens
 * on a line of three or more backticks or tildes and closes on a line of
 * the same character, at least as many, and nothing else; an unclosed
 * fence runs to the end. Prose is cut before each heading.
 */
export function markdownChunks(text: string): Chunk[] {
  const lines = text.split('\n');
  const out: Chunk[] = [];
  let prose: string[] = [];
  const flush = (more: boolean) => {
    if (prose.length) out.push({ text: prose.join('\n') + (more ? '\n' : ''), as: 'inline' });
    prose = [];
  };
  for (let i = 0; i < lines.length; ) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (!open) {
      // A heading starts a chunk of its own (no code span runs across one), so a long prompt's sections are chunks.
      if (HEADING.test(lines[i])) flush(true);
      prose.push(lines[i++]);
      continue;
    }
    flush(true);
    const marker = open[1];
    const closing = new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
    let j = i + 1;
    while (j < lines.length && !closing.test(lines[j])) j++;
    const last = j >= lines.length - 1;
    out.push({ text: lines[i] + (j > i + 1 || j < lines.length ? '\n' : ''), as: 'verbatim' });
    if (j > i + 1) out.push({ text: lines.slice(i + 1, j).join('\n') + (j < lines.length ? '\n' : ''), as: fenceLanguage(open[2]) ?? 'prose' });
    if (j < lines.length) out.push({ text: lines[j] + (last ? '' : '\n'), as: 'verbatim' });
    i = j + 1;
  }
  flush(false);
  return out;
}

/** One chunk walked as what it is. */
export function walkChunk(chunk: Chunk, visit: Visit): string {
  switch (chunk.as) {
    case 'verbatim':
      return chunk.text;
    case 'prose':
      return walkProse(chunk.text, visit);
    case 'inline':
      return walkInline(chunk.text, visit);
    default:
      return walkCode(chunk.text, chunk.as, visit);
  }
}

/** A line of a code frame (src/core/diagnostic-text.ts): a marker, the line number, a bar, then the code. */
const FRAME_LINE = /^([> ] +\d+ \| )(.*)$/;

/**
 * The verifier's feedback to a model (a diagnosis, a repair message): the
 * lines of its code frames walked as spec code, the rest as prose in which
 * names in lists count as code.
 */
export function walkFeedback(text: string, visit: Visit): string {
  return text
    .split('\n')
    .map((line) => {
      const frame = FRAME_LINE.exec(line);
      return frame ? frame[1] + walkCode(frame[2], 'python', visit) : walkProse(line, visit, true);
    })
    .join('\n');
}
