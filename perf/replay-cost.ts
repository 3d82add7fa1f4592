/**
 * What the concrete pass (src/core/verify/run-refute.ts) costs per answer,
 * here and in another checkout, in one process: for every answer of a
 * corpus, each tree builds the refinement step and runs `refuteByRunning`
 * on it (the pass grading runs before any query), the two trees taking
 * turns answer by answer so that the machine's load falls on both alike.
 * Prints each tree's total time in the pass, split by whether it refuted,
 * and the ratio.
 *
 *   npx tsx perf/replay-cost.ts --against DIR [--corpus FILE] [--rounds N]
 *
 * DIR: a checkout of the other version (its node_modules may be a link to
 * these). --corpus: a JSONL of `{handler, response}` or `{task_id, response}`
 * (default perf/corpus/per-task.jsonl).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const against = option('against');
if (!against) throw new Error('--against DIR is required');
const corpus = option('corpus') ?? join(import.meta.dirname, 'corpus', 'per-task.jsonl');
const rounds = Number(option('rounds') ?? 1);

interface Tree {
  readonly name: string;
  readonly run: (handler: string, spec: string) => boolean | undefined;
  ms: { refuted: number; passed: number };
}

/** The pass of the tree at `root`, over a solver-free environment of its own (the steps are built before the clock starts). */
async function tree(name: string, root: string): Promise<Tree> {
  const at = (p: string) => import(pathToFileURL(join(root, p)).href);
  const { VerifierCaches } = await at('src/core/verify/index.ts');
  const { buildSteps } = await at('src/core/verify/driver.ts');
  const { specObligations } = await at('src/core/verify/refinement.ts');
  const { refuteByRunning } = await at('src/core/verify/run-refute.ts');
  const { serial } = await at('src/core/pool/serial.ts');
  const { solverFreeEngine } = await at('src/core/service/solver-free.ts');
  const env = { engine: solverFreeEngine(serial()), caches: new VerifierCaches(), solverFree: true };
  const t: Tree = {
    name,
    ms: { refuted: 0, passed: 0 },
    run: (handler, spec) => {
      const steps = buildSteps({ handler, spec }, env);
      if (!steps.ok) return undefined;
      const obligations = specObligations(steps.step);
      const start = performance.now();
      const refuted = refuteByRunning(handler, steps.step, obligations, steps.assume, env.caches) !== undefined;
      t.ms[refuted ? 'refuted' : 'passed'] += performance.now() - start;
      return refuted;
    },
  };
  return t;
}

async function main(): Promise<void> {
  const { extractSpec } = await import('../src/core/eval/grade/answer.ts');
  const rows = readFileSync(corpus, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { handler?: string; task_id?: string; response: string })
    .map((r) => ({ handler: r.handler ?? r.task_id!.replace(/-v\d+$/, ''), spec: extractSpec(r.response) }));
  const trees = [await tree('here', resolve(import.meta.dirname, '..')), await tree('against', resolve(against!))];
  let differ = 0;
  for (let r = 0; r < rounds; r++) {
    for (const [i, row] of rows.entries()) {
      if (!row.spec) continue;
      // Each tree first on every other answer.
      const order = (i + r) % 2 ? [...trees].reverse() : trees;
      const [a, b] = order.map((t) => t.run(row.handler, row.spec!));
      if (a !== b) differ++;
    }
  }
  for (const t of trees) console.log(`${t.name}: ${(t.ms.passed / 1000).toFixed(2)} s on answers it did not refute, ${(t.ms.refuted / 1000).toFixed(2)} s on those it refuted`);
  const [here, other] = trees.map((t) => t.ms.passed + t.ms.refuted);
  console.log(`${corpus}, ${rounds} round(s): here ${(here / 1000).toFixed(2)} s, against ${(other / 1000).toFixed(2)} s (${(here / other).toFixed(2)}x); ${differ} answers refuted by one tree only`);
  process.exit(0);
}

await main();
