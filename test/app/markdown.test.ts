/** The task-description Markdown reader: structure, and that nothing in the text becomes markup or a script link. */
import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../src/app/lib/markdown.ts';

describe('markdown', () => {
  it('reads headings, paragraphs, numbered and bulleted lists, and fenced code', () => {
    const blocks = parseMarkdown('# sys_dup(a)\n\nFirst line\ncontinues.\n\n1. one;\n2. two `x`.\n\n- a\n- b\n\n```python\nx = 1\n```\n');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'code']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', children: [{ kind: 'text', text: 'First line continues.' }] });
    const ol = blocks[2];
    expect(ol.kind === 'list' && ol.ordered && ol.items.length).toBe(2);
    expect(blocks[4]).toEqual({ kind: 'code', lang: 'python', text: 'x = 1' });
  });

  it('reads inline code, bold, italics and links, and leaves snake_case alone', () => {
    expect(parseInline('`a_b` **strong** *em* is_pid_valid [doc](https://example.org/x)')).toEqual([
      { kind: 'code', text: 'a_b' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'strong' }] },
      { kind: 'text', text: ' ' },
      { kind: 'em', children: [{ kind: 'text', text: 'em' }] },
      { kind: 'text', text: ' is_pid_valid ' },
      { kind: 'link', href: 'https://example.org/x', children: [{ kind: 'text', text: 'doc' }] },
    ]);
  });

  it('keeps raw HTML as text and refuses links that are not http(s)', () => {
    const nodes = parseInline('<img src=x onerror=alert(1)> [x](javascript:alert(1))');
    expect(nodes.every((n) => n.kind === 'text')).toBe(true);
    expect(nodes.map((n) => (n.kind === 'text' ? n.text : '')).join('')).toBe('<img src=x onerror=alert(1)> [x](javascript:alert(1))');
  });
});
