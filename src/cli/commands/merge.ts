/**
 * `osvlab merge DIR... --out DIR [--export FILE] [--allow-incomplete]`:
 * combines the run directories of shards 1..N (made with `--shard K/N`) into
 * one run directory, whose `osvlab report` is that of one process doing all
 * the work. `--export` also writes the merged run as a run file, which the
 * web app's Runs page imports. See docs/scale.md.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MergeError, type ShardInput, mergeShards } from '../../core/eval/run/shard-merge.ts';
import type { PromptRecord } from '../../core/eval/run/run-types.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import type { CacheEntry } from '../../core/llm/cache.ts';
import { JsonlRepository, readJsonl } from '../../store/jsonl.ts';
import { exportStoredRun } from '../../store/transfer.ts';
import { UsageError, parseArgs } from '../args.ts';

/** A shard's run directory as mergeShards takes it, with its response cache. */
export async function readShard(dir: string): Promise<{ input: ShardInput; cache: CacheEntry[] }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir}: no such run directory`);
  const store = await JsonlRepository.open(dir);
  try {
    const [run] = await store.listRuns();
    const attempts = run ? await store.listAttempts(run.id) : [];
    const prompts = (await readJsonl<PromptRecord>(join(dir, 'prompts.jsonl'))).rows;
    const cache = (await readJsonl<CacheEntry>(join(dir, 'cache.jsonl'))).rows;
    const unique = new Map(prompts.map((p) => [p.hash, p]));
    return { input: { source: dir, run, attempts, prompts: [...unique.values()] }, cache };
  } finally {
    await store.close();
  }
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['out', 'export'], flags: ['allow-incomplete', 'json'] });
  const out = args.values.get('out');
  if (!out) throw new UsageError('--out DIR is required (a new directory for the merged run)');
  if (args.positionals.length === 0) throw new UsageError('which shard directories? e.g. osvlab merge shard-1 shard-2 shard-3 --out merged');
  if (existsSync(join(out, 'run.json'))) throw new UsageError(`${out} already holds a run; choose a new --out`);

  const shards = [];
  for (const dir of args.positionals) shards.push(await readShard(dir));
  let merged;
  try {
    merged = mergeShards(shards.map((s) => s.input), { allowIncomplete: args.flags.has('allow-incomplete') });
  } catch (e) {
    if (e instanceof MergeError) {
      process.stderr.write(`osvlab merge: ${e.code}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }

  const store = await JsonlRepository.open(out);
  try {
    await store.importBundle(merged);
    // The response cache too, so that rerunning the merged run (e.g. with more repair rounds) finds every answer.
    const seen = new Set<string>();
    for (const s of shards) {
      for (const c of s.cache) {
        if (seen.has(c.key)) continue;
        seen.add(c.key);
        await store.putCached(c);
      }
    }
    const file = args.values.get('export');
    if (file) {
      const exported = await exportStoredRun(store, merged.run.id, await loadTasks(), new Date(merged.run.updatedAt).toISOString());
      await writeFile(file, JSON.stringify(exported) + '\n', 'utf8');
    }
  } finally {
    await store.close();
  }
  const summary = { run: merged.run.id, shards: shards.length, attempts: merged.attempts.length, prompts: merged.prompts.length, status: merged.run.status, out };
  if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`merged ${shards.length} shards of run ${merged.run.id} into ${out}: ${merged.attempts.length} attempts, status ${merged.run.status}\n`);
  return 0;
}
