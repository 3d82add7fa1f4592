/**
 * Everything the CLI prints goes through core/visible-text.ts: the names,
 * titles and answers it prints come from files (run directories, published
 * sites, answer files) that anyone may have written, and a terminal obeys
 * the escape sequences in them. `showControls` makes a stream write text
 * with its control characters visible; the CLI's own redrawn progress line
 * (a carriage return and ESC[K) goes through `writeControl`, which alone
 * writes control characters as they are.
 */
import { visibleText } from '../core/visible-text.ts';

const raw = new WeakMap<NodeJS.WriteStream, (...a: unknown[]) => boolean>();

/** From now on, text written to `stream` has its control characters (but newline and tab) escaped. */
export function showControls(stream: NodeJS.WriteStream): void {
  if (raw.has(stream)) return;
  const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
  raw.set(stream, write);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? visibleText(chunk) : chunk, ...rest)) as typeof stream.write;
}

/**
 * Writes the CLI's own terminal control (`\r`, ESC[K) with `text`; the
 * parts of `text` from elsewhere (a run id) are made visible.
 */
export function writeControl(stream: NodeJS.WriteStream, control: string, text: string, after = ''): void {
  (raw.get(stream) ?? (stream.write.bind(stream) as (...a: unknown[]) => boolean))(`${control}${visibleText(text)}${after}`);
}
