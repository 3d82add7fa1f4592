/**
 * Text the page did not write (a run's name, a model's name, a published
 * site's title) with every bidi control and other control character made
 * visible as its code point, ⟦U+202E⟧: a name such as "gpt-4o", U+202E,
 * U+2066 "(verified by OpenAI)" U+2069 would otherwise render as something
 * it does not say and reverse the text after it. The page also isolates
 * such text (`<bdi>`), so even what is left cannot reorder its neighbours.
 */

/** Bidi embeddings, overrides, isolates and marks, and the C0 and C1 controls (the line feed too). */
const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with each control character replaced by ⟦U+XXXX⟧. */
export function visibleControls(text: string): string {
  return text.replace(HIDDEN, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`);
}
