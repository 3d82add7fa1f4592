/**
 * The repository over IndexedDB (Dexie), for the browser. It is handed the
 * database: the page's one database and its schema are declared in
 * src/app/lib/storage.ts; this file needs only the run tables.
 */
import type Dexie from 'dexie';
import type { EntityTable } from 'dexie';
import type { AttemptRecord, PromptRecord, RunRecord } from '../core/eval/run/run-types.ts';
import type { CacheEntry } from '../core/llm/cache.ts';
import { type Repository, type RunBundle, RunExistsError } from './repository.ts';

export interface SettingRow {
  readonly key: string;
  readonly value: unknown;
}

/** The tables the repository reads and writes. */
export interface RunDb extends Dexie {
  runs: EntityTable<RunRecord, 'id'>;
  attempts: EntityTable<AttemptRecord, 'id'>;
  prompts: EntityTable<PromptRecord, 'hash'>;
  responseCache: EntityTable<CacheEntry, 'key'>;
  settings: EntityTable<SettingRow, 'key'>;
}

export class DexieRepository implements Repository {
  constructor(readonly db: RunDb) {}

  async putRun(run: RunRecord): Promise<void> {
    await this.db.runs.put(run);
  }

  getRun(id: string): Promise<RunRecord | undefined> {
    return this.db.runs.get(id);
  }

  listRuns(): Promise<RunRecord[]> {
    return this.db.runs.orderBy('createdAt').toArray();
  }

  async deleteRun(id: string): Promise<void> {
    await this.db.transaction('rw', this.db.runs, this.db.attempts, async () => {
      await this.db.attempts.where('runId').equals(id).delete();
      await this.db.runs.delete(id);
    });
  }

  async putAttempt(attempt: AttemptRecord): Promise<void> {
    await this.db.attempts.put(attempt);
  }

  listAttempts(runId: string): Promise<AttemptRecord[]> {
    return this.db.attempts.where('runId').equals(runId).toArray();
  }

  async putPrompt(prompt: PromptRecord): Promise<void> {
    await this.db.prompts.put(prompt);
  }

  getPrompt(hash: string): Promise<PromptRecord | undefined> {
    return this.db.prompts.get(hash);
  }

  getCached(key: string): Promise<CacheEntry | undefined> {
    return this.db.responseCache.get(key);
  }

  async putCached(entry: CacheEntry): Promise<void> {
    await this.db.responseCache.put(entry);
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    return (await this.db.settings.get(key))?.value as T | undefined;
  }

  async putSetting(key: string, value: unknown): Promise<void> {
    await this.db.settings.put({ key, value });
  }

  /** One transaction: either the whole run lands or nothing does. */
  async importBundle(bundle: RunBundle): Promise<void> {
    await this.db.transaction('rw', this.db.runs, this.db.attempts, this.db.prompts, async () => {
      if (await this.db.runs.get(bundle.run.id)) throw new RunExistsError(bundle.run.id);
      await this.db.prompts.bulkPut([...bundle.prompts]);
      await this.db.attempts.bulkPut([...bundle.attempts]);
      await this.db.runs.put(bundle.run);
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
