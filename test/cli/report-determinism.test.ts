/**
 * `osvlab report --json` carries the run's samples grouped by meaning
 * (core/eval/stats/determinism.ts), from a run graded by `osvlab grade`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { loadCases } from '../cases/load.ts';
import { startCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-determinism-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pair = (name: string) => loadCases('diff').find((c) => c.name === name)!.text;
const answer = (spec: string) => JSON.stringify({ task_id: 'sys_dup-v0', response: `\`\`\`python\n${spec}\n\`\`\`` });

it('report --json and compare --json: determinism with each task\'s classes, the largest share and the consensus pass@1', async () => {
  const answers = join(root, 'answers.jsonl');
  const specs = [oracleSpec('sys_dup')!, pair('rewrite.py'), pair('wrong-fd.py'), `${pair('wrong-fd.py')}\n# again\n`, pair('cond-only.py')];
  writeFileSync(answers, `${specs.map(answer).join('\n')}\n`);
  const out = join(root, 'run');
  const g = await startCli(['grade', '--responses', answers, '--out', out, '--no-lemmas'], process.env).result;
  expect(g.code, g.err).toBe(0);
  const r = await startCli(['report', out, '--json'], process.env).result;
  expect(r.code, r.err).toBe(0);
  const d = JSON.parse(r.out).determinism;
  expect(d.tasks).toHaveLength(1);
  expect(d.tasks[0].task).toBe('sys_dup-v0');
  expect(d.tasks[0].classes.map((c: { samples: number[]; passes: boolean }) => [c.samples, c.passes])).toEqual([
    [[0, 1], true],
    [[2, 3], false],
    [[4], false],
  ]);
  expect(d.tasks[0].classes[1].against_largest.fields).toEqual(['procs.ofile']);
  expect(d).toMatchObject({ mean_largest_share: 0.4, consensus_pass_at_1: 1, queries: 3 });
  // compare sets the two runs' figures side by side.
  const c = await startCli(['compare', out, out, '--json'], process.env).result;
  expect(c.code, c.err).toBe(0);
  expect(JSON.parse(c.out).determinism).toEqual({ a: { mean_largest_share: 0.4, consensus_pass_at_1: 1, queries: 3 }, b: { mean_largest_share: 0.4, consensus_pass_at_1: 1, queries: 3 } });
});
