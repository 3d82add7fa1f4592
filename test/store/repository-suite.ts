/** One behavioural suite both repositories (Dexie and JSONL) must pass. */
import { describe, expect, it } from 'vitest';
import type { Repository } from '../../src/store/repository.ts';
import { RunExistsError, loadPrices } from '../../src/store/repository.ts';
import { DEFAULT_PRICES } from '../../src/core/llm/prices.ts';
import { PROMPT, REPAIR_PROMPT, makeAttempt, makeRun } from './fixtures.ts';

export interface Harness {
  /** A fresh, empty repository. */
  open(): Promise<Repository>;
  /** The same storage opened again (as after a restart). */
  reopen(repo: Repository): Promise<Repository>;
}

const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));

export function repositorySuite(name: string, h: Harness): void {
  describe(`${name} repository`, () => {
    it('stores and reads back a run, and keeps it across a reopen', async () => {
      const repo = await h.open();
      expect(await repo.listRuns()).toEqual([]);
      const run = makeRun();
      await repo.putRun(run);
      expect(await repo.getRun('run-1')).toEqual(run);
      await repo.putRun({ ...run, status: 'cancelled', updatedAt: 5 });
      const again = await h.reopen(repo);
      expect(await again.getRun('run-1')).toMatchObject({ status: 'cancelled', updatedAt: 5 });
      expect(await again.listRuns()).toHaveLength(1);
      expect(await again.getRun('nope')).toBeUndefined();
      await again.close();
    });

    it('upserts attempts by id: the grade added later replaces the ungraded record', async () => {
      const repo = await h.open();
      await repo.putRun(makeRun());
      const ungraded = makeAttempt('run-1', 'sys_dup-v0', 0, 0, { grade: undefined, gradedAt: undefined });
      await repo.putAttempt(ungraded);
      await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 1, 0));
      await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
      await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 1));
      const again = await h.reopen(repo);
      const list = byId(await again.listAttempts('run-1'));
      expect(list.map((a) => a.id)).toEqual(['run-1|sys_dup-v0|0|0', 'run-1|sys_dup-v0|0|1', 'run-1|sys_dup-v0|1|0']);
      expect(list[0].grade?.category).toBe('semantic');
      expect(list[0]).toEqual(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
      expect(await again.listAttempts('other-run')).toEqual([]);
      await again.close();
    });

    it('stores prompts by hash, including repair prompts that continue a base', async () => {
      const repo = await h.open();
      await repo.putPrompt(PROMPT);
      await repo.putPrompt(PROMPT);
      await repo.putPrompt(REPAIR_PROMPT);
      const again = await h.reopen(repo);
      expect(await again.getPrompt(PROMPT.hash)).toEqual(PROMPT);
      expect(await again.getPrompt(REPAIR_PROMPT.hash)).toEqual(REPAIR_PROMPT);
      expect(await again.getPrompt('e'.repeat(64))).toBeUndefined();
      await again.close();
    });

    it('caches responses by key', async () => {
      const repo = await h.open();
      const entry = { key: 'f'.repeat(64), completion: { text: 'hi', model: 'm', usage: { input: 1, output: 2 }, finishReason: 'stop' as const, latencyMs: 3 }, createdAt: 9 };
      expect(await repo.getCached(entry.key)).toBeUndefined();
      await repo.putCached(entry);
      const again = await h.reopen(repo);
      expect(await again.getCached(entry.key)).toEqual(entry);
      await again.close();
    });

    it('keeps settings, and the price table merges the user edits over the defaults', async () => {
      const repo = await h.open();
      expect(await loadPrices(repo)).toEqual(DEFAULT_PRICES);
      await repo.putSetting('prices', { 'my-model': { input: 1, output: 2 } });
      await repo.putSetting('theme', 'dark');
      const again = await h.reopen(repo);
      expect(await again.getSetting('theme')).toBe('dark');
      const prices = await loadPrices(again);
      expect(prices['my-model']).toEqual({ input: 1, output: 2 });
      expect(prices['gpt-4o']).toEqual(DEFAULT_PRICES['gpt-4o']);
      await again.close();
    });

    it('deletes a run with its attempts', async () => {
      const repo = await h.open();
      await repo.putRun(makeRun());
      await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
      await repo.deleteRun('run-1');
      const again = await h.reopen(repo);
      expect(await again.getRun('run-1')).toBeUndefined();
      expect(await again.listAttempts('run-1')).toEqual([]);
      await again.close();
    });

    it('imports a bundle whole, and refuses one whose run exists without writing', async () => {
      const repo = await h.open();
      const attempts = [makeAttempt('run-1', 'sys_dup-v0', 0, 0), makeAttempt('run-1', 'sys_dup-v1', 0, 0)];
      await repo.importBundle({ run: makeRun(), prompts: [PROMPT, REPAIR_PROMPT], attempts });
      expect(byId(await repo.listAttempts('run-1'))).toEqual(byId(attempts));
      const extra = makeAttempt('run-1', 'sys_dup-v1', 1, 0);
      await expect(repo.importBundle({ run: makeRun(), prompts: [], attempts: [extra] })).rejects.toBeInstanceOf(RunExistsError);
      const again = await h.reopen(repo);
      expect(await again.listAttempts('run-1')).toHaveLength(2);
      await again.close();
    });
  });
}
