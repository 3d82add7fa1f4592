// The page's one database (src/app/lib/storage.ts) over fake-indexeddb, opened
// on stores the current release wrote (test/app/release-stores.ts): every run,
// draft, setting, history entry and lesson record is there afterwards, the old
// databases are gone only after the copy committed, a second open changes
// nothing, and a copy that fails leaves the old databases as they were.
// test/e2e/storage-upgrade.test.ts does the same in Chromium, Firefox and WebKit.
// The page's own (global) IndexedDB for the one test of the page's singleton; the others each make a profile of their own.
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DexieRepository } from '../../src/store/dexie.ts';
import { CURRENT_VERSION, DB_NAME, MOVED_SETTING, OLD_DATABASES, OsvlabDb, StorageError, storageError } from '../../src/app/lib/storage.ts';
import { RELEASE, RELEASE_DATABASES, expectedAfterUpgrade, snapshotOf, writeReleaseStores } from './release-stores.ts';

/** A browser profile of its own for each test. */
function profile() {
  const indexedDB = new IDBFactory();
  return { indexedDB, IDBKeyRange };
}

const names = async (idb: IDBFactory) => (await idb.databases()).map((d) => d.name).sort();

afterEach(() => vi.restoreAllMocks());

describe('the one database', () => {
  it('takes in every row of the release stores, then deletes the old databases', async () => {
    const deps = profile();
    await writeReleaseStores(deps);
    expect(await names(deps.indexedDB)).toEqual([...RELEASE_DATABASES].sort());

    const db = new OsvlabDb(DB_NAME, deps);
    await db.open();
    expect(db.verno).toBe(CURRENT_VERSION);
    expect(await snapshotOf(db, MOVED_SETTING)).toEqual(expectedAfterUpgrade());
    expect(db.tables.map((t) => t.name)).not.toContain('lessons');
    // Through the repository, as the Runs page reads them.
    const repo = new DexieRepository(db);
    expect((await repo.listRuns()).map((r) => r.id)).toEqual(['run-1', 'run-2']);
    expect(await repo.listAttempts('run-1')).toHaveLength(2);
    expect(await repo.getSetting('prices')).toEqual(RELEASE.runSettings[0].value);
    // A new history entry gets an id after the old ones.
    expect(await db.history.add({ handler: 'sys_dup', variant: '', spec: 'x', status: 'verified', at: 99, title: 'new' })).toBe(6);
    db.close();
    expect(await names(deps.indexedDB)).toEqual([DB_NAME]);
  });

  it('a second open is a no-op: same rows, same mark, nothing read or deleted', async () => {
    const deps = profile();
    await writeReleaseStores(deps);
    const first = new OsvlabDb(DB_NAME, deps);
    await first.open();
    const mark = await first.settings.get(MOVED_SETTING);
    expect(mark?.value).toMatchObject({ from: ['osvlab-app@2', 'osvlab-course@2', 'osvlab-history@1'] });
    const before = await snapshotOf(first, MOVED_SETTING);
    first.close();

    const opens = vi.spyOn(deps.indexedDB, 'open');
    const deletes = vi.spyOn(deps.indexedDB, 'deleteDatabase');
    const second = new OsvlabDb(DB_NAME, deps);
    await second.open();
    expect(opens.mock.calls.map((c) => c[0])).toEqual([DB_NAME]);
    expect(deletes).not.toHaveBeenCalled();
    expect(await second.settings.get(MOVED_SETTING)).toEqual(mark);
    expect(await snapshotOf(second, MOVED_SETTING)).toEqual(before);
    second.close();
  });

  it('merges an old database that is there again (an old tab wrote after the move), then deletes it', async () => {
    const deps = profile();
    await writeReleaseStores(deps);
    const db = new OsvlabDb(DB_NAME, deps);
    await db.open();
    await db.exercises.put({ ...RELEASE.exercises[1], answer: 'saved here later', updatedAt: 100 });
    db.close();
    // A tab of the old release writes again: its Dexie recreates its databases.
    const history = new Dexie('osvlab-history', deps);
    history.version(1).stores({ entries: '++id, at, handler' });
    await history.table('entries').bulkAdd([{ ...RELEASE.history[0], id: undefined }, { handler: 'sys_dup', variant: '', spec: 'late', status: 'verified', at: 70, title: 'late' }]);
    history.close();
    const course = new Dexie('osvlab-course', deps);
    course.version(1).stores({ exercises: 'key', imports: 'id, importedAt' });
    course.version(2).stores({ exercises: 'key', imports: 'id, importedAt', authored: 'id' });
    await course.table('exercises').bulkPut([
      { ...RELEASE.exercises[0], answer: 'old tab, later', updatedAt: 90 },
      { ...RELEASE.exercises[1], answer: 'old tab, earlier', updatedAt: 95 },
    ]);
    course.close();

    const again = new OsvlabDb(DB_NAME, deps);
    await again.open();
    expect((await again.history.orderBy('at').toArray()).map((e) => [e.id, e.title])).toEqual([[1, 'first try'], [2, 'v2'], [5, 'kill'], [6, 'late']]);
    expect((await again.exercises.toArray()).map((p) => p.answer)).toEqual(['old tab, later', 'saved here later']);
    again.close();
    expect(await names(deps.indexedDB)).toEqual([DB_NAME]);
  });

  it('takes in an older install too: app and course at version 1, a version 1 attempt file upgraded on the way', async () => {
    const deps = profile();
    await writeReleaseStores(deps, true);
    const db = new OsvlabDb(DB_NAME, deps);
    await db.open();
    expect(await snapshotOf(db, MOVED_SETTING)).toEqual(expectedAfterUpgrade(true));
    db.close();
  });

  it('a fresh browser (no old databases) opens at the current version with empty tables and the mark', async () => {
    const deps = profile();
    const db = new OsvlabDb(DB_NAME, deps);
    await db.open();
    expect(await db.runs.count()).toBe(0);
    expect((await db.settings.get(MOVED_SETTING))?.value).toMatchObject({ from: [] });
    db.close();
    expect(await names(deps.indexedDB)).toEqual([DB_NAME]);
  });

  it('a copy that fails (storage full) changes nothing: the old databases stay, and the next open copies everything', async () => {
    const deps = profile();
    await writeReleaseStores(deps);
    const real = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'history') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return real.apply(this, args);
    });
    const db = new OsvlabDb(DB_NAME, deps);
    const err = await db.open().then(() => undefined, (e: unknown) => storageError(e));
    expect(err).toBeInstanceOf(StorageError);
    expect(err?.code).toBe('storage-upgrade-failed');
    expect(err?.message).toBe(
      "This browser's storage for the site is full, so the one-time upgrade of OSVLab's storage could not finish: nothing was changed and what earlier versions saved is kept. Make room (remove old runs, or other sites' data) and reload the page.",
    );
    vi.restoreAllMocks();
    // The old databases are all there, with every row; the new one holds none of theirs.
    expect(await names(deps.indexedDB)).toEqual([...RELEASE_DATABASES].sort());
    const history = new Dexie('osvlab-history', deps);
    await history.open();
    expect(await history.table('entries').count()).toBe(RELEASE.history.length);
    history.close();

    const again = new OsvlabDb(DB_NAME, deps);
    await again.open();
    expect(await snapshotOf(again, MOVED_SETTING)).toEqual(expectedAfterUpgrade());
    again.close();
    expect(await names(deps.indexedDB)).toEqual([DB_NAME]);
  });

  it('an upgrade blocked by an old tab gives the blocked message at once, loses nothing, and finishes when that tab lets go', async () => {
    await writeReleaseStores();
    // An old tab holding `osvlab` at the release's version (10 in IndexedDB's numbering) that does not close on request.
    const oldTab = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 10);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const mod = await import('../../src/app/lib/storage.ts');
    const err = await mod.openStorage().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(mod.StorageError);
    expect((err as StorageError).code).toBe('storage-blocked');
    expect((err as Error).message).toBe(mod.BLOCKED_MESSAGE);
    // Asked again while still blocked: the same answer, at once.
    await expect(mod.openStorage()).rejects.toThrow(mod.BLOCKED_MESSAGE);
    expect(await names(indexedDB)).toEqual([...RELEASE_DATABASES].sort());

    oldTab.close();
    await expect.poll(async () => (await mod.openStorage().then(() => 'open', () => 'not yet')) === 'open').toBe(true);
    expect(await snapshotOf(mod.storage(), MOVED_SETTING)).toEqual(expectedAfterUpgrade());
    expect(await names(indexedDB)).toEqual([DB_NAME]);
    mod.storage().close();
  });

  it('names the old databases it takes in, and takes in none for a database of another name', async () => {
    expect([...OLD_DATABASES, DB_NAME].sort()).toEqual([...RELEASE_DATABASES].sort());
    const deps = profile();
    await writeReleaseStores(deps);
    const other = new OsvlabDb('osvlab-other', deps);
    await other.open();
    expect(await other.history.count()).toBe(0);
    other.close();
    expect(await names(deps.indexedDB)).toEqual([...RELEASE_DATABASES, 'osvlab-other'].sort());
  });
});
