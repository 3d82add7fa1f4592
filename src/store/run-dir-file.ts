/**
 * Reading one file of a run directory as the CLI reads its inputs
 * (src/cli/read-input.ts): only a regular file (a FIFO would block, a device
 * may never end, a folder is a mistake), at most a cap of bytes, opened
 * without blocking. What is wrong is a `RunDirError` naming the file.
 *
 * A run file is never a symbolic link: a link would make osvlab read a file
 * outside the directory into a report (`attempts.jsonl` -> `/etc/passwd`) or
 * append to one (`grade --out` resuming). Files are opened with O_NOFOLLOW,
 * for reading and for writing, so a link is refused, never followed.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A run file larger than this is refused: above it V8 cannot hold the text as one string. */
const RUN_FILE_CAP = 512 << 20;

/** A run directory that cannot be used, with a stable code (docs/design.md lists them). */
export class RunDirError extends Error {
  constructor(
    readonly code: 'RUNDIR001' | 'RUNDIR002' | 'RUNDIR003' | 'RUNDIR004' | 'RUNDIR005',
    message: string,
    /** The file at fault (its path). */
    readonly file?: string,
  ) {
    super(`${code} ${message}`);
    this.name = 'RunDirError';
  }
}

function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  return st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a pipe (FIFO)' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a regular file';
}

/** Whether `path` exists (a dangling link counts: it is there, and not a file). */
export function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What the system's refusal `code` means for a file osvlab writes (or, `reading`, reads), in words. */
export function errnoWords(code: string | undefined, reading = false): string {
  switch (code) {
    case 'ENOSPC':
      return 'no space is left on its device';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EROFS':
      return 'its file system is read-only';
    case 'ENOENT':
      return reading ? 'it does not exist' : 'a folder on its path does not exist or cannot hold files';
    case 'EACCES':
    case 'EPERM':
      return 'permission is denied';
    case 'ENOTDIR':
      return 'a part of its path is not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'EIO':
      return 'the device reported an I/O error';
    case 'ENAMETOOLONG':
      return 'its name is too long';
    default:
      return 'the system refused it';
  }
}

/**
 * A file or folder osvlab writes (a run directory, one of its files, an
 * export) that the system refuses: RUNDIR005, naming it and saying why in
 * words, with the system's code (ENOSPC, EROFS, ENOENT, EACCES, ...).
 */
export function writeError(path: string, e: unknown): RunDirError {
  if (e instanceof RunDirError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  return new RunDirError('RUNDIR005', `${path} cannot be written: ${errnoWords(code)}${code ? ` (${code})` : ` (${String(e)})`}`, path);
}

/**
 * Makes folder `dir` and each missing folder above it, one at a time
 * (RUNDIR005 when one cannot be made). Node's recursive mkdir spins forever
 * where the system answers ENOENT for a folder it cannot hold (under
 * /proc/sys), so it is not used.
 */
export function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !exists(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError(p, e);
    }
  }
}

/** Open flags for appending to a run file: created if missing, never through a link. */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
/** Open flags for writing a run file anew: created or emptied, never through a link. */
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_TRUNC | constants.O_CREAT | constants.O_NOFOLLOW;

/** The error for a run file that is a symbolic link. */
export function linkError(path: string): RunDirError {
  return new RunDirError('RUNDIR002', `${path} is a symbolic link, not a regular file; a run directory holds regular files only, and osvlab follows no link out of it`, path);
}

/** The bytes of run file `path`, or undefined when it does not exist. */
export function readRunFile(path: string, cap = RUN_FILE_CAP): Buffer | undefined {
  if (!exists(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw linkError(path);
    throw new RunDirError('RUNDIR002', `${path} cannot be read (${code ?? e})`, path);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new RunDirError('RUNDIR002', `${path} is ${kindOf(st)}, not a regular file; a run directory holds regular files only`, path);
    const tooLarge = () => new RunDirError('RUNDIR002', `${path} is larger than ${cap >> 20} MiB, the limit for a run file`, path);
    if (st.size > cap) throw tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > cap) throw tooLarge();
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks, total);
  } catch (e) {
    if (e instanceof RunDirError) throw e;
    throw new RunDirError('RUNDIR002', `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? e})`, path);
  } finally {
    closeSync(fd);
  }
}

/** The lock file of a run or study directory that a process writes to (src/store/run-dir-lock.ts). */
export const LOCK_FILE = 'osvlab.lock';

/** What may be in a run directory: its files, and the temporary file of an interrupted atomic write. */
export const RUN_DIR_FILES: readonly string[] = ['run.json', 'attempts.jsonl', 'prompts.jsonl', 'cache.jsonl', 'settings.json', LOCK_FILE];

/** The kind of `path` in words, for errors ("a file", "a directory", ...). */
export function describePath(path: string): string {
  const st = lstatSync(path);
  return st.isFile() ? 'a file' : st.isSymbolicLink() ? 'a symbolic link' : kindOf(st);
}
