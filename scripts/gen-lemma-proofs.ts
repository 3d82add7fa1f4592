/**
 * Rebuilds tasks/hv6/lemma-proofs.json: the declarative proof of every
 * oracle's step (spec invariants and every checked lemma), under the key that
 * ties it to the verifier version, the lemma set, the statement and the step
 * (src/core/verify/proof-cache.ts). Entries whose key is still current are
 * kept unless --fresh is given. Strict checks of answers equal to an oracle
 * then reuse these proofs (docs/lemmas.md, "Reusing the oracle's proof").
 *
 *   npx tsx scripts/gen-lemma-proofs.ts [--fresh] [--timeout MS]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEngine } from '../src/cli/z3-node.ts';
import { KERNEL } from '../src/core/kernel/content.ts';
import { findHandler } from '../src/core/kernel/handlers.ts';
import { oracleProofKey, proveOracle } from '../src/core/verify/declarative.ts';
import { type ProofFile, type StoredProof, storedProof } from '../src/core/verify/proof-cache.ts';
import { VERIFIER_VERSION } from '../src/core/version.ts';

const FILE = join(import.meta.dirname, '../tasks/hv6/lemma-proofs.json');
const fresh = process.argv.includes('--fresh');
const t = process.argv.indexOf('--timeout');
const timeoutMs = t >= 0 ? Number(process.argv[t + 1]) : 120_000;

const engine = await nodeEngine();
const entries: Record<string, StoredProof> = {};
const failures: string[] = [];
for (const handler of Object.keys(KERNEL.specs).filter((h) => findHandler(h)).sort()) {
  const key = oracleProofKey(handler);
  if (!key) throw new Error(`${handler}: the oracle spec does not run`);
  const kept = fresh ? undefined : storedProof(handler, key);
  if (kept) {
    entries[handler] = kept;
    process.stdout.write(`${handler.padEnd(26)} current\n`);
    continue;
  }
  const r = (await proveOracle(handler, engine, { timeoutMs }))!;
  if (!r.proof) {
    failures.push(`${handler}: ${r.results.filter((x) => x.status !== 'proved').map((x) => `${x.name}=${x.status}`).join(', ')}`);
    continue;
  }
  entries[handler] = r.proof;
  process.stdout.write(`${handler.padEnd(26)} proved in ${r.proof.ms} ms\n`);
}
const file: ProofFile = { format: 1, verifier: VERIFIER_VERSION, entries };
writeFileSync(FILE, `${JSON.stringify(file, null, 1)}\n`);
process.stdout.write(`wrote ${Object.keys(entries).length} proofs to tasks/hv6/lemma-proofs.json (verifier ${VERIFIER_VERSION})\n`);
if (failures.length) {
  process.stderr.write(`not proved (left out):\n  ${failures.join('\n  ')}\n`);
  process.exit(1);
}
