/**
 * `osvlab bench --corpus FILE`, run as a user runs it: every answer graded
 * without and with the lemma check, the path each lemma check took (and
 * whether a model kept from an earlier answer settled it), the
 * labels grouped; and a corpus with a bad line refused with its line number.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { runCli } from '../cli-process.ts';
import { corpusAnswer } from '../corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'osvlab-bench-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fence = (spec: string) => `Here is the spec:\n\n\`\`\`python\n${spec}\n\`\`\`\n`;

describe('osvlab bench --corpus', () => {
  it('grades each answer both ways and says which path its lemma check took', () => {
    const oracle = oracleSpec('sys_set_runnable')!;
    // The same step written another way: the condition's conjuncts in the other order.
    const first = '        is_pid_valid(pid),\n';
    const last = '        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,\n';
    const reordered = oracle.replace(first, '@').replace(last, first).replace('@', last);
    expect(reordered).not.toBe(oracle);
    const lines = [
      { handler: 'sys_set_runnable', response: fence(`${oracle}\n# a comment`), made: 'rewrite:comment' },
      { handler: 'sys_set_runnable', response: fence(reordered), made: 'rewrite:reorder' },
      { handler: 'sys_kill', response: fence('def sys_kill(old, pid)\n    return 1\n'), made: 'wrong:syntax' },
      // Two near misses of one handler that break the same fact: a reachable state refutes it for both, before any solver query.
      ...['near-miss:shadow-drop', 'near-miss:shadow-zero'].map((made) => corpusAnswer('sys_map_dev', made)),
    ];
    const file = join(dir, 'corpus.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = runCli(['bench', '--corpus', file, '--json'], { timeoutMs: 600_000 });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      rows: { made: string; category: string; path?: string; strict?: boolean; strictPartMs?: number; kept?: true; reachable?: true; floorMs?: number; subset?: { asked: number; proved: number } }[];
      summary: {
        answers: number;
        ratio: number;
        paths: Record<string, number>;
        strictPart: { answers: number; total: number };
        kept: number;
        reachable: number;
        floor: { total: number; ratio: number };
        subset: { asked: number; proved: number };
        byKind: Record<string, unknown>;
      };
      proofs: { current: number; oracles: number };
    };
    expect(out.rows.map((x) => [x.made, x.category, x.path, x.strict, x.reachable])).toEqual([
      ['rewrite:comment', 'pass', 'identical', true, undefined],
      ['rewrite:reorder', 'pass', 'equivalent', true, undefined],
      ['wrong:syntax', 'syntax', undefined, undefined, undefined],
      ['near-miss:shadow-drop', 'pass', 'partial', false, true],
      ['near-miss:shadow-zero', 'pass', 'partial', false, true],
    ]);
    expect(out.summary).toMatchObject({ answers: 5, paths: { identical: 1, equivalent: 1, partial: 2 }, strictPart: { answers: 4 }, reachable: 2 });
    expect(out.summary.ratio).toBeGreaterThan(0);
    // The verdicts' own queries: none for a reused proof, the refutation of a failing near miss, never more than the lemma part.
    const floor = Object.fromEntries(out.rows.map((x) => [x.made, x.floorMs]));
    expect(floor['rewrite:comment']).toBe(0);
    expect(floor['wrong:syntax']).toBeUndefined();
    // A near miss refuted in a reachable state: its floor is that search (a few ms), not a solver query.
    expect(floor['near-miss:shadow-drop']).toBeGreaterThanOrEqual(0);
    for (const x of out.rows) if (x.strictPartMs !== undefined) expect(x.floorMs).toBeLessThanOrEqual(x.strictPartMs);
    const sum = out.rows.reduce((a, x) => a + (x.floorMs ?? 0), 0);
    expect(out.summary.floor.total).toBeCloseTo(sum, 6);
    expect(out.summary.floor.total).toBeLessThanOrEqual(out.summary.strictPart.total);
    expect(out.summary.floor.ratio).toBeGreaterThanOrEqual(1);
    // Queries without the instances: none for a reused proof; the summary is the rows' sum, and proofs are some of those asked.
    const subset = Object.fromEntries(out.rows.map((x) => [x.made, x.subset]));
    expect(subset['rewrite:comment']).toEqual({ asked: 0, proved: 0 });
    // Refuted in a reachable state before any query: no query without the instances either.
    expect(subset['near-miss:shadow-drop']).toEqual({ asked: 0, proved: 0 });
    const asked = out.rows.reduce((a, x) => a + (x.subset?.asked ?? 0), 0);
    expect(out.summary.subset.asked).toBe(asked);
    expect(out.summary.subset.proved).toBeLessThanOrEqual(asked);
    expect(Object.keys(out.summary.byKind)).toEqual(['near-miss', 'rewrite']);
    expect(out.proofs.oracles).toBe(50);
  }, 600_000);

  it('with --full, runs the full check with nothing reused beside each grade with lemmas and counts where they differ', () => {
    const lines = [corpusAnswer('sys_set_runnable', 'rewrite:combo'), corpusAnswer('sys_map_dev', 'near-miss:shadow-drop')];
    const file = join(dir, 'full.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = runCli(['bench', '--corpus', file, '--full', '--json'], { timeoutMs: 600_000 });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      rows: { made: string; strict?: boolean; full?: { status: string; ms: number } }[];
      summary: { full?: { answers: number; total: number; undecided: number; differs: string[] } };
    };
    expect(out.rows.map((x) => [x.made, x.strict, x.full?.status])).toEqual([
      ['rewrite:combo', true, 'proved'],
      ['near-miss:shadow-drop', false, 'failed'],
    ]);
    expect(out.summary.full).toMatchObject({ answers: 2, undecided: 0, differs: [] });
    expect(out.summary.full!.total).toBeCloseTo(out.rows.reduce((a, x) => a + (x.full?.ms ?? 0), 0), 6);
  }, 600_000);

  it('refuses a corpus with a bad line, naming it', () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify({ handler: 'sys_kill', response: 'x' })}\nnot json\n`);
    const r = runCli(['bench', '--corpus', file], { timeoutMs: 120_000 });
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/line 2/);
  }, 120_000);
});
