/**
 * Playground drafts (one per handler) and the page's preferences, in the
 * page's one database (`storage.ts`).
 */
import { type Draft, openStorage } from './storage.ts';

export const drafts = {
  get: async (handler: string) => (await openStorage()).drafts.get(handler),
  put: async (d: Draft) => (await openStorage()).drafts.put(d),
  remove: async (handler: string) => (await openStorage()).drafts.delete(handler),
  all: async () => (await openStorage()).drafts.orderBy('updatedAt').reverse().toArray(),
};

export const settings = {
  async get<T>(key: string, fallback: T): Promise<T> {
    const s = await (await openStorage()).settings.get(key);
    return s === undefined ? fallback : (s.value as T);
  },
  put: async (key: string, value: unknown) => (await openStorage()).settings.put({ key, value }),
};
