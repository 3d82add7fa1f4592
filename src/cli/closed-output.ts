/**
 * What the CLI does when its output goes away: `osvlab grade ... | head -1`
 * closes standard output after one line, `> /dev/full` fails every write.
 * Node would raise the first failure (an 'error' event on the stream, or a
 * throw from `write` for a file) and end the process mid-work, before a run
 * directory is written. `guardOutput` makes the stream drop further writes
 * instead, so the command finishes its work; `outputFailure` tells main
 * afterwards whether anything was lost for another reason than the reader
 * leaving (EPIPE is the reader's choice; a full disk is not).
 */

interface Guard {
  error?: NodeJS.ErrnoException;
  readonly write: (...a: unknown[]) => boolean;
}

const guards = new Map<NodeJS.WriteStream, Guard>();

/** From now on a failed write to `stream` ends its output quietly instead of the process. */
export function guardOutput(stream: NodeJS.WriteStream): void {
  if (guards.has(stream)) return;
  const guard: Guard = { write: stream.write.bind(stream) as Guard['write'] };
  guards.set(stream, guard);
  stream.on('error', (e: NodeJS.ErrnoException) => {
    guard.error ??= e;
  });
  stream.write = ((...a: unknown[]) => {
    const done = a.find((x): x is () => void => typeof x === 'function');
    if (!guard.error) {
      try {
        return guard.write(...a);
      } catch (e) {
        guard.error = e as NodeJS.ErrnoException;
      }
    }
    if (done) process.nextTick(done);
    return true;
  }) as typeof stream.write;
}

/** Resolves once what was written to `stream` so far has gone out or failed (a failure arrives a tick after the write). */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => setImmediate(resolve);
    const guard = guards.get(stream);
    if (!guard || guard.error) return settle();
    try {
      guard.write('', settle);
    } catch {
      settle();
    }
  });
}

/** Why output to `stream` stopped, unless nothing failed or the reader closed it (EPIPE). */
export function outputFailure(stream: NodeJS.WriteStream): NodeJS.ErrnoException | undefined {
  const e = guards.get(stream)?.error;
  return e && e.code !== 'EPIPE' ? e : undefined;
}
