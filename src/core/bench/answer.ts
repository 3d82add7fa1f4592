/**
 * Pulling the spec out of a model's answer: the first fenced Python block;
 * failing that, the first untagged fence that contains a `def`; failing that,
 * a bare function (from the first top-level `import`/`from`/`def` line on).
 * An unterminated fence (a truncated answer) yields what is there.
 */

const FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*$/gm;

interface Block {
  readonly lang: string;
  readonly body: string;
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
    const marker = open[1];
    const lang = open[2].toLowerCase();
    const body: string[] = [];
    i++;
    while (i < lines.length && !new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`).test(lines[i])) {
      body.push(lines[i]);
      i++;
    }
    i++; // past the closing fence (or the end)
    blocks.push({ lang, body: body.join('\n') });
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

/** The spec text in a model's answer, or null when there is no code. */
export function extractSpec(answer: string): string | null {
  const blocks = fencedBlocks(answer);
  const python = blocks.find((b) => b.lang === 'python' || b.lang === 'py' || b.lang === 'python3');
  if (python && python.body.trim()) return `${python.body.trimEnd()}\n`;
  const untagged = blocks.find((b) => b.lang === '' && /\bdef\s+\w+/.test(b.body));
  if (untagged) return `${untagged.body.trimEnd()}\n`;
  if (blocks.length > 0 && !python) {
    const anyDef = blocks.find((b) => /\bdef\s+\w+/.test(b.body));
    if (anyDef) return `${anyDef.body.trimEnd()}\n`;
  }
  return bareFunction(answer);
}
