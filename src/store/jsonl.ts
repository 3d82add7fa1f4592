/**
 * The repository over plain files, for the CLI: one run per directory.
 *
 *   run.json        the run record (replaced atomically: write, then rename)
 *   attempts.jsonl  append-only; a later line with the same id replaces an earlier one
 *   prompts.jsonl   append-only, one line per prompt hash
 *   cache.jsonl     append-only response cache (may be shared between runs)
 *   settings.json   settings such as the price table
 *
 * A process killed mid-append leaves a torn last line. Reading ignores it,
 * and the first append after opening cuts it off first, so the next line
 * does not get glued to the fragment.
 */
import { readdirSync, statSync } from 'node:fs';
import { appendFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '../core/hash.ts';
import { validateAttemptRecord, validateRunRecord } from '../core/eval/files/run-file.ts';
import type { AttemptRecord, PromptRecord, RunRecord } from '../core/eval/run/run-types.ts';
import type { CacheEntry } from '../core/llm/cache.ts';
import { type Repository, type RunBundle, RunExistsError } from './repository.ts';
import { type RunDirLock, assertUnlocked, lockRunDir } from './run-dir-lock.ts';
import { APPEND_FLAGS, LOCK_FILE, RUN_DIR_FILES, RunDirError, WRITE_FLAGS, describePath, exists, linkError, makeDir, readRunFile, writeError } from './run-dir-file.ts';

export { RunDirError } from './run-dir-file.ts';

/** A line that was not loaded, and why. */
export interface SkippedLine {
  /** 1-based. */
  readonly line: number;
  readonly reason: string;
}

/** What reading a JSONL file found. */
export interface JsonlRead<T> {
  readonly rows: T[];
  /** Lines that did not parse or were not records of the file's kind (a torn tail, or damage). */
  readonly skipped: number;
  readonly skippedAt: readonly SkippedLine[];
  /** Byte length of the whole lines (where a torn tail starts). */
  readonly goodBytes: number;
  readonly totalBytes: number;
}

/** Says why a parsed row is not a record of this file's kind, or undefined when it is one. */
export type JsonlRowCheck = (row: unknown) => string | undefined;

/**
 * Reads a JSONL file; a missing file is empty. Rows `check` rejects are
 * skipped like unparsable lines. Anything but a regular file, or one past
 * the cap, is a RunDirError (src/store/run-dir-file.ts).
 */
export async function readJsonl<T>(path: string, check?: JsonlRowCheck): Promise<JsonlRead<T>> {
  const buf = readRunFile(path);
  if (!buf) return { rows: [], skipped: 0, skippedAt: [], goodBytes: 0, totalBytes: 0 };
  const lastNewline = buf.lastIndexOf(0x0a);
  const goodBytes = lastNewline + 1;
  const rows: T[] = [];
  const skippedAt: SkippedLine[] = [];
  const lines = buf.subarray(0, goodBytes).toString('utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (e) {
      skippedAt.push({ line: i + 1, reason: `not valid JSON (${(e as Error).message})` });
      return;
    }
    const why = check?.(row);
    if (why !== undefined) skippedAt.push({ line: i + 1, reason: why });
    else rows.push(row as T);
  });
  if (goodBytes < buf.length) {
    skippedAt.push({ line: goodBytes === 0 ? 1 : lines.length, reason: 'cut off mid-line (no newline at the end: the writer was stopped while writing it)' });
  }
  return { rows, skipped: skippedAt.length, skippedAt, goodBytes, totalBytes: buf.length };
}

/** An append-only JSONL file with serialised appends and torn-tail repair. */
class JsonlFile<T> {
  private chain: Promise<void> = Promise.resolve();
  private repaired = false;

  constructor(
    readonly path: string,
    private readonly check?: JsonlRowCheck,
  ) {}

  read(): Promise<JsonlRead<T>> {
    return readJsonl<T>(this.path, this.check);
  }

  /** Appends one row as one line. Appends are queued so lines never interleave. */
  append(row: T): Promise<void> {
    const line = JSON.stringify(row) + '\n';
    const next = this.chain.then(async () => {
      try {
        if (!this.repaired) {
          const r = await this.read();
          if (r.goodBytes < r.totalBytes) await truncate(this.path, r.goodBytes);
          this.repaired = true;
        }
        await appendFile(this.path, line, { encoding: 'utf8', flag: APPEND_FLAGS });
      } catch (e) {
        // A link put in place after the file was read is refused as reading refuses it.
        throw (e as NodeJS.ErrnoException).code === 'ELOOP' ? linkError(this.path) : writeError(this.path, e);
      }
    });
    this.chain = next.catch(() => {});
    return next;
  }
}

async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  // The rename replaces a link at `path` itself, never the file it points to.
  try {
    await writeFile(tmp, JSON.stringify(value, null, 2) + '\n', { encoding: 'utf8', flag: WRITE_FLAGS });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw (e as NodeJS.ErrnoException).code === 'ELOOP' ? linkError(tmp) : writeError(path, e);
  }
}

async function readJson<T>(path: string, check?: (v: unknown) => string | undefined): Promise<T | undefined> {
  const buf = readRunFile(path, 64 << 20);
  if (!buf) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new RunDirError('RUNDIR002', `${path} is damaged: not valid JSON (${(e as Error).message})`, path);
  }
  const why = check?.(v);
  if (why !== undefined) throw new RunDirError('RUNDIR002', `${path} is damaged: ${why}`, path);
  return v as T;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function firstProblem(errs: readonly { path: string; message: string }[]): string | undefined {
  return errs.length ? `${errs[0].path} ${errs[0].message}` : undefined;
}

const checkAttempt: JsonlRowCheck = (v) => firstProblem(validateAttemptRecord(v));
const checkPrompt: JsonlRowCheck = (v) => (isObject(v) && typeof v.hash === 'string' && Array.isArray(v.messages) ? undefined : 'not a prompt record');
const checkCache: JsonlRowCheck = (v) => (isObject(v) && typeof v.key === 'string' && isObject(v.completion) ? undefined : 'not a cache entry');

export interface JsonlOptions {
  /** Cache file to use instead of DIR/cache.jsonl (to share answers between runs). */
  readonly cachePath?: string;
  /** Create the directory when it does not exist (default true); false makes a missing directory an error. */
  readonly create?: boolean;
  /** Hold the directory's lock while open (src/store/run-dir-lock.ts): for a process that writes the run. */
  readonly lock?: boolean;
}

/** A line of a run directory's file that was not loaded. */
export interface DamagedLine extends SkippedLine {
  readonly file: string;
}

/**
 * A directory a run may be written to: absent, empty, or a run directory
 * (it has run.json). Anything else (a file, a folder of the user's own
 * files, `/`) is refused before anything is written, so no file osvlab did
 * not write is ever cut or replaced.
 */
export function assertWritableRunDir(dir: string): void {
  if (!exists(dir)) {
    // mkdir -p fails on a file anywhere on the way: say which.
    for (let p = join(dir, '..'); ; p = join(p, '..')) {
      if (exists(p)) {
        if (!statSync(p).isDirectory()) throw new RunDirError('RUNDIR003', `${p} is ${describePath(p)}, not a directory: cannot make the run directory ${dir}`, p);
        break;
      }
      if (p === join(p, '..')) break;
    }
    return;
  }
  if (!statSync(dir).isDirectory()) throw new RunDirError('RUNDIR003', `${dir} is ${describePath(dir)}, not a directory; give a new or empty folder for the run`, dir);
  assertUnlocked(dir);
  // A lock file left by a killed writer is ours, and stale: the folder is still empty.
  const names = readdirSync(dir).filter((n) => n !== LOCK_FILE);
  if (names.length === 0 || names.includes('run.json')) return;
  const ours = names.filter((n) => RUN_DIR_FILES.includes(n));
  throw new RunDirError(
    'RUNDIR003',
    `${dir} is not a run directory (no run.json) and is not empty (${names.length} entr${names.length === 1 ? 'y' : 'ies'}${ours.length ? `, among them ${ours.join(', ')}` : ''}); osvlab writes runs only into a new or empty folder or a run directory, never over files it did not write`,
    dir,
  );
}

export class JsonlRepository implements Repository {
  private run: RunRecord | undefined;
  private readonly attempts = new Map<string, AttemptRecord>();
  private readonly prompts = new Map<string, PromptRecord>();
  private readonly cache = new Map<string, CacheEntry>();
  private settings: Record<string, unknown> = {};
  private readonly attemptsFile: JsonlFile<AttemptRecord>;
  private readonly promptsFile: JsonlFile<PromptRecord>;
  private readonly cacheFile: JsonlFile<CacheEntry>;
  /** Lines skipped while loading (torn or damaged), per file name. */
  readonly skippedLines: Record<string, number> = {};
  /** The same lines, each with its file, line number and reason. */
  readonly damaged: DamagedLine[] = [];
  private lock: RunDirLock | undefined;

  private constructor(
    readonly dir: string,
    options: JsonlOptions,
  ) {
    this.attemptsFile = new JsonlFile(join(dir, 'attempts.jsonl'), checkAttempt);
    this.promptsFile = new JsonlFile(join(dir, 'prompts.jsonl'), checkPrompt);
    this.cacheFile = new JsonlFile(options.cachePath ?? join(dir, 'cache.jsonl'), checkCache);
  }

  /**
   * Opens (creating if needed, unless `create` is false) a run directory and
   * loads what it holds. Throws RunDirError for a missing directory (with
   * `create: false`) or a damaged run.json or settings.json; damaged lines of
   * the JSONL files are skipped and listed in `damaged`.
   */
  static async open(dir: string, options: JsonlOptions = {}): Promise<JsonlRepository> {
    if (options.create === false) {
      if (!exists(dir)) throw new RunDirError('RUNDIR001', `${dir}: no such run directory`);
      if (!statSync(dir).isDirectory()) throw new RunDirError('RUNDIR001', `${dir} is not a directory`);
    } else {
      makeDir(dir);
    }
    const repo = new JsonlRepository(dir, options);
    if (options.lock) repo.lock = lockRunDir(dir);
    try {
      await repo.load();
    } catch (e) {
      repo.lock?.release();
      throw e;
    }
    return repo;
  }

  private async load(): Promise<void> {
    this.run = await readJson<RunRecord>(join(this.dir, 'run.json'), (v) => firstProblem(validateRunRecord(v)));
    this.settings = (await readJson<Record<string, unknown>>(join(this.dir, 'settings.json'), (v) => (isObject(v) ? undefined : 'not a JSON object'))) ?? {};
    const a = await this.attemptsFile.read();
    for (const row of a.rows) this.attempts.set(row.id, row);
    const p = await this.promptsFile.read();
    for (const row of p.rows) this.prompts.set(row.hash, row);
    const c = await this.cacheFile.read();
    for (const row of c.rows) this.cache.set(row.key, row);
    this.skippedLines['attempts.jsonl'] = a.skipped;
    this.skippedLines['prompts.jsonl'] = p.skipped;
    this.skippedLines['cache.jsonl'] = c.skipped;
    for (const [file, r] of [['attempts.jsonl', a], ['prompts.jsonl', p], ['cache.jsonl', c]] as const) {
      for (const s of r.skippedAt) this.damaged.push({ file, ...s });
    }
  }

  async putRun(run: RunRecord): Promise<void> {
    if (this.run && this.run.id !== run.id) {
      throw new RunDirError('RUNDIR003', `${this.dir} holds run "${this.run.id}"; a run directory holds one run (choose another --out)`, join(this.dir, 'run.json'));
    }
    await writeJsonAtomic(join(this.dir, 'run.json'), run);
    this.run = run;
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.run?.id === id ? this.run : undefined;
  }

  async listRuns(): Promise<RunRecord[]> {
    return this.run ? [this.run] : [];
  }

  async deleteRun(id: string): Promise<void> {
    if (this.run?.id !== id) return;
    await rm(join(this.dir, 'run.json'), { force: true });
    await rm(join(this.dir, 'attempts.jsonl'), { force: true });
    this.run = undefined;
    this.attempts.clear();
  }

  /** Appends the attempt, unless the file already holds exactly this record (a resume rewrites nothing it kept). */
  async putAttempt(attempt: AttemptRecord): Promise<void> {
    const had = this.attempts.get(attempt.id);
    if (had && canonicalJson(had) === canonicalJson(attempt)) return;
    await this.attemptsFile.append(attempt);
    this.attempts.set(attempt.id, attempt);
  }

  async listAttempts(runId: string): Promise<AttemptRecord[]> {
    return [...this.attempts.values()].filter((a) => a.runId === runId);
  }

  async putPrompt(prompt: PromptRecord): Promise<void> {
    if (this.prompts.has(prompt.hash)) return;
    this.prompts.set(prompt.hash, prompt);
    await this.promptsFile.append(prompt);
  }

  async getPrompt(hash: string): Promise<PromptRecord | undefined> {
    return this.prompts.get(hash);
  }

  async getCached(key: string): Promise<CacheEntry | undefined> {
    return this.cache.get(key);
  }

  async putCached(entry: CacheEntry): Promise<void> {
    await this.cacheFile.append(entry);
    this.cache.set(entry.key, entry);
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    return this.settings[key] as T | undefined;
  }

  async putSetting(key: string, value: unknown): Promise<void> {
    const next = { ...this.settings, [key]: value };
    await writeJsonAtomic(join(this.dir, 'settings.json'), next);
    this.settings = next;
  }

  /** Writes prompts and attempts first and run.json last: a run directory without run.json is not a run. */
  async importBundle(bundle: RunBundle): Promise<void> {
    if (this.run) throw new RunExistsError(this.run.id);
    for (const p of bundle.prompts) await this.putPrompt(p);
    for (const a of bundle.attempts) await this.putAttempt(a);
    await this.putRun(bundle.run);
  }

  /** Releases the directory's lock, if this store holds it. */
  async close(): Promise<void> {
    this.lock?.release();
  }
}
