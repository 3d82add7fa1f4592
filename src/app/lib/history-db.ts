/**
 * The playground's history (IndexedDB, Dexie): every Verify kept with its
 * spec, handler, implementation, verdict, time and an editable title. A
 * database of its own, so a full or blocked store here never touches the
 * drafts. Every failure to store is a HistoryStorageError with a message
 * that says what happened; what was saved before stays as it was.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { VerdictStatus } from '../../core/verify/verdict.ts';

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

/** The export file's format. */
export const HISTORY_FORMAT = 'osvlab-history';

export class HistoryStorageError extends Error {}

class HistoryDb extends Dexie {
  entries!: EntityTable<HistoryEntry, 'id'>;
  constructor() {
    super('osvlab-history');
    this.version(1).stores({ entries: '++id, at, handler' });
  }
}

let db: HistoryDb | undefined;
const open = () => (db ??= new HistoryDb());

/** Why storing failed, in words. */
function why(e: unknown): HistoryStorageError {
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
  add: (e: HistoryEntry) => guarded(() => open().entries.add(e)),
  all: () => guarded(() => open().entries.orderBy('at').reverse().toArray()),
  rename: (id: number, title: string) => guarded(() => open().entries.update(id, { title })),
  remove: (id: number) => guarded(() => open().entries.delete(id)),
  /** Adds `entries` (ids dropped: they get new ones), all or none. */
  addAll: (entries: readonly HistoryEntry[]) =>
    guarded(() => open().transaction('rw', open().entries, () => open().entries.bulkAdd(entries.map(({ id: _id, ...rest }) => rest)))),
};
