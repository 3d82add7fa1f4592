/** The Results page's names with their bidi and other controls made visible (src/app/lib/untrusted-text.ts; issue 57 item 8). */
import { describe, expect, it } from 'vitest';
import { visibleControls } from '../../src/app/lib/untrusted-text.ts';

describe('visibleControls', () => {
  it('shows a spoofing model name for what it is', () => {
    const name = 'gpt-4o\u202E\u2066(verified by OpenAI)\u2069';
    expect(visibleControls(name)).toBe('gpt-4o⟦U+202E⟧⟦U+2066⟧(verified by OpenAI)⟦U+2069⟧');
  });

  it('shows marks, embeddings and terminal controls, and leaves other text, right-to-left letters included, alone', () => {
    expect(visibleControls('a\u200Fb\u202Ac\u001B[8md\u0085')).toBe('a⟦U+200F⟧b⟦U+202A⟧c⟦U+001B⟧[8md⟦U+0085⟧');
    expect(visibleControls('claude-sonnet-4-5 · עברית · 模型')).toBe('claude-sonnet-4-5 · עברית · 模型');
  });
});
