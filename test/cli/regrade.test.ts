/**
 * `osvlab regrade` (re-verify) as a user runs it: a run directory in which
 * one stored grade was changed by hand reports exactly that one, with both
 * verifier versions, and `--out` writes the run with this verifier's grades;
 * the same for a run graded from a results file in upstream's layout; and
 * `report` of a run graded with the variant matrix prints the matrix.
 * One oracle answer is verified; the others are prose (no solver query).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPSTREAM_HANDLERS } from '../../src/core/eval/files/osvbench.ts';
import { runCli } from '../cli-process.ts';
import { codeAnswer, oracleSpec, proseAnswer } from '../fake-provider/answers.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-regrade-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const osvlab = (...args: string[]) => runCli(args);

function file(name: string, text: string): string {
  const p = join(root, name);
  writeFileSync(p, text);
  return p;
}

/** Changes by hand the stored grade of the first answer to `taskId` (the last line for it wins). */
function tamper(dir: string, taskId: string, category: string): void {
  const path = join(dir, 'attempts.jsonl');
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  let at = lines.length - 1;
  while (at >= 0 && !((a) => a.taskId === taskId && a.round === 0 && a.grade)(JSON.parse(lines[at]))) at--;
  expect(at).toBeGreaterThanOrEqual(0);
  const a = JSON.parse(lines[at]);
  expect(a.grade.category).not.toBe(category);
  lines[at] = JSON.stringify({ ...a, grade: { ...a.grade, category } });
  writeFileSync(path, `${lines.join('\n')}\n`);
}

const VERIFIER = /v-[0-9a-f]{8,}/;

describe('osvlab regrade', () => {
  it('a run with one grade changed by hand: exactly that grade is reported, with both verifier versions; --out writes the re-verified run', () => {
    const answers = file(
      'answers.jsonl',
      [
        { task_id: 'sys_kill-v0', response: codeAnswer(oracleSpec('sys_kill')) },
        { task_id: 'sys_dup-v0', response: proseAnswer() },
        { task_id: 'sys_close-v0', response: proseAnswer() },
      ].map((x) => JSON.stringify(x)).join('\n') + '\n',
    );
    const dir = join(root, 'graded');
    const g = osvlab('grade', '--responses', answers, '--out', dir, '--no-lemmas');
    expect(g.code, g.err).toBe(0);
    const id = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).id;

    const same = osvlab('regrade', dir);
    expect(same.code, same.err).toBe(0);
    expect(same.out).toMatch(new RegExp(`^run ${id}: 3 of 3 grades unchanged \\(\\d+\\.\\d s\\)$`, 'm'));
    expect(same.out).not.toMatch(/^ {2}changed /m);

    tamper(dir, 'sys_dup-v0', 'pass');
    const r = osvlab('regrade', dir);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(new RegExp(`^run ${id}: 2 of 3 grades unchanged`, 'm'));
    const changed = r.out.split('\n').filter((l) => l.startsWith('  changed '));
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {2}changed sys_dup-v0 sample 0 round 0: pass \(v-[0-9a-f]+\) -> syntax \(v-[0-9a-f]+\)$/);

    const j = osvlab('regrade', dir, '--json');
    expect(j.code, j.err).toBe(1);
    const rep = JSON.parse(j.out);
    expect(rep).toMatchObject({ runId: id, total: 3, unchanged: 2, ungraded: 0 });
    expect(rep.changed).toEqual([expect.objectContaining({ taskId: 'sys_dup-v0', sample: 0, round: 0, before: { category: 'pass' }, after: { category: 'syntax' } })]);
    expect(rep.verifier.before).toMatch(VERIFIER);
    expect(rep.verifier.after).toMatch(VERIFIER);
    expect(rep.changed[0].beforeVerifier).toBe(rep.verifier.before);
    expect(rep.attempts).toBeUndefined();

    // --out: the run with this verifier's grades, which report reads; the hand-made pass is gone.
    const out = join(root, 'regraded');
    const w = osvlab('regrade', dir, '--out', out);
    expect(w.code, w.err).toBe(1);
    expect(w.out).toContain(`wrote the re-verified run to ${out}`);
    const m = JSON.parse(osvlab('report', out, '--json').out);
    expect(m.osvbench.counts).toEqual({ pass: 1, syntax: 2, semantic: 0 });
    expect(osvlab('regrade', out).code).toBe(0);
  }, 300_000);

  it("a run graded from a results file in upstream's layout re-verifies entry by entry; the results file itself grades as new", () => {
    const h0 = UPSTREAM_HANDLERS[0];
    const h50 = UPSTREAM_HANDLERS[50 % 49];
    const results = file('results.json', JSON.stringify({ 0: { [h0]: [proseAnswer(), 'Error!'] }, 50: { [h50]: [proseAnswer()] } }, null, 4));
    const dir = join(root, 'upstream');
    const g = osvlab('grade', '--responses', results, '--out', dir, '--no-lemmas');
    expect(g.code, g.err).toBe(0);
    tamper(dir, `${h50}@osvbench-50`, 'semantic');
    const r = osvlab('regrade', dir, '--json');
    expect(r.code, r.err).toBe(1);
    const rep = JSON.parse(r.out);
    expect(rep).toMatchObject({ total: 3, unchanged: 2 });
    expect(rep.changed.map((c: { taskId: string }) => c.taskId)).toEqual([`${h50}@osvbench-50`]);

    const direct = osvlab('regrade', results);
    expect(direct.code, direct.err).toBe(0);
    expect(direct.out).toMatch(/: 0 of 0 grades unchanged, 3 answers had no grade and were graded now/);
  }, 120_000);

  it('report of a run graded with --matrix prints the matrix counts; regrade compares the matrix too', () => {
    const answers = file('matrix.jsonl', `${JSON.stringify({ task_id: 'sys_kill-v1', response: codeAnswer(oracleSpec('sys_kill')) })}\n`);
    const dir = join(root, 'matrix');
    const g = osvlab('grade', '--responses', answers, '--out', dir, '--no-lemmas', '--matrix');
    expect(g.code, g.err).toBe(0);
    const text = osvlab('report', dir).out;
    expect(text).toContain('variant matrix on');
    // The oracle verifies the correct implementation and is refuted by each buggy variant.
    expect(text).toContain('variant matrix: 1 first answer checked on every variant of its handler: 1 verifies the correct implementation; of these, 1 is refuted by every buggy variant and 0 also verify a buggy one');
    expect(JSON.parse(osvlab('report', dir, '--json').out).variant_matrix).toEqual({ answers: 1, correct: 1, catch_all: 1, miss_some: 0 });

    const path = join(dir, 'attempts.jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const a = JSON.parse(lines.at(-1)!);
    a.grade.matrix['sys_kill-v2'] = 'verified';
    writeFileSync(path, `${[...lines, JSON.stringify(a)].join('\n')}\n`);
    const r = osvlab('regrade', dir);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('0 of 1 grades unchanged');
  }, 300_000);
});
