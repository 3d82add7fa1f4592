/**
 * `osvlab merge DIR|FILE... --out DIR` (options: ../declarations.ts):
 * combines shards 1..N of a run (made with `--shard K/N`, or on the Evaluate
 * page with "Run one shard" and exported from the Runs page as a run file)
 * into one run directory, whose `osvlab report` is that of one process doing
 * all the work. `--export` also writes the merged run as a run file, which
 * the web app's Runs page imports. See docs/scale.md.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MergeError, type ShardInput, mergeShards } from '../../core/eval/run/shard-merge.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import type { CacheEntry } from '../../core/llm/cache.ts';
import { type DamagedLine, assertWritableRunDir } from '../../store/jsonl.ts';
import { writeError } from '../../store/run-dir-file.ts';
import { exportStoredRun } from '../../store/transfer.ts';
import { UsageError, parseArgs } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { openRunDir, usageErrors } from '../run-scale.ts';
import { type StoredRun, isDirectory, readRunDir, readRunFile } from '../stored-run.ts';

/** `--export FILE` must be a file that can be written: not a folder, and in a folder that exists. */
function checkExportPath(file: string): void {
  if (file === '') throw new UsageError('--export needs a file name');
  if (existsSync(file) && !statSync(file).isFile()) throw new UsageError(`RUNDIR003 --export ${file} is not a regular file (a folder?); give the name of the run file to write`);
  const parent = dirname(file);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) throw new UsageError(`RUNDIR003 --export ${file}: ${parent} is not a folder`);
}

/** A shard's run directory as mergeShards takes it, with its response cache and the lines it skipped. */
export async function readShard(dir: string): Promise<{ input: ShardInput; cache: CacheEntry[]; damaged: readonly DamagedLine[] }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir}: no such run directory`);
  return shardOf(await readRunDir(dir));
}

/** A stored run (a run directory, or a run file exported from the page) as mergeShards takes it. */
function shardOf(s: StoredRun): { input: ShardInput; cache: CacheEntry[]; damaged: readonly DamagedLine[] } {
  return { input: { source: s.source, run: s.run, attempts: s.attempts, prompts: s.prompts }, cache: [...s.cache], damaged: s.damaged };
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('merge'));
  const out = args.values.get('out');
  if (!out) throw new UsageError('--out DIR is required (a new directory for the merged run)');
  if (args.positionals.length === 0) throw new UsageError('which shard directories? e.g. osvlab merge shard-1 shard-2 shard-3 --out merged');
  // Everything that could refuse is checked before anything is written (a directory another process writes to first).
  await usageErrors(async () => assertWritableRunDir(out));
  if (existsSync(join(out, 'run.json'))) throw new UsageError(`${out} already holds a run; choose a new --out`);
  const file = args.values.get('export');
  if (file !== undefined) checkExportPath(file);

  const shards = [];
  for (const path of args.positionals) shards.push(isDirectory(path) || !existsSync(path) ? await readShard(path) : shardOf(await readRunFile(path)));
  const damaged = shards.flatMap((s) => s.damaged);
  for (const d of damaged) process.stderr.write(`osvlab merge: skipped ${d.file} line ${d.line}: ${d.reason}\n`);
  let merged;
  try {
    merged = mergeShards(shards.map((s) => s.input), { allowIncomplete: args.flags.has('allow-incomplete') });
    if (damaged.length) {
      // The lines skipped are lost from the merged run: it says so, and so does every report of it.
      const why = `merged without ${damaged.length} damaged line${damaged.length > 1 ? 's' : ''} of the shards (${damaged.map((d) => `${d.file} line ${d.line}`).join(', ')})`;
      merged = { ...merged, run: { ...merged.run, partial: why, status: merged.run.status === 'done' ? ('incomplete' as const) : merged.run.status } };
    }
  } catch (e) {
    if (e instanceof MergeError) {
      process.stderr.write(`osvlab merge: ${e.code}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }

  const store = await openRunDir(out);
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
    if (file) {
      const exported = await exportStoredRun(store, merged.run.id, await loadTasks(), new Date(merged.run.updatedAt).toISOString());
      await writeFile(file, JSON.stringify(exported) + '\n', 'utf8').catch((e: unknown) => {
        throw writeError(file, e);
      });
    }
  } finally {
    await store.close();
  }
  const summary = { run: merged.run.id, shards: shards.length, attempts: merged.attempts.length, prompts: merged.prompts.length, status: merged.run.status, out, skipped: damaged.length, ...(merged.run.partial ? { partial: merged.run.partial } : {}) };
  if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`merged ${shards.length} shards of run ${merged.run.id} into ${out}: ${merged.attempts.length} attempts, status ${merged.run.status}${merged.run.partial ? ` (partial: ${merged.run.partial})` : ''}\n`);
  return damaged.length ? 2 : 0;
}
