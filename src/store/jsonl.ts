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
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AttemptRecord, PromptRecord, RunRecord } from '../core/bench/run-types.ts';
import type { CacheEntry } from '../core/llm/cache.ts';
import { type Repository, type RunBundle, RunExistsError } from './repository.ts';

/** What reading a JSONL file found. */
export interface JsonlRead<T> {
  readonly rows: T[];
  /** Lines that did not parse (a torn tail, or damage). */
  readonly skipped: number;
  /** Byte length of the whole lines (where a torn tail starts). */
  readonly goodBytes: number;
  readonly totalBytes: number;
}

/** Reads a JSONL file; a missing file is empty. */
export async function readJsonl<T>(path: string): Promise<JsonlRead<T>> {
  if (!existsSync(path)) return { rows: [], skipped: 0, goodBytes: 0, totalBytes: 0 };
  const buf = await readFile(path);
  const lastNewline = buf.lastIndexOf(0x0a);
  const goodBytes = lastNewline + 1;
  const rows: T[] = [];
  let skipped = goodBytes < buf.length ? 1 : 0;
  for (const line of buf.subarray(0, goodBytes).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      rows.push(JSON.parse(line) as T);
    } catch {
      skipped++;
    }
  }
  return { rows, skipped, goodBytes, totalBytes: buf.length };
}

/** An append-only JSONL file with serialised appends and torn-tail repair. */
class JsonlFile<T> {
  private chain: Promise<void> = Promise.resolve();
  private repaired = false;

  constructor(readonly path: string) {}

  read(): Promise<JsonlRead<T>> {
    return readJsonl<T>(this.path);
  }

  /** Appends one row as one line. Appends are queued so lines never interleave. */
  append(row: T): Promise<void> {
    const line = JSON.stringify(row) + '\n';
    const next = this.chain.then(async () => {
      if (!this.repaired) {
        const r = await this.read();
        if (r.goodBytes < r.totalBytes) await truncate(this.path, r.goodBytes);
        this.repaired = true;
      }
      await appendFile(this.path, line, 'utf8');
    });
    this.chain = next.catch(() => {});
    return next;
  }
}

async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(value, null, 2) + '\n', 'utf8');
  await rename(tmp, path);
}

async function readJson<T>(path: string): Promise<T | undefined> {
  if (!existsSync(path)) return undefined;
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

export interface JsonlOptions {
  /** Cache file to use instead of DIR/cache.jsonl (to share answers between runs). */
  readonly cachePath?: string;
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

  private constructor(
    readonly dir: string,
    options: JsonlOptions,
  ) {
    this.attemptsFile = new JsonlFile(join(dir, 'attempts.jsonl'));
    this.promptsFile = new JsonlFile(join(dir, 'prompts.jsonl'));
    this.cacheFile = new JsonlFile(options.cachePath ?? join(dir, 'cache.jsonl'));
  }

  /** Opens (creating if needed) a run directory and loads what it holds. */
  static async open(dir: string, options: JsonlOptions = {}): Promise<JsonlRepository> {
    await mkdir(dir, { recursive: true });
    const repo = new JsonlRepository(dir, options);
    await repo.load();
    return repo;
  }

  private async load(): Promise<void> {
    this.run = await readJson<RunRecord>(join(this.dir, 'run.json'));
    this.settings = (await readJson<Record<string, unknown>>(join(this.dir, 'settings.json'))) ?? {};
    const a = await this.attemptsFile.read();
    for (const row of a.rows) this.attempts.set(row.id, row);
    const p = await this.promptsFile.read();
    for (const row of p.rows) this.prompts.set(row.hash, row);
    const c = await this.cacheFile.read();
    for (const row of c.rows) this.cache.set(row.key, row);
    this.skippedLines['attempts.jsonl'] = a.skipped;
    this.skippedLines['prompts.jsonl'] = p.skipped;
    this.skippedLines['cache.jsonl'] = c.skipped;
  }

  async putRun(run: RunRecord): Promise<void> {
    if (this.run && this.run.id !== run.id) {
      throw new Error(`${this.dir} holds run "${this.run.id}"; a run directory holds one run (use another --out).`);
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

  async putAttempt(attempt: AttemptRecord): Promise<void> {
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

  async close(): Promise<void> {}
}
