/**
 * The page's one IndexedDB database, `osvlab` (Dexie): every table the browser
 * keeps, its schema as a list of versions, and the one-time move of the
 * databases earlier releases kept apart (docs/app.md, "Storage").
 *
 * - Runs, attempts, prompts and the response cache: read and written through
 *   the repository (src/store/dexie.ts), which is handed this database.
 * - Settings, playground drafts and history (`db.ts`, `history-db.ts`) and the
 *   course's progress (`lessons/progress-db.ts`): small accessors over the
 *   tables declared here.
 *
 * A new version appends an entry to SCHEMA (with an upgrade function when
 * rows must change) and never edits an old one: Dexie replays the list to
 * bring any older database up to date. API keys are not here: they stay in
 * local storage (`key-store.ts`), which no upgrade touches.
 */
import Dexie, { type EntityTable, type Transaction } from 'dexie';
import type { AttemptRecord, PromptRecord, RunRecord } from '../../core/eval/run/run-types.ts';
import type { CacheEntry } from '../../core/llm/cache.ts';
import type { VerdictStatus } from '../../core/verify/verdict.ts';
import type { RunDb, SettingRow } from '../../store/dexie.ts';
import type { AttemptFile } from '../lessons/attempt-file.ts';
import type { TeacherExercise } from '../lessons/teacher-link.ts';

export const DB_NAME = 'osvlab';

/** Playground autosave: one draft per handler. */
export interface Draft {
  /** Handler C name: one draft per handler. */
  readonly handler: string;
  readonly spec: string;
  readonly variant?: string;
  readonly updatedAt: number;
}

/** One Verify kept in the playground's history. */
export interface HistoryEntry {
  readonly id?: number;
  readonly handler: string;
  /** The implementation verified against: a task id, or '' for the kernel's own. */
  readonly variant: string;
  readonly spec: string;
  readonly status: VerdictStatus;
  /** When the verdict came (ms since 1970). */
  readonly at: number;
  readonly title: string;
}

/** The course's record of one exercise. */
export interface ExerciseProgress {
  /** `<lesson>/<exercise>` for the course, `t/<id>` for a teacher exercise. */
  readonly key: string;
  /** The learner's current answer: a spec, or the chosen field. */
  readonly answer: string;
  readonly passed: boolean;
  /** Graded checks so far; the solution opens after the first. */
  readonly attempts: number;
  readonly hintsOpened: number;
  /** The last grade, one sentence. */
  readonly lastMessage?: string;
  /** The answer came from "Put it in the editor" (cleared by Start over). */
  readonly usedSolution?: boolean;
  /** How it was passed: with an answer of the learner's own, or only with the solution put in. */
  readonly passedWith?: 'own' | 'solution';
  /** The last graded attempt, as a teacher's exercise hands it in after a reload. */
  readonly lastGraded?: GradedAttempt;
  readonly updatedAt: number;
}

/** A graded answer with what the grading said: what "Download my attempt" puts in the file. */
export interface GradedAttempt {
  readonly answer: string;
  readonly passed: boolean;
  readonly withSolution: boolean;
  readonly message: string;
  readonly checks: readonly { readonly label: string; readonly status: 'passed' | 'failed' | 'not-run' }[];
}

/** A learner's attempt file a teacher imported. */
export interface ImportedAttempt {
  /** Content hash of the file: importing the same file twice keeps one row. */
  readonly id: string;
  readonly importedAt: number;
  readonly file: AttemptFile;
  /** The whole exercise, from a version 1 file that carried it. */
  readonly exercise?: TeacherExercise;
  /** This page's own grade of the answer (never the file's claim), with the app version that graded it. */
  readonly graded?: { readonly passed: boolean; readonly message: string; readonly app: string; readonly flagged?: boolean };
}

/** An exercise the teacher made here or opened by its link: what imported attempts are graded against. */
export interface AuthoredExercise {
  /** teacher-link.ts `exerciseId`. */
  readonly id: string;
  readonly exercise: TeacherExercise;
  readonly savedAt: number;
}

export interface SchemaVersion {
  readonly version: number;
  /** Every table of this version as a Dexie store spec (primary key first, then indexes); null drops a table. */
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
  {
    // One database for the whole page: the tables of `osvlab-history` and
    // `osvlab-course` join; `lessons`, which no release wrote, goes. The rows
    // of the old databases are copied by `moveOldDatabases`, not here.
    version: 2,
    stores: {
      runs: 'id, createdAt',
      attempts: 'id, runId',
      prompts: 'hash',
      responseCache: 'key, createdAt',
      settings: 'key',
      drafts: 'handler, updatedAt',
      lessons: null,
      history: '++id, at, handler',
      exercises: 'key',
      imports: 'id, importedAt',
      authored: 'id',
    },
  },
];

export const CURRENT_VERSION = SCHEMA[SCHEMA.length - 1].version;

/** The databases of earlier releases, each copied into `osvlab` once and then deleted. */
export const OLD_DATABASES = ['osvlab-app', 'osvlab-course', 'osvlab-history'] as const;

/** The setting that says the old databases were moved (written by the move's own transaction). */
export const MOVED_SETTING = 'storage.moved';

/** Where IndexedDB comes from (the browser's by default; fake-indexeddb in Node tests), and which old databases to take in. */
export interface DbOptions {
  readonly indexedDB?: unknown;
  readonly IDBKeyRange?: unknown;
  /** Default: OLD_DATABASES for `osvlab`, none for any other name. */
  readonly oldDatabases?: readonly string[];
}

export class OsvlabDb extends Dexie implements RunDb {
  runs!: EntityTable<RunRecord, 'id'>;
  attempts!: EntityTable<AttemptRecord, 'id'>;
  prompts!: EntityTable<PromptRecord, 'hash'>;
  responseCache!: EntityTable<CacheEntry, 'key'>;
  settings!: EntityTable<SettingRow, 'key'>;
  drafts!: EntityTable<Draft, 'handler'>;
  history!: EntityTable<HistoryEntry, 'id'>;
  exercises!: EntityTable<ExerciseProgress, 'key'>;
  imports!: EntityTable<ImportedAttempt, 'id'>;
  authored!: EntityTable<AuthoredExercise, 'id'>;
  /** Set while another tab holds an older version open and this open waits for it. */
  blocked = false;

  constructor(name = DB_NAME, options: DbOptions = {}) {
    const { oldDatabases = name === DB_NAME ? OLD_DATABASES : [], ...deps } = options;
    super(name, deps as ConstructorParameters<typeof Dexie>[1]);
    for (const v of SCHEMA) {
      const version = this.version(v.version).stores(v.stores);
      if (v.upgrade) version.upgrade(v.upgrade);
    }
    const idb = (deps.indexedDB ?? globalThis.indexedDB) as IDBFactory;
    const idbKeyRange = deps.IDBKeyRange ?? globalThis.IDBKeyRange;
    this.on('blocked', () => {
      this.blocked = true;
    });
    // Sticky: runs on every open (Dexie reopens after another tab's upgrade closed it), before any other query.
    this.on(
      'ready',
      async (vip: Dexie) => {
        this.blocked = false;
        if (oldDatabases.length) await moveOldDatabases(vip as OsvlabDb, oldDatabases, idb, idbKeyRange);
      },
      true,
    );
  }
}

/** The rows of one old database, by table, and its version (Dexie's numbering). */
interface OldRows {
  readonly name: string;
  readonly version: number;
  readonly tables: Record<string, unknown[]>;
}

/** Reads every row of database `name`, or undefined when there is no such database. */
async function readOld(name: string, indexedDB: IDBFactory, IDBKeyRange: unknown): Promise<OldRows | undefined> {
  // No version declared: Dexie opens the database as it is, and fails (creating nothing) when it does not exist.
  const old = new Dexie(name, { indexedDB, IDBKeyRange } as ConstructorParameters<typeof Dexie>[1]);
  try {
    await old.open();
  } catch (e) {
    if ((e as { name?: string }).name === 'NoSuchDatabaseError') return undefined;
    throw e;
  }
  try {
    const tables: Record<string, unknown[]> = {};
    for (const t of old.tables) tables[t.name] = await t.toArray();
    return { name, version: old.verno, tables };
  } finally {
    old.close();
  }
}

/** An imported attempt as `osvlab-course` version 1 kept it: the file carried the whole exercise. */
interface ImportV1 {
  readonly file: Record<string, unknown> & { readonly v?: number; readonly exercise: unknown };
  readonly exercise?: TeacherExercise;
}

/** The version 2 form of an import row of `osvlab-course` (its own upgrade, done here when the row comes from version 1). */
function importV2(row: ImportV1): ImportedAttempt {
  if (row.file.v !== 1) return row as unknown as ImportedAttempt;
  const ex = row.file.exercise as TeacherExercise;
  return { ...row, exercise: ex, file: { ...row.file, v: 2, exercise: { title: ex.title, handler: ex.handler }, withSolution: false } } as unknown as ImportedAttempt;
}

const rows = <T>(old: OldRows | undefined, table: string): T[] => (old?.tables[table] ?? []) as T[];

/**
 * Copies the rows of the old databases into `db` in one transaction (all or
 * none), which also writes MOVED_SETTING, then deletes the old databases:
 * only after the copy committed. Once the setting is there an open reads no
 * old database, unless one is there again: a delete another tab held up, or
 * a tab of the old release that wrote after the move (its Dexie reopens the
 * database). Such a leftover is merged the same way, then deleted.
 */
async function moveOldDatabases(db: OsvlabDb, names: readonly string[], idb: IDBFactory, idbKeyRange: unknown): Promise<void> {
  const moved = await db.settings.get(MOVED_SETTING);
  // Where the browser lists its databases, only those there are opened (opening one that is not creates and deletes it).
  const there = typeof idb.databases === 'function' ? new Set((await idb.databases()).map((d) => d.name)) : undefined;
  if (moved && !there) return;
  const toRead = there ? names.filter((n) => there.has(n)) : names;
  if (moved && !toRead.length) return;
  const found = (await Promise.all(toRead.map((n) => readOld(n, idb, idbKeyRange)))).filter((o) => o !== undefined);
  await db.transaction('rw', [db.settings, db.drafts, db.history, db.exercises, db.imports, db.authored], async () => {
    const first = !(await db.settings.get(MOVED_SETTING));
    await mergeOld(db, found, first);
    if (first) await db.settings.put({ key: MOVED_SETTING, value: { at: Date.now(), from: found.map((o) => `${o.name}@${o.version}`) } });
  });
  await Promise.all(found.map((o) => deleteOld(o.name, idb)));
}

/**
 * Puts the rows of `found` into `db` (inside the caller's transaction). A row
 * already there wins over an old one, except that a draft or an exercise's
 * progress saved later wins. History entries keep their ids on the first
 * move (the table is empty then); a leftover's entries are added with new
 * ids, leaving out any already there (same handler, implementation, time and spec).
 */
async function mergeOld(db: OsvlabDb, found: readonly OldRows[], first: boolean): Promise<void> {
  const byName = (n: string) => found.find((o) => o.name === n);
  const app = byName('osvlab-app');
  const course = byName('osvlab-course');
  const history = byName('osvlab-history');
  const absent = async <T>(list: T[], have: () => Promise<unknown[]>, key: (r: T) => string) => {
    const keys = new Set((await have()).map(String));
    return list.filter((r) => !keys.has(key(r)));
  };
  const later = async <T extends { readonly updatedAt: number }>(list: T[], have: () => Promise<T[]>, key: (r: T) => string) => {
    const saved = new Map((await have()).map((r) => [key(r), r.updatedAt]));
    return list.filter((r) => (saved.get(key(r)) ?? -Infinity) < r.updatedAt);
  };
  await db.settings.bulkPut(await absent(rows<SettingRow>(app, 'settings'), () => db.settings.toCollection().primaryKeys(), (r) => r.key));
  await db.drafts.bulkPut(await later(rows<Draft>(app, 'drafts'), () => db.drafts.toArray(), (r) => r.handler));
  await db.exercises.bulkPut(await later(rows<ExerciseProgress>(course, 'exercises'), () => db.exercises.toArray(), (r) => r.key));
  await db.imports.bulkPut(await absent(rows<ImportV1>(course, 'imports').map(importV2), () => db.imports.toCollection().primaryKeys(), (r) => r.id));
  await db.authored.bulkPut(await absent(rows<AuthoredExercise>(course, 'authored'), () => db.authored.toCollection().primaryKeys(), (r) => r.id));
  const entries = rows<HistoryEntry>(history, 'entries');
  if (first) await db.history.bulkPut(entries);
  else {
    const sig = (e: HistoryEntry) => JSON.stringify([e.handler, e.variant, e.at, e.spec]);
    const kept = new Set((await db.history.toArray()).map(sig));
    await db.history.bulkAdd(entries.filter((e) => !kept.has(sig(e))).map(({ id: _id, ...rest }) => rest));
  }
}

/**
 * Deletes database `name`. A tab that still holds it open (an old version of
 * the app) delays the delete until it closes: the browser keeps the request,
 * and this returns without waiting for it.
 */
function deleteOld(name: string, idb: IDBFactory): Promise<void> {
  return new Promise((resolve) => {
    const req = idb.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

/** Why the storage cannot be used now, in words; `code` names the case. */
export class StorageError extends Error {
  constructor(
    readonly code: 'storage-blocked' | 'storage-upgrade-failed' | 'storage-unavailable',
    message: string,
    /** What the browser or Dexie threw, if anything. */
    readonly reason?: unknown,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const BLOCKED_MESSAGE =
  "This browser's storage for OSVLab is being upgraded once, and another OSVLab tab opened before the update still holds the old version: close or reload the other OSVLab tabs and the upgrade finishes on its own. Nothing saved is lost.";

/** The StorageError for an open that failed with `e`. */
export function storageError(e: unknown): StorageError {
  if (e instanceof StorageError) return e;
  const name = (e as { name?: string; inner?: { name?: string } })?.inner?.name ?? (e as { name?: string })?.name ?? '';
  const detail = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  if (/Quota/i.test(name) || /Quota/i.test(detail))
    return new StorageError('storage-upgrade-failed', "This browser's storage for the site is full, so the one-time upgrade of OSVLab's storage could not finish: nothing was changed and what earlier versions saved is kept. Make room (remove old runs, or other sites' data) and reload the page.", e);
  if (/Open|Invalid|Security|Missing/i.test(name))
    return new StorageError('storage-unavailable', `This browser does not let OSVLab use its storage (IndexedDB ${name}: a private window, or storage turned off for this site). Nothing that was saved is lost.`, e);
  return new StorageError('storage-upgrade-failed', `The one-time upgrade of this browser's storage for OSVLab failed (${detail}): nothing was changed and what earlier versions saved is kept. Reload the page to try again.`, e);
}

let db: OsvlabDb | undefined;

/** The page's database (not yet open). */
export function storage(): OsvlabDb {
  db ??= new OsvlabDb();
  return db;
}

/**
 * The page's database, open and up to date. Rejects with a StorageError
 * when it cannot be: at once with the blocked message while another tab holds
 * an older version (the open goes on waiting, and finishes when that tab lets
 * go), or with the reason the open or the copy failed.
 */
export function openStorage(): Promise<OsvlabDb> {
  const d = storage();
  if (d.isOpen()) return Promise.resolve(d);
  if (d.blocked) return Promise.reject(new StorageError('storage-blocked', BLOCKED_MESSAGE));
  return new Promise((resolve, reject) => {
    const onBlocked = () => reject(new StorageError('storage-blocked', BLOCKED_MESSAGE));
    d.on('blocked', onBlocked);
    d.open().then(
      () => resolve(d),
      (e: unknown) => reject(storageError(e)),
    ).finally(() => d.on('blocked').unsubscribe(onBlocked));
  });
}

/**
 * Opens the page's database and calls `show` with what the shell must say:
 * the message while the one-time upgrade waits for another tab or has
 * failed, '' once the database is open. (No IndexedDB at all is said where
 * storage is used, as before.)
 */
export function watchStorage(show: (message: string) => void): void {
  openStorage().then(
    () => show(''),
    (e: StorageError) => {
      if (e.code === 'storage-unavailable') return;
      show(e.message);
      if (e.code === 'storage-blocked')
        storage()
          .open()
          .then(
            () => show(''),
            (f: unknown) => show(storageError(f).message),
          );
    },
  );
}
