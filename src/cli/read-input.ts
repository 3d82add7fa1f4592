/**
 * Reads a user-named input file (a spec, a C file, a grade file) with a size
 * cap, so that `/dev/zero` or a runaway file cannot exhaust memory, and
 * without blocking: only regular files are read (a FIFO without a writer
 * would block forever, a character device may never end), or `-` for
 * standard input, which is read with the same cap.
 *
 * Errors are usage errors with a stable code (exit 4):
 * IN001 the input is larger than the cap, IN002 it is not a regular file,
 * IN003 it cannot be opened or read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './args.ts';

/** Caps, in bytes. A spec or a C file is a few KiB; a grade file holds thousands of answers. */
export const SPEC_CAP = 1 << 20;
export const C_CAP = 1 << 20;
export const RESPONSES_CAP = 256 << 20;

class InputError extends UsageError {
  constructor(
    readonly code: 'IN001' | 'IN002' | 'IN003',
    readonly path: string,
    message: string,
  ) {
    super(`${code} ${message}`);
    this.name = 'InputError';
  }
}

/** "1 MiB", "256 MiB", "512 KiB", "100 bytes". */
function showBytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n >> 20} MiB`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n >> 10} KiB`;
  return `${n} bytes`;
}

const tooLarge = (what: string, path: string, cap: number) =>
  new InputError('IN001', path, `${what} '${path}' is larger than ${showBytes(cap)}, the limit for ${what} files`);

/**
 * The text of `path` (UTF-8), at most `cap` bytes, or of standard input for
 * `-`. `what` names the input in errors ("spec", "implementation", ...).
 */
export async function readInput(path: string, what: string, cap: number): Promise<string> {
  if (path === '-') return readStdin(what, cap);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new InputError('IN003', path, `cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const kind = st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a pipe (FIFO)' : st.isCharacterDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a regular file';
      throw new InputError('IN002', path, `${what} '${path}' is ${kind}; give a regular file, or - to read standard input`);
    }
    if (st.size > cap) throw tooLarge(what, path, cap);
    // Read to the end, not to st.size: files in /proc report size 0, and a file may grow.
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > cap) throw tooLarge(what, path, cap);
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError('IN003', path, `cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? e}`);
  } finally {
    closeSync(fd);
  }
}

async function readStdin(what: string, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of process.stdin) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += b.length;
      if (total > cap) {
        process.stdin.destroy();
        throw tooLarge(what, '-', cap);
      }
      chunks.push(b);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError('IN003', '-', `cannot read ${what} from standard input: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
