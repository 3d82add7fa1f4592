/**
 * Upstream's files end to end (issue 19): a synthetic results file in
 * upstream's layout (index i is handler i mod 49 in upstream's order,
 * several samples per entry, bare functions, one `Error!` answer) is graded
 * entry by entry by `osvlab grade`, and `osvlab report --benchmark` with a
 * benchmark.json in upstream's shape (a trailing comma, the misspelled
 * labels) prints the per-class table, counted both ways. Quick handlers, one
 * oracle each, the rest memo hits or prose.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPSTREAM_HANDLERS } from '../../src/core/eval/files/osvbench.ts';
import { runCli } from '../cli-process.ts';
import { oracleSpec, proseAnswer } from '../fake-provider/answers.ts';
import { upstreamBenchmark } from '../eval/files/upstream-benchmark.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-upstream-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const osvlab = (...args: string[]) => runCli(args);

/** The function as upstream's results files hold it: no fence, no import lines. */
const bare = (h: string) => `\n${oracleSpec(h).split('\n').filter((l) => !/^(import|from)\s/.test(l)).join('\n').trim()}\n`;

/** Entries i = k + 49 * j for quick handlers k: the correct implementation (j = 0) and buggy ones. */
const ENTRIES = [
  { handler: 'sys_kill', j: 0 },
  { handler: 'sys_set_runnable', j: 1 },
  { handler: 'sys_dup', j: 2 },
  { handler: 'sys_close', j: 3 },
  { handler: 'sys_reclaim_port', j: 4 },
].map((e) => ({ ...e, index: UPSTREAM_HANDLERS.indexOf(e.handler) + 49 * e.j }));

/** upstream's labels by index for the buggy entries (its misspellings included). */
const LABELS: Record<number, string> = {};
ENTRIES.filter((e) => e.j > 0).forEach((e, i) => (LABELS[e.index] = ['incorrect pointer', 'mmeory leak', 'buffer overlfow, incorrect privilege', 'bounds checking'][i]));

describe("upstream's results file and benchmark.json", () => {
  it('every entry is graded against the handler it names; --benchmark gives the per-class table as upstream counts and with the misspellings read right', () => {
    expect(ENTRIES.map((e) => e.index % 49).map((k) => UPSTREAM_HANDLERS[k])).toEqual(ENTRIES.map((e) => e.handler));
    const results: Record<string, Record<string, string[]>> = {};
    for (const e of ENTRIES) results[e.index] = { [e.handler]: [bare(e.handler), e.handler === 'sys_dup' ? 'Error!' : bare(e.handler), proseAnswer()] };
    const resultsPath = join(root, 'results.json');
    writeFileSync(resultsPath, JSON.stringify(results, null, 4));
    const dir = join(root, 'run');
    const g = osvlab('grade', '--responses', resultsPath, '--json', '--no-lemmas', '--out', dir);
    expect(g.code, g.err).toBe(0);
    const out = JSON.parse(g.out);
    expect(out.bad).toEqual([]);
    const got = out.results.map((r: { index: number; syscall: string; sample: number; task_id: string; category: string }) => `${r.index} ${r.sample} ${r.task_id} ${r.category}`).sort();
    const want = ENTRIES.flatMap((e) => [0, 1, 2].map((s) => `${e.index} ${s} ${e.handler}@osvbench-${e.index} ${s === 2 || (s === 1 && e.handler === 'sys_dup') ? 'syntax' : 'pass'}`)).sort();
    expect(got).toEqual(want);

    // 245 entries in upstream's shape: 0-48 correct, the rest labelled; a trailing comma as upstream's has near line 246.
    const { text, commaLine } = upstreamBenchmark(245, (i) => LABELS[i] ?? 'incorrect pointer');
    const benchmark = join(root, 'benchmark.json');
    writeFileSync(benchmark, text);

    const plain = osvlab('report', dir);
    expect(plain.out).toContain('give --benchmark FILE');
    const r = osvlab('report', dir, '--benchmark', benchmark);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`line ${commaLine}: BENCH003`);
    expect(r.err).toContain('BENCH004');
    const table = r.out.slice(r.out.indexOf('by OSVBench bug class'));
    const row = (label: string) => new RegExp(`^ {2}${label}\\s+[\\d.]+%\\s+\\(${'(\\d+)/(\\d+), (\\d+) tasks?'}\\)`, 'm').exec(table)?.slice(1).map(Number);
    // Every sample of an entry is a first answer: 2 of 3 pass (sys_dup's Error! makes it 1 of 3).
    expect(row('correct')).toEqual([2, 3, 1]);
    expect(row('incorrect pointer')).toEqual([2, 3, 1]);
    expect(row('incorrect privilege')).toEqual([2, 3, 1]);
    expect(row('bounds checking')).toEqual([2, 3, 1]);
    // As upstream counts, "mmeory leak" is no class and "buffer overlfow" is not buffer overflow; read right, they are.
    expect(row('memory leak')).toEqual([0, 0, 0]);
    expect(row('buffer overflow')).toEqual([0, 0, 0]);
    expect(table).toMatch(/misspelled labels[^\n]*\n {2}memory leak\s+33\.3%\s+\(1\/3, 1 task\)\n {2}buffer overflow\s+66\.7%\s+\(2\/3, 1 task\)/);
    const j = JSON.parse(osvlab('report', dir, '--benchmark', benchmark, '--json').out);
    expect(j.osvbench_classes.as_upstream.find((x: { label: string }) => x.label === 'buffer overflow')).toMatchObject({ samples: 0 });
    expect(j.osvbench_classes.corrected.find((x: { label: string }) => x.label === 'buffer overflow')).toMatchObject({ samples: 3, passes: 2, tasks: 1 });
  }, 300_000);
});
