/**
 * What a verifier worker's crash says (docs/app.md, "When Z3 cannot run").
 * A Web Worker's uncaught error reaches the page as an `ErrorEvent` whose
 * message is often useless: Z3's glue rethrows a failed pthread worker's own
 * `ErrorEvent` object, which arrives as "[object ErrorEvent]", and some
 * engines leave the message empty. The worker side catches such errors,
 * describes them itself (message, file, line; for a nested event, the
 * pthread's own) and posts the description; the page side reads either that
 * message or the error event, and always has a sentence with a place in it.
 */

/** The message a worker posts about its own crash, beside Comlink's traffic. */
export interface CrashNote {
  readonly osvlabCrash: true;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** What an error event (or the error inside it) says, with its place. */
export function describeError(message: string | undefined, file: string | undefined, line: number | undefined, column: number | undefined, error: unknown): Omit<CrashNote, 'osvlabCrash'> {
  // A rethrown ErrorEvent (a pthread worker's failure) carries the real place.
  const inner = error as { message?: unknown; filename?: unknown; lineno?: unknown; colno?: unknown; stack?: unknown } | null;
  if (inner && typeof inner === 'object' && typeof inner.filename === 'string' && typeof inner.message === 'string') {
    return { message: `a Z3 thread failed: ${inner.message || 'no message'}`, file: inner.filename || undefined, line: num(inner.lineno), column: num(inner.colno) };
  }
  let text = message ?? '';
  if (!text || text.includes('[object ')) text = errorText(error);
  return { message: text, file: file || undefined, line: num(line), column: num(column) };
}

/** An uncaught value in words: an Error's name and message, an Event's type (a worker that failed to start throws one). */
function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  const type = (error as { type?: unknown } | null)?.type;
  if (error && typeof error === 'object' && typeof type === 'string') return `an '${type}' event without a message (a Z3 thread that did not start?)`;
  return error !== undefined && error !== null ? String(error) : 'uncaught error';
}

function num(x: unknown): number | undefined {
  return typeof x === 'number' && x > 0 ? x : undefined;
}

/** "message (file:line:column)", the file shortened to its last path segment. */
export function crashText(note: Omit<CrashNote, 'osvlabCrash'>): string {
  if (!note.file) return note.message;
  const file = note.file.replace(/[?#].*$/, '').split('/').pop() || note.file;
  const where = [file, note.line, note.column].filter((x) => x !== undefined).join(':');
  return `${note.message} (${where})`;
}

export function isCrashNote(data: unknown): data is CrashNote {
  return typeof data === 'object' && data !== null && (data as { osvlabCrash?: unknown }).osvlabCrash === true && typeof (data as { message?: unknown }).message === 'string';
}

/**
 * In a worker: report every uncaught error as a `CrashNote` (a rethrown
 * pthread ErrorEvent, an empty or "[object ...]" message described as well
 * as it can be, with `lastWords`, what Z3 printed last, when the error has
 * no place of its own), and keep it from also arriving as a bare error event.
 */
export function reportCrashes(
  scope: { addEventListener(type: 'error', fn: (e: ErrorEvent) => void): void; postMessage(data: unknown): void },
  lastWords: () => string | undefined = () => undefined,
): void {
  scope.addEventListener('error', (e) => {
    const described = describeError(e.message, e.filename, e.lineno, e.colno, e.error);
    // What Z3's glue printed last (a failed pthread's file, line and message) says more than an opaque event.
    const said = lastWords();
    const note = said && !described.file ? { ...described, message: `${described.message}; Z3 said: ${said}` } : described;
    e.preventDefault();
    scope.postMessage({ osvlabCrash: true, ...note } satisfies CrashNote);
  });
}
