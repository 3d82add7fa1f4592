// The playground's history store (src/app/lib/history-db.ts, in the page's one database) over
// fake-indexeddb, with the browser's failures made where a browser makes
// them (an object store's add throws QuotaExceededError; opening the
// database fails as in a private window): a failing write says clearly what
// happened, and every version saved before is still there, unchanged.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryStorageError, history } from '../../src/app/lib/history-db.ts';
import type { HistoryEntry } from '../../src/app/lib/storage.ts';

const entry = (n: number): HistoryEntry => ({ handler: 'sys_dup', variant: '', spec: `def sys_dup(old, oldfd, pid, newfd):\n    pass  # ${n}\n`, status: 'refuted', at: n, title: `v${n}` });

/** Makes IDBObjectStore.add throw `name` from the `from`-th call on (1-based), as a browser whose quota is spent does. */
function failAdds(name: string, from = 1): void {
  const real = IDBObjectStore.prototype.add;
  let calls = 0;
  vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
    if (++calls >= from) throw new DOMException('The quota has been exceeded.', name);
    return real.apply(this, args);
  });
}

const saved = async () => (await history.all()).map((e) => [e.title, e.spec]);

afterEach(() => vi.restoreAllMocks());

describe('history storage that is full or blocked', () => {
  it('a write that fails on a full store says so, and what was saved before is all still there', async () => {
    await history.add(entry(1));
    await history.add(entry(2));
    const before = await saved();
    expect(before).toHaveLength(2);

    failAdds('QuotaExceededError');
    const err = await history.add(entry(3)).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(HistoryStorageError);
    expect((err as Error).message).toMatch(/storage for this site is full: this version was not kept in the history \(earlier ones are still there\)/);
    vi.restoreAllMocks();
    expect(await saved()).toEqual(before);

    // An import that fails half-way adds none of its entries (all or none), and loses none of the old ones.
    failAdds('QuotaExceededError', 2);
    const imported = await history.addAll([entry(4), entry(5), entry(6)]).then(() => undefined, (e: unknown) => e);
    expect((imported as Error).message).toMatch(/is full/);
    vi.restoreAllMocks();
    expect(await saved()).toEqual(before);

    // Room again: the next write is kept beside the old ones.
    await history.add(entry(7));
    expect((await saved()).map(([t]) => t)).toEqual(['v7', 'v2', 'v1']);
  });

  it('a database the browser will not open (a private window) gives the blocked message, and the saved versions come back with it', async () => {
    vi.resetModules();
    const fresh = await import('../../src/app/lib/history-db.ts');
    vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('IndexedDB is disabled in this context.', 'SecurityError');
    });
    const err = await fresh.history.all().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(fresh.HistoryStorageError);
    expect((err as Error).message).toMatch(/^The history cannot be stored in this browser \(IndexedDB .*private window.*\)\. Nothing that was saved is lost\.$/);
    vi.restoreAllMocks();
    // The database itself was never touched: the first test's versions are all there.
    vi.resetModules();
    const again = await import('../../src/app/lib/history-db.ts');
    expect((await again.history.all()).map((e) => e.title)).toEqual(['v7', 'v2', 'v1']);
  });
});
