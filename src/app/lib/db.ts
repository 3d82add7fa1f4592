/**
 * Playground drafts (one per handler) and the page's preferences, in the
 * page's one database (`storage.ts`, loaded on first use: storage-soon.ts).
 * While its one-time upgrade waits for another tab, these wait with it (the
 * shell says why): a draft is never replaced by a skeleton because it could
 * not be read yet.
 */
import type { Draft } from './storage.ts';
import { storage } from './storage-soon.ts';

export const drafts = {
  get: async (handler: string) => (await storage()).drafts.get(handler),
  put: async (d: Draft) => (await storage()).drafts.put(d),
  remove: async (handler: string) => (await storage()).drafts.delete(handler),
  all: async () => (await storage()).drafts.orderBy('updatedAt').reverse().toArray(),
};

export const settings = {
  async get<T>(key: string, fallback: T): Promise<T> {
    const s = await (await storage()).settings.get(key);
    return s === undefined ? fallback : (s.value as T);
  },
  put: async (key: string, value: unknown) => (await storage()).settings.put({ key, value }),
};
