/**
 * Reads a user-named input file (a spec, a C file, a grade file) with a size
 * cap, so that `/dev/zero` or a runaway file cannot exhaust memory, and
 * without blocking: only regular files are read (a FIFO without a writer
 * would block forever, a character device may never end), or `-` for
 * standard input, which is read with the same cap.
 *
 * Errors are usage errors with a stable code (exit 4):
 * IN001 the input is larger than the cap, IN002 it is not a regular file,
 * IN003 it cannot be opened or read, IN004 it would silently mean something
 * else (an --impl that defines no function would verify the kernel's own code),
 * IN005 it is UTF-16 text where only UTF-8 is read (a spec or a C file: hv6's
 * Python 2 and gcc read neither; JSON inputs are decoded instead).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './args.ts';

/** Caps, in bytes. A spec or a C file is a few KiB; a grade file holds thousands of answers. */
export const SPEC_CAP = 1 << 20;
export const C_CAP = 1 << 20;
export const RESPONSES_CAP = 256 << 20;

export class InputError extends UsageError {
  constructor(
    override readonly code: 'IN001' | 'IN002' | 'IN003' | 'IN004' | 'IN005',
    readonly path: string,
    message: string,
  ) {
    super(message, code);
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

/** What to do with UTF-16 text: decode it (JSON files, which Windows tools often write so), or refuse it (IN005). */
export type Utf16 = 'decode' | 'refuse';

/**
 * The byte order of UTF-16 text: a byte-order mark, or (without one) a NUL
 * beside each of the first characters, as ASCII text in UTF-16 has; or
 * undefined for anything else.
 */
function utf16Order(b: Buffer): 'le' | 'be' | undefined {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'le';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'be';
  const n = Math.min(b.length, 64) & ~1;
  if (n < 4) return undefined;
  let le = true;
  let be = true;
  for (let i = 0; i < n; i += 2) {
    le &&= b[i] !== 0 && b[i + 1] === 0;
    be &&= b[i] === 0 && b[i + 1] !== 0;
  }
  return le ? 'le' : be ? 'be' : undefined;
}

/** The bytes of an input as text: UTF-8, or UTF-16 decoded or refused (never text full of NUL bytes). */
function decode(b: Buffer, what: string, path: string, utf16: Utf16): string {
  const order = utf16Order(b);
  if (order === undefined) return b.toString('utf8');
  if (utf16 === 'refuse') {
    const name = path === '-' ? 'standard input' : `'${path}'`;
    throw new InputError('IN005', path, `${what} ${name} is UTF-16 text (${order === 'le' ? 'little' : 'big'}-endian); only UTF-8 is read: save it as UTF-8`);
  }
  const bom = (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) ? 2 : 0;
  const body = Buffer.from(b.subarray(bom, b.length - ((b.length - bom) % 2)));
  if (order === 'be') body.swap16();
  return body.toString('utf16le');
}

/**
 * The text of `path` (UTF-8), at most `cap` bytes, or of standard input for
 * `-`. `what` names the input in errors ("spec", "implementation", ...).
 * UTF-16 text is decoded or refused, as `utf16` says.
 */
export async function readInput(path: string, what: string, cap: number, utf16: Utf16 = 'refuse'): Promise<string> {
  if (path === '-') return decode(await readStdin(what, cap), what, path, utf16);
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
    return decode(Buffer.concat(chunks, total), what, path, utf16);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError('IN003', path, `cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? e}`);
  } finally {
    closeSync(fd);
  }
}

async function readStdin(what: string, cap: number): Promise<Buffer> {
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
  return Buffer.concat(chunks, total);
}
