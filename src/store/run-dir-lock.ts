/**
 * One writer per run directory: a process that writes a run (`osvlab run`,
 * `grade --out`, `regrade --out`, `merge --out`, `study`) holds the
 * directory's lock file `osvlab.lock` from opening to closing. Two writers
 * would each send and pay for the same requests (each process's budget
 * counts only its own) and interleave their appends.
 *
 * The file holds the holder's pid and, on Linux, the start time of that
 * process (so a pid reused by another process after a crash is not taken
 * for the holder). A lock whose holder is gone (killed, crashed) is stale
 * and taken over; a live holder makes opening fail with RUNDIR004 naming its
 * pid. The lock is released when the store closes, and by an exit handler
 * when the process exits without closing it.
 *
 * Both steps are atomic, so two contenders never both hold it:
 * - the lock is written whole to a file of this process's own and then
 *   hard-linked to `osvlab.lock` (link fails if the name exists), so nobody
 *   ever reads a half-written lock and takes it for stale;
 * - a stale lock is removed only under the takeover guard
 *   `osvlab.lock.takeover` (made with O_EXCL), and only if the lock's text is
 *   still the text judged stale. A contender that judged the same stale lock
 *   after another took it over finds the newer text and removes nothing.
 */
import { closeSync, constants, linkSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, RunDirError } from './run-dir-file.ts';

interface LockInfo {
  readonly pid: number;
  /** /proc/PID/stat's start time (clock ticks since boot), where there is one. */
  readonly started?: string;
}

/** The start time of process `pid` (field 22 of /proc/PID/stat), or undefined where /proc does not say. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote `info` still runs. */
function alive(info: LockInfo): boolean {
  try {
    process.kill(info.pid, 0);
  } catch (e) {
    // EPERM: it exists, under another user.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (info.started === undefined) return true;
  const now = startTime(info.pid);
  return now === undefined || now === info.started;
}

/** The lock file's text, or undefined when there is none (or it cannot be read). */
function lockText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parseLock(text: string | undefined): LockInfo | undefined {
  try {
    const v = JSON.parse(text ?? '') as unknown;
    if (v && typeof v === 'object' && Number.isInteger((v as LockInfo).pid) && (v as LockInfo).pid > 0) return v as LockInfo;
  } catch {
    // Unreadable or half-written (by an older osvlab): treated as stale.
  }
  return undefined;
}

function readLock(path: string): LockInfo | undefined {
  return parseLock(lockText(path));
}

/** A takeover guard older than this was left by a contender that died in the microseconds it holds one. */
const GUARD_STALE_MS = 10_000;
/** How long a contender waits for other contenders' takeovers before giving up. */
const TAKEOVER_WAIT_MS = 5_000;

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the lock at `path` if its text is still `staleText`, under the
 * takeover guard. Returns false when another contender holds the guard.
 */
function removeStale(path: string, staleText: string | undefined): boolean {
  const guard = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmSync(guard, { force: true });
    } catch {
      // Gone meanwhile: the next try takes it.
    }
    return false;
  }
  try {
    closeSync(fd);
    // Under the guard nobody else removes the lock: the text read here is the lock removed below.
    if (lockText(path) === staleText) rmSync(path, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
  return true;
}

/** Makes the lock file at `path` holding `text`, whole, if there is none; false if there is one. */
function createLock(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
  // A file system without hard links: an exclusive create, written at once (a reader may see it empty for an instant).
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function inUse(dir: string, pid: number): RunDirError {
  const path = join(dir, LOCK_FILE);
  return new RunDirError(
    'RUNDIR004',
    `${dir} is in use by osvlab process ${pid}, which is writing to it; wait for it to finish or stop it (a run resumes where it stopped). If no such process runs, remove ${path}`,
    path,
  );
}

/**
 * Throws RUNDIR004 when another live process holds the lock of `dir`: for
 * a command that checks everything before it writes (the lock itself is
 * taken when the directory is opened).
 */
export function assertUnlocked(dir: string): void {
  const holder = readLock(join(dir, LOCK_FILE));
  if (holder && holder.pid !== process.pid && alive(holder)) throw inUse(dir, holder.pid);
}

const held = new Set<string>();
let exitHook = false;

/** A held lock: `release` removes it (once). */
export interface RunDirLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes the lock of directory `dir` (which must exist) for this process.
 * Throws RunDirError RUNDIR004 when another live process holds it.
 */
export function lockRunDir(dir: string): RunDirLock {
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, ...(startTime(process.pid) !== undefined ? { started: startTime(process.pid) } : {}) };
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    try {
      if (createLock(path, `${JSON.stringify(mine)}\n`)) break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new RunDirError('RUNDIR004', `${path} cannot be made (${code ?? e}): no lock, so nothing is written`, path);
    }
    const text = lockText(path);
    if (text === undefined) {
      // Removed meanwhile (taken again on the next try), or a lock that cannot be read at all.
      if (Date.now() > deadline) throw new RunDirError('RUNDIR004', `${path} cannot be read: no lock, so nothing is written`, path);
      continue;
    }
    const holder = parseLock(text);
    if (holder && holder.pid === process.pid && held.has(path)) {
      throw new RunDirError('RUNDIR004', `${dir} is already open for writing in this process`, path);
    }
    if (holder && alive(holder)) throw inUse(dir, holder.pid);
    // The holder is gone: the lock is stale. Removed (if still the same) and taken on the next try.
    if (!removeStale(path, text)) {
      if (Date.now() > deadline) throw new RunDirError('RUNDIR004', `${path} is being taken over by another process; try again`, path);
      sleepMs(2);
    }
  }
  held.add(path);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', releaseAll);
    // First of the listeners, so a command's own `once` listener still counts while this runs. A
    // command that handles the signal itself stops its work, closes its store and exits; in
    // one that does not (or on a second Ctrl+C), the locks are released here before exiting as
    // the signal would (128 + its number).
    for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15]] as const) {
      process.prependListener(sig, () => {
        if (process.listenerCount(sig) > 1) return;
        releaseAll();
        process.exit(128 + n);
      });
    }
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      releaseFile(path);
    },
  };
}

function releaseAll(): void {
  for (const p of held) releaseFile(p);
  held.clear();
}

/** Removes lock file `path` if this process holds it (never another's that took over a lock it thought stale). */
function releaseFile(path: string): void {
  if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
}
