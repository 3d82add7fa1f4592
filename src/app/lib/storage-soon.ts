/**
 * The page's database module (storage.ts: Dexie and the schema, 32 kB with
 * brotli), loaded on first use. What the playground's first screen reaches
 * (its drafts and settings, db.ts; its history, history-db.ts; the shell's
 * storage notice) goes through here, so a share link's first verdict, which
 * reads and writes nothing, does not share a phone's network with those
 * bytes (docs/app.md, "Loading Z3"). Pages that load later import storage.ts
 * itself.
 */
import { loadOnce } from '../../core/load-once.ts';
import type { OsvlabDb } from './storage.ts';

type StorageModule = typeof import('./storage.ts');

/** storage.ts, loaded once (again after a failed load). */
const storageModule = loadOnce((): Promise<StorageModule> => import('./storage.ts'));

/** The page's database, not yet open (storage.ts `storage`). */
export async function storage(): Promise<OsvlabDb> {
  return (await storageModule()).storage();
}

/** The page's database, open and up to date (storage.ts `openStorage`). */
export async function openStorage(): Promise<OsvlabDb> {
  return (await storageModule()).openStorage();
}

/** storage.ts `watchStorage`, once that module is here; `show` hears why if it does not load. */
export async function watchStorage(show: (message: string) => void): Promise<void> {
  try {
    (await storageModule()).watchStorage(show);
  } catch (e) {
    show(`The page's storage code did not load (${e instanceof Error ? e.message : String(e)}): reload the page.`);
  }
}
