/**
 * Rebuilds tasks/hv6/lemma-proofs.json: the declarative proof of every
 * oracle's step (spec invariants and every checked lemma), under the key that
 * ties it to the verifier version, the lemma set, the statement and the step
 * (src/core/verify/proof-cache.ts). Entries whose key is still current are
 * kept unless --fresh is given; stale ones are dropped. Lemma checks of
 * answers equal to an oracle then reuse these proofs (docs/lemmas.md,
 * "Reusing the oracle's proof"). The file is written after every proof, so
 * an interrupted run keeps what it made; `--shard I/N` proves every N-th
 * handler from the I-th (0-based), so N processes can share the work (each
 * merges its proofs into the file as it goes). It first brings
 * tasks/hv6/refinement-proofs.json up to date for the same handlers
 * (scripts/gen-refinement-proofs.ts), so this one command regenerates every
 * committed proof.
 *
 *   npx tsx scripts/gen-lemma-proofs.ts [--fresh] [--shard I/N | --handlers a,b] [--timeout MS]
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCaches, nodeEnv } from '../src/z3/node.ts';
import { KERNEL } from '../src/core/kernel/content.ts';
import { findHandler } from '../src/core/kernel/handlers.ts';
import { oracleProofKey, proveOracle } from '../src/core/verify/declarative.ts';
import { type ProofFile, STORED_PROOFS, type StoredProof, storedProof } from '../src/core/verify/proof-cache.ts';
import { PROOF_VERSION } from '../src/core/version.ts';
import { withFileLock } from './file-lock.ts';
import { genRefinementProofs } from './gen-refinement-proofs.ts';

const FILE = join(import.meta.dirname, '../tasks/hv6/lemma-proofs.json');
const fresh = process.argv.includes('--fresh');
const t = process.argv.indexOf('--timeout');
const timeoutMs = t >= 0 ? Number(process.argv[t + 1]) : 120_000;

const sh = process.argv.indexOf('--shard');
const [shard, shards] = sh >= 0 ? process.argv[sh + 1].split('/').map(Number) : [0, 1];

const handlers = Object.keys(KERNEL.specs).filter((h) => findHandler(h)).sort();

/** Merges `entries` into the file on disk (written by other shards too), keeping only current keys. */
function save(entries: Record<string, StoredProof>): number {
  return withFileLock(FILE, () => {
    const disk = onDisk();
    const merged: Record<string, StoredProof> = {};
    for (const h of handlers) {
      const e = entries[h] ?? disk?.entries[h];
      if (e && e.key === oracleProofKey(nodeCaches(), h)) merged[h] = { key: e.key, ms: e.ms };
    }
    const file: ProofFile = { format: 1, verifier: PROOF_VERSION, entries: merged };
    const tmp = `${FILE}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(tmp, FILE);
    return Object.keys(merged).length;
  });
}

const env = await nodeEnv();
const entries: Record<string, StoredProof> = {};
const failures: string[] = [];
const hl = process.argv.indexOf('--handlers');
const mine = hl >= 0 ? process.argv[hl + 1].split(',') : handlers.filter((_, i) => i % shards === shard);

/** The proofs on disk now (another process may have added some). */
function onDisk(): ProofFile | undefined {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as ProofFile;
  } catch {
    return undefined;
  }
}

failures.push(...(await genRefinementProofs(mine, env, { fresh, timeoutMs })));
for (const handler of mine) {
  const key = oracleProofKey(nodeCaches(), handler);
  if (!key) throw new Error(`${handler}: the oracle spec does not run`);
  const kept = fresh ? undefined : (storedProof(handler, key) ?? storedProof(handler, key, onDisk() ?? STORED_PROOFS));
  if (kept) {
    entries[handler] = kept;
    process.stdout.write(`${handler.padEnd(26)} current\n`);
    continue;
  }
  const r = (await proveOracle(handler, env, { timeoutMs }))!;
  if (!r.proof) {
    failures.push(`${handler}: ${r.results.filter((x) => x.status !== 'proved').map((x) => `${x.name}=${x.status}`).join(', ')}`);
    continue;
  }
  entries[handler] = r.proof;
  save(entries);
  process.stdout.write(`${handler.padEnd(26)} proved in ${r.proof.ms} ms\n`);
}
const n = save(entries);
process.stdout.write(`tasks/hv6/lemma-proofs.json holds ${n} of ${handlers.length} proofs (verifier ${PROOF_VERSION})\n`);
if (failures.length) {
  process.stderr.write(`not proved (left out):\n  ${failures.join('\n  ')}\n`);
  process.exit(1);
}
