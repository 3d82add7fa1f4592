/**
 * Text from a file (a run's title, a model's name, an answer) made safe to
 * print on a terminal: every control character but newline and tab is
 * written as its escape, `\u001b` for ESC, so a name cannot erase lines,
 * move the cursor, set the window title, make a hyperlink or hide what
 * follows it (ESC[8m). Bidirectional controls (U+202E and the isolates) are
 * shown the same way, so they cannot reorder what a reader sees. The escape
 * is JSON's: inside a JSON string it means the same character, so JSON
 * output stays valid and equal.
 */

/** C0 but newline and tab, DEL, C1, and the bidi marks, embeddings, overrides and isolates. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Returns `text` with each control character (see above) replaced by its `\uXXXX` escape. */
export function visibleText(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
