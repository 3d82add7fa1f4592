/**
 * The playground's history: every Verify kept with its spec, handler,
 * implementation, verdict, time and an editable title, in the `history`
 * table of the page's one database (storage.ts, loaded on first use:
 * storage-soon.ts). Every failure to store is a
 * HistoryStorageError with a message that says what happened; what was saved
 * before stays as it was (each write is one transaction).
 */
import type { HistoryEntry } from './storage.ts';
import { openStorage } from './storage-soon.ts';

/** The export file's format. */
export const HISTORY_FORMAT = 'osvlab-history';

export class HistoryStorageError extends Error {}

/** storage.ts's StorageError, known by its name: that module loads on first use, and may be what failed to load. */
function storageFailure(e: unknown): { readonly code: string; readonly message: string; readonly reason?: unknown } | undefined {
  return e instanceof Error && e.name === 'StorageError' ? (e as Error & { code: string; reason?: unknown }) : undefined;
}

/** Why storing failed, in words. */
function why(failure: unknown): HistoryStorageError {
  // The upgrade waiting for another tab: its own words. Any other failure to open: the browser's reason, as below.
  const storageError = storageFailure(failure);
  if (storageError?.code === 'storage-blocked') return new HistoryStorageError(storageError.message);
  const e = storageError ? storageError.reason : failure;
  const name = (e as { name?: string; inner?: { name?: string } })?.inner?.name ?? (e as { name?: string })?.name ?? '';
  if (/Quota/i.test(name)) return new HistoryStorageError("The browser's storage for this site is full: this version was not kept in the history (earlier ones are still there). Export the history and remove old versions to make room.");
  if (/Open|Invalid|Security|Unknown|Missing|Database/i.test(name))
    return new HistoryStorageError(`The history cannot be stored in this browser (IndexedDB ${name || 'is blocked'}: a private window, or storage turned off for this site). Nothing that was saved is lost.`);
  return new HistoryStorageError(`The history could not be stored: ${e instanceof Error ? e.message : String(e)}. Nothing that was saved is lost.`);
}

async function guarded<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw why(e);
  }
}

export const history = {
  add: (e: HistoryEntry) => guarded(async () => (await openStorage()).history.add(e)),
  all: () => guarded(async () => (await openStorage()).history.orderBy('at').reverse().toArray()),
  rename: (id: number, title: string) => guarded(async () => (await openStorage()).history.update(id, { title })),
  remove: (id: number) => guarded(async () => (await openStorage()).history.delete(id)),
  /** Adds `entries` (ids dropped: they get new ones), all or none. */
  addAll: (entries: readonly HistoryEntry[]) =>
    guarded(async () => {
      const db = await openStorage();
      return db.transaction('rw', db.history, () => db.history.bulkAdd(entries.map(({ id: _id, ...rest }) => rest)));
    }),
};
