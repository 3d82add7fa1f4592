/**
 * Pulling the spec out of a model's answer. First the reasoning goes: a
 * leading `<think>...</think>` block (an unclosed one means the answer never
 * came), or everything up to a `</think>` whose opening tag the chat template
 * supplied. Then the first fenced Python block; failing that, the first
 * untagged fence that contains a `def`; failing that, a bare function (from
 * the first top-level `import`/`from`/`def` line on). An unterminated fence
 * (a truncated answer) yields what is there. A fence indented in a Markdown
 * list item has that indentation removed from its lines, and a fence line
 * inside a triple-quoted string (a docstring's example) does not end the
 * block; upstream's reading (`osvbench` mode) does neither, so an answer
 * that depends on them may pass here and be syntax there, never the reverse.
 *
 * `osvbench` mode extracts as OSVBench's harness does instead, so a syntax
 * rate compares with upstream's (docs/providers.md "Answer extraction").
 */

const FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*$/gm;

interface Block {
  readonly lang: string;
  readonly body: string;
}

/** The triple-quoted string a line leaves open, given the one open before it (`"""`, `'''` or none). */
function openTripleQuote(line: string, open: string | undefined): string | undefined {
  for (const m of line.matchAll(/"""|'''/g)) {
    if (open === undefined) open = m[0];
    else if (open === m[0]) open = undefined;
  }
  return open;
}

/**
 * The body lines of a fence opened with `indent` before its marker, that
 * indentation removed as Markdown does for a fence in a list item (only
 * when every line of code has it, so no line's nesting changes).
 */
function dedent(lines: readonly string[], indent: string): string {
  const n = indent.length;
  if (n > 0 && lines.every((l) => l.trim() === '' || l.startsWith(indent))) return lines.map((l) => l.slice(Math.min(n, l.length))).join('\n');
  return lines.join('\n');
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    FENCE.lastIndex = 0;
    const open = FENCE.exec(lines[i]);
    if (!open) {
      i++;
      continue;
    }
    const indent = /^[ \t]*/.exec(lines[i])![0];
    const marker = open[1];
    const lang = open[2].toLowerCase();
    const close = new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
    const body: string[] = [];
    // A fence line inside a triple-quoted string (an example in a docstring) is the string's text, not the end of the block.
    let quote: string | undefined;
    i++;
    while (i < lines.length && (quote !== undefined || !close.test(lines[i]))) {
      quote = openTripleQuote(lines[i], quote);
      body.push(lines[i]);
      i++;
    }
    if (i >= lines.length && quote !== undefined) {
      // The string never closed: the block ends at its first fence line after all, as it did before this rule.
      const first = body.findIndex((l) => close.test(l));
      if (first >= 0) {
        i -= body.length - first;
        body.length = first;
      }
    }
    i++; // past the closing fence (or the end)
    blocks.push({ lang, body: dedent(body, indent) });
  }
  return blocks;
}

function bareFunction(text: string): string | null {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^(def|import|from)\s/.test(l));
  if (start < 0) return null;
  // Keep top-level code lines and their indented bodies; stop at the first prose line.
  const out: string[] = [];
  for (let i = start; i < lines.length; i++) {
    const l = lines[i];
    const code = l.trim() === '' || /^\s/.test(l) || /^(def|import|from|#|@|[A-Za-z_][\w.]*\s*=|return\b|\))/.test(l);
    if (!code) break;
    out.push(l);
  }
  const body = out.join('\n').trimEnd();
  return /\bdef\s+\w+\s*\(/.test(body) ? `${body}\n` : null;
}

/** How answers are read: OSVLab's lenient reading, or exactly OSVBench's. */
export type ExtractMode = 'osvlab' | 'osvbench';

export const EXTRACT_MODES: readonly ExtractMode[] = ['osvlab', 'osvbench'];

const THINK_OPEN = /^\s*<(think|thinking)>/i;

/** The answer without the model's reasoning; '' when the reasoning never ended. */
function stripReasoning(answer: string): string {
  let text = answer;
  for (;;) {
    const open = THINK_OPEN.exec(text);
    if (!open) break;
    const close = new RegExp(`</${open[1]}>`, 'i').exec(text.slice(open[0].length));
    if (!close) return '';
    text = text.slice(open[0].length + close.index + close[0].length);
  }
  // Templates that open the block themselves leave only the closing tag.
  const close = /<\/(think|thinking)>/i.exec(text);
  return close ? text.slice(close.index + close[0].length) : text;
}

/**
 * OSVBench's reading: the first match of ```python ... ``` (lazy, across
 * lines, the closing ``` anywhere), minus the 9 characters of the opening
 * marker and the 3 of the closing one. No block, no answer: null. Nothing is
 * stripped first, reasoning included.
 */
function extractOsvBench(answer: string): string | null {
  const m = /```python([\s\S]*?)```/.exec(answer);
  return m ? m[1] : null;
}

/**
 * Code as the grader reads it: line ends as Python reads them (CRLF and a
 * lone CR end a line too) and one final newline. Every spec the grader is
 * given has this form, whether read from an answer, renamed back or sent by
 * the agent's tools.
 */
export function specText(code: string): string {
  return `${code.replace(/\r\n?/g, '\n').trimEnd()}\n`;
}

/**
 * The spec text in a model's answer, or null when there is no code. This is
 * where a run reads an answer (core/eval/session/grading.ts): the grader is
 * sent what it returns, never the answer.
 */
export function extractSpec(answer: string, mode: ExtractMode = 'osvlab'): string | null {
  if (mode === 'osvbench') {
    const code = extractOsvBench(answer);
    return code === null || code.trim() === '' ? null : specText(code.replace(/^\n/, ''));
  }
  // Line ends as Python reads them (CRLF and a lone CR end a line too), so a fence's closing line is found.
  const text = stripReasoning(answer).replace(/\r\n?/g, '\n');
  const blocks = fencedBlocks(text);
  const python = blocks.find((b) => b.lang === 'python' || b.lang === 'py' || b.lang === 'python3');
  if (python && python.body.trim()) return `${python.body.trimEnd()}\n`;
  const untagged = blocks.find((b) => b.lang === '' && /\bdef\s+\w+/.test(b.body));
  if (untagged) return `${untagged.body.trimEnd()}\n`;
  if (blocks.length > 0 && !python) {
    const anyDef = blocks.find((b) => /\bdef\s+\w+/.test(b.body));
    if (anyDef) return `${anyDef.body.trimEnd()}\n`;
  }
  return bareFunction(text);
}
