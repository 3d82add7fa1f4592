/**
 * The IndexedDB schema, as a list of versions. A new version appends an
 * entry (with an upgrade function when rows must change) and never edits an
 * old one: Dexie replays the list to bring any older database up to date.
 */
import Dexie, { type EntityTable, type Transaction } from 'dexie';
import type { AttemptRecord, PromptRecord, RunRecord } from '../core/eval/run/run-types.ts';
import type { CacheEntry } from '../core/llm/cache.ts';

export const DB_NAME = 'osvlab';

export interface SettingRow {
  readonly key: string;
  readonly value: unknown;
}

/** Playground autosave: one draft per handler. */
export interface DraftRow {
  readonly handler: string;
  readonly spec: string;
  readonly variant?: string;
  readonly updatedAt: number;
}

export interface LessonRow {
  readonly lesson: string;
  readonly passed: boolean;
  readonly spec: string;
  readonly updatedAt: number;
}

export interface SchemaVersion {
  readonly version: number;
  /** Dexie store specs: primary key first, then indexes. */
  readonly stores: Readonly<Record<string, string | null>>;
  readonly upgrade?: (tx: Transaction) => Promise<void>;
}

export const SCHEMA: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      runs: 'id, createdAt',
      attempts: 'id, runId',
      prompts: 'hash',
      responseCache: 'key, createdAt',
      settings: 'key',
      drafts: 'handler, updatedAt',
      lessons: 'lesson',
    },
  },
];

export const CURRENT_VERSION = SCHEMA[SCHEMA.length - 1].version;

/** Where IndexedDB comes from: the browser's by default, fake-indexeddb in Node tests. */
export interface DbOptions {
  readonly indexedDB?: unknown;
  readonly IDBKeyRange?: unknown;
}

export class OsvDb extends Dexie {
  runs!: EntityTable<RunRecord, 'id'>;
  attempts!: EntityTable<AttemptRecord, 'id'>;
  prompts!: EntityTable<PromptRecord, 'hash'>;
  responseCache!: EntityTable<CacheEntry, 'key'>;
  settings!: EntityTable<SettingRow, 'key'>;
  drafts!: EntityTable<DraftRow, 'handler'>;
  lessons!: EntityTable<LessonRow, 'lesson'>;

  constructor(name = DB_NAME, options: DbOptions = {}) {
    super(name, options as ConstructorParameters<typeof Dexie>[1]);
    for (const v of SCHEMA) {
      const version = this.version(v.version).stores(v.stores);
      if (v.upgrade) version.upgrade(v.upgrade);
    }
  }
}
