/**
 * The page test/e2e/storage-upgrade.test.ts loads in each browser, bundled
 * with esbuild: the release's frozen store writer (test/app/release-stores.ts)
 * and the app's storage code as the page uses it, behind `window.storageTest`.
 * Each navigation is a fresh start of the page's code, as a new release
 * loading after the old one.
 */
import { authoredExercises, exerciseProgress, importedAttempts } from '../../src/app/lessons/progress-db.ts';
import { drafts, settings } from '../../src/app/lib/db.ts';
import { history } from '../../src/app/lib/history-db.ts';
import { parseStoredKeys } from '../../src/app/lib/key-store.ts';
import { MOVED_SETTING, StorageError, openStorage, storage } from '../../src/app/lib/storage.ts';
import { DexieRepository } from '../../src/store/dexie.ts';
import { snapshotOf, writeReleaseStores } from '../app/release-stores.ts';

let oldTab: IDBDatabase | undefined;

const databases = async () => (await indexedDB.databases()).map((d) => d.name ?? '').sort();

const api = {
  databases,
  writeRelease: (older: boolean) => writeReleaseStores(undefined, older),
  /** Holds `osvlab` open at the release's version (10 in IndexedDB's numbering) and never lets go on request, as a stuck old tab. */
  holdOld: () =>
    new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('osvlab', 10);
      req.onsuccess = () => {
        oldTab = req.result;
        resolve();
      };
      req.onerror = () => reject(req.error);
    }),
  releaseOld: () => oldTab?.close(),
  /** openStorage's answer: 'open', or the StorageError's code and message. */
  tryOpen: () =>
    openStorage().then(
      () => 'open',
      (e: unknown) => (e instanceof StorageError ? { code: e.code, message: e.message } : { code: 'other', message: String(e) }),
    ),
  /** Rows the release wrote, read the ways the page reads them, with rows in the old databases, if any, counted. */
  async read() {
    const db = await openStorage();
    const repo = new DexieRepository(db);
    return {
      snapshot: await snapshotOf(db, MOVED_SETTING),
      moved: (await db.settings.get(MOVED_SETTING))?.value,
      verno: db.verno,
      tables: db.tables.map((t) => t.name).sort(),
      databases: await databases(),
      runs: (await repo.listRuns()).map((r) => r.id),
      attempts: (await repo.listAttempts('run-1')).length,
      drafts: (await drafts.all()).map((d) => d.handler),
      last: await settings.get('playground.last', {}),
      history: (await history.all()).map((e) => [e.id, e.title]),
      exercises: (await exerciseProgress.all()).map((p) => [p.key, p.passed]),
      imports: (await importedAttempts.all()).map((a) => [a.id.slice(0, 1), a.file.v]),
      authored: (await authoredExercises.all()).map((a) => a.exercise.title),
      keys: {
        openai: parseStoredKeys(localStorage.getItem('osvlab.key.openai'), 'https://api.openai.com'),
        anthropic: parseStoredKeys(localStorage.getItem('osvlab.key.anthropic'), 'https://api.anthropic.com'),
      },
    };
  },
  close: () => storage().close(),
};

export type StoragePage = typeof api;

/** What the test's page functions call (test/e2e/storage-upgrade.test.ts declares it). */
(globalThis as unknown as { page: () => StoragePage }).page = () => api;
document.documentElement.dataset.ready = '1';
