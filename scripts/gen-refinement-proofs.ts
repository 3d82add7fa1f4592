/**
 * Rebuilds tasks/hv6/refinement-proofs.json: each oracle's refinement of the
 * kernel as shipped, both sides (the implementation-only obligations and the
 * oracle spec's), proved afresh and stored under the key that ties each to
 * the proof version, the handler, the invariants assumed and the
 * obligations (src/core/verify/refinement-proofs.ts). Entries whose key is
 * still current are kept unless --fresh is given; stale ones are dropped.
 * scripts/gen-lemma-proofs.ts runs this for its handlers first, so the one
 * command that regenerates the lemma proofs regenerates these too. The file
 * is merged with what is on disk after every handler, so shards can share
 * the work.
 *
 *   npx tsx scripts/gen-refinement-proofs.ts [--fresh] [--shard I/N | --handlers a,b] [--timeout MS]
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEnv } from '../src/z3/node.ts';
import { KERNEL } from '../src/core/kernel/content.ts';
import { findHandler } from '../src/core/kernel/handlers.ts';
import { type VerifyEnv, oracleRefinementKeys, proveOracleRefinement } from '../src/core/verify/driver.ts';
import type { StoredProof } from '../src/core/verify/proof-cache.ts';
import { type RefinementProofFile, type RefinementSide, STORED_REFINEMENT_PROOFS } from '../src/core/verify/refinement-proofs.ts';
import { PROOF_VERSION } from '../src/core/version.ts';
import { withFileLock } from './file-lock.ts';

const FILE = join(import.meta.dirname, '../tasks/hv6/refinement-proofs.json');

/** Every handler with an oracle spec, sorted. */
export const ORACLE_HANDLERS = Object.keys(KERNEL.specs).filter((h) => findHandler(h)).sort();

type Entry = Partial<Record<RefinementSide, StoredProof>>;

function onDisk(): RefinementProofFile | undefined {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as RefinementProofFile;
  } catch {
    return undefined;
  }
}

/** Merges `entries` into the file on disk (other shards write it too), keeping only current keys; how many handlers have both sides. */
function save(entries: Record<string, Entry>, env: VerifyEnv): number {
  return withFileLock(FILE, () => {
    const disk = onDisk();
    const merged: Record<string, Entry> = {};
    for (const h of ORACLE_HANDLERS) {
      const keys = oracleRefinementKeys(h, env);
      const e: Entry = {};
      for (const side of ['impl', 'spec'] as const) {
        const p = entries[h]?.[side] ?? disk?.entries[h]?.[side];
        if (p && p.key === keys?.[side]) e[side] = { key: p.key, ms: p.ms };
      }
      if (e.impl || e.spec) merged[h] = e;
    }
    const file: RefinementProofFile = { format: 1, verifier: PROOF_VERSION, entries: merged };
    const tmp = `${FILE}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(tmp, FILE);
    return Object.values(merged).filter((e) => e.impl && e.spec).length;
  });
}

/** Proves (or keeps, when current) the refinement proofs of `handlers`; the failures, if any. */
export async function genRefinementProofs(handlers: readonly string[], env: VerifyEnv, opts: { fresh?: boolean; timeoutMs?: number } = {}): Promise<string[]> {
  const entries: Record<string, Entry> = {};
  const failures: string[] = [];
  for (const handler of handlers) {
    const keys = oracleRefinementKeys(handler, env);
    const kept: Entry = {};
    for (const side of ['impl', 'spec'] as const) {
      const p = opts.fresh ? undefined : ([STORED_REFINEMENT_PROOFS, onDisk()].map((f) => f?.entries[handler]?.[side]).find((x) => x && x.key === keys?.[side]));
      if (p) kept[side] = p;
    }
    if (kept.impl && kept.spec) {
      entries[handler] = kept;
      process.stdout.write(`${handler.padEnd(26)} refinement current\n`);
      continue;
    }
    const r = await proveOracleRefinement(handler, env, opts.timeoutMs);
    failures.push(...r.failures);
    entries[handler] = r.proofs;
    save(entries, env);
    process.stdout.write(`${handler.padEnd(26)} refinement ${(['impl', 'spec'] as const).map((s) => `${s} ${r.proofs[s] ? `proved in ${r.proofs[s]!.ms} ms` : 'NOT proved'}`).join(', ')}\n`);
  }
  const n = save(entries, env);
  process.stdout.write(`tasks/hv6/refinement-proofs.json holds both sides for ${n} of ${ORACLE_HANDLERS.length} handlers (verifier ${PROOF_VERSION})\n`);
  return failures;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const fresh = process.argv.includes('--fresh');
  const t = process.argv.indexOf('--timeout');
  const timeoutMs = t >= 0 ? Number(process.argv[t + 1]) : 120_000;
  const sh = process.argv.indexOf('--shard');
  const [shard, shards] = sh >= 0 ? process.argv[sh + 1].split('/').map(Number) : [0, 1];
  const hl = process.argv.indexOf('--handlers');
  const mine = hl >= 0 ? process.argv[hl + 1].split(',') : ORACLE_HANDLERS.filter((_, i) => i % shards === shard);
  const failures = await genRefinementProofs(mine, await nodeEnv(), { fresh, timeoutMs });
  if (failures.length) {
    process.stderr.write(`not proved (left out):\n  ${failures.join('\n  ')}\n`);
    process.exit(1);
  }
  process.exit(0);
}
