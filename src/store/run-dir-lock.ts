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
 */
import { closeSync, constants, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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

function readLock(path: string): LockInfo | undefined {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (v && typeof v === 'object' && Number.isInteger((v as LockInfo).pid) && (v as LockInfo).pid > 0) return v as LockInfo;
  } catch {
    // Unreadable or half-written: treated as stale below.
  }
  return undefined;
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
export function checkUnlocked(dir: string): void {
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
  for (let tries = 0; ; tries++) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || tries >= 3) throw new RunDirError('RUNDIR004', `${path} cannot be made (${code ?? e}): no lock, so nothing is written`, path);
      const holder = readLock(path);
      if (holder && holder.pid === process.pid && held.has(path)) {
        throw new RunDirError('RUNDIR004', `${dir} is already open for writing in this process`, path);
      }
      if (holder && alive(holder)) throw inUse(dir, holder.pid);
      // The holder is gone: the lock is stale. Removed and taken on the next try; a rival doing the same loses the O_EXCL race.
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`);
    } finally {
      closeSync(fd);
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
}

function releaseAll(): void {
  for (const p of held) releaseFile(p);
  held.clear();
}

/** Removes lock file `path` if this process holds it (never another's that took over a lock it thought stale). */
function releaseFile(path: string): void {
  if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
}
