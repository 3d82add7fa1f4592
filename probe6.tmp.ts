import { readFileSync } from 'node:fs';
import { nodeEngine } from './src/cli/z3-node.ts';
import { extractSpec } from './src/core/eval/grade/answer.ts';
import { VerifierCaches } from './src/core/verify/caches.ts';
import { declarativeCheck } from './src/core/verify/driver.ts';
const engine = await nodeEngine();
const lines = readFileSync('perf/corpus/answers.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const kinds = process.argv.slice(2);
for (const a of lines.filter((l) => kinds.includes(l.made))) {
  const spec = extractSpec(a.response)!;
  const t = Date.now();
  const d = await declarativeCheck({ handler: a.handler, spec }, { engine, caches: new VerifierCaches() }, 120000, { reuse: false });
  console.log(a.handler.padEnd(24), a.made.padEnd(34), d.status, Date.now() - t);
}
process.exit(0);
