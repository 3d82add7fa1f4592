/**
 * The storage interface of the harness, implemented twice: over IndexedDB
 * with Dexie for the browser (`dexie.ts`) and over JSONL files in a run
 * directory for the CLI (`jsonl.ts`). Both pass the same test suite.
 */
import type { AttemptRecord, PromptRecord, RunRecord, RunStore } from '../core/eval/run/run-types.ts';
import type { ResponseCacheStore } from '../core/llm/cache.ts';
import { PRICES_SETTING, type PriceTable, mergePrices } from '../core/llm/prices.ts';

export interface SettingsStore {
  getSetting<T>(key: string): Promise<T | undefined>;
  putSetting(key: string, value: unknown): Promise<void>;
}

/** A whole run as one unit, for imports. */
export interface RunBundle {
  readonly run: RunRecord;
  readonly prompts: readonly PromptRecord[];
  readonly attempts: readonly AttemptRecord[];
}

export interface Repository extends RunStore, ResponseCacheStore, SettingsStore {
  /** Writes a run with its prompts and attempts; fails without writing if the run id exists. */
  importBundle(bundle: RunBundle): Promise<void>;
  close(): Promise<void>;
}

/** The price table: defaults with the user's edits from the settings on top. */
export async function loadPrices(settings: SettingsStore): Promise<PriceTable> {
  return mergePrices(await settings.getSetting<PriceTable>(PRICES_SETTING));
}

export class RunExistsError extends Error {
  constructor(id: string) {
    super(`A run with id "${id}" already exists; nothing was written.`);
    this.name = 'RunExistsError';
  }
}
