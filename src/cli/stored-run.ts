/**
 * A stored run as the CLI's commands take it: a run directory (made by
 * `run`, `grade --out`, `merge`, `regrade --out`) or a run file (exported
 * from the web app's Runs page, or by `merge --export`). Both give the same
 * records, so `compare`, `merge` and `regrade` treat a run made in the page
 * like one made here (docs/scale.md, "Merging across front ends").
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type RunFile, formatValidationErrors, parseRunFile } from '../core/eval/files/run-file.ts';
import type { AttemptRecord, PromptRecord, RunRecord } from '../core/eval/run/run-types.ts';
import type { CacheEntry } from '../core/llm/cache.ts';
import { type DamagedLine, JsonlRepository, readJsonl } from '../store/jsonl.ts';
import { UsageError } from './args.ts';
import { RESPONSES_CAP, readInput } from './read-input.ts';
import { usageErrors } from './run-scale.ts';

export interface StoredRun {
  /** The path it was read from, for messages. */
  readonly source: string;
  /** Undefined for a run directory without run.json. */
  readonly run: RunRecord | undefined;
  readonly attempts: readonly AttemptRecord[];
  /** Each prompt once. */
  readonly prompts: readonly PromptRecord[];
  /** A run directory's response cache (a run file carries none). */
  readonly cache: readonly CacheEntry[];
  /** Lines of a run directory that could not be read, with the file named by its path. */
  readonly damaged: readonly DamagedLine[];
}

export function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Reads run directory `dir` (missing run.json: `run` is undefined). */
export async function readRunDir(dir: string): Promise<StoredRun> {
  if (!isDirectory(dir)) throw new UsageError(`${dir}: no such run directory`);
  const store = await usageErrors(() => JsonlRepository.open(dir, { create: false }));
  try {
    const [run] = await store.listRuns();
    const attempts = run ? await store.listAttempts(run.id) : [];
    const prompts = (await usageErrors(() => readJsonl<PromptRecord>(join(dir, 'prompts.jsonl')))).rows;
    const cache = (await usageErrors(() => readJsonl<CacheEntry>(join(dir, 'cache.jsonl')))).rows;
    const unique = new Map(prompts.map((p) => [p.hash, p]));
    return { source: dir, run, attempts, prompts: [...unique.values()], cache, damaged: store.damaged.map((d) => ({ ...d, file: join(dir, d.file) })) };
  } finally {
    await store.close();
  }
}

/** Reads run file `file`; a file that is not a valid run file is a usage error naming each problem. */
export async function readRunFile(file: string): Promise<StoredRun> {
  const parsed = parseRunFile(await readInput(file, 'run', RESPONSES_CAP, 'decode'));
  if (!parsed.ok) throw new UsageError(`${file} is not a run file (a run directory, or a run file exported from the Runs page or by merge --export):\n${formatValidationErrors(parsed.errors)}`);
  return fromRunFile(parsed.file, file);
}

/** The records of a parsed run file read from `source`. */
export function fromRunFile(f: RunFile, source: string): StoredRun {
  return { source, run: f.run, attempts: f.attempts, prompts: f.prompts, cache: [], damaged: [] };
}

/** A run directory or a run file, told apart by what is at `path`. */
export function readStoredRun(path: string): Promise<StoredRun> {
  if (!existsSync(path)) throw new UsageError(`${path}: no such run directory or run file`);
  return isDirectory(path) ? readRunDir(path) : readRunFile(path);
}
