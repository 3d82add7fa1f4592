/**
 * Playground drafts (one per handler) and the page's preferences, in the
 * page's one database (`storage.ts`). While its one-time upgrade waits for
 * another tab, these wait with it (the shell says why): a draft is never
 * replaced by a skeleton because it could not be read yet.
 */
import { type Draft, storage } from './storage.ts';

export const drafts = {
  get: (handler: string) => storage().drafts.get(handler),
  put: (d: Draft) => storage().drafts.put(d),
  remove: (handler: string) => storage().drafts.delete(handler),
  all: () => storage().drafts.orderBy('updatedAt').reverse().toArray(),
};

export const settings = {
  async get<T>(key: string, fallback: T): Promise<T> {
    const s = await storage().settings.get(key);
    return s === undefined ? fallback : (s.value as T);
  },
  put: (key: string, value: unknown) => storage().settings.put({ key, value }),
};
