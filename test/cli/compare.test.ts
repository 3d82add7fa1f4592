/**
 * `osvlab compare` of two runs that pair no task: it says why and prints no
 * statistics (a "B - A = +0.0 points, p = 1" over zero tasks reads as a result).
 * And `osvlab report` of a one-task run counts "(1 task)", not "(1 tasks)".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../src/core/eval/files/run-file.ts';
import { type AttemptRecord, attemptId } from '../../src/core/eval/run/run-types.ts';
import { createRun } from '../../src/core/eval/run/run-setup.ts';
import { JsonlRepository } from '../../src/store/jsonl.ts';
import { osvlab } from '../cli-main.ts';

const HASH = 'a'.repeat(64);

/** A finished run of `ids`, each task's one answer passing, as a run file in `dir` (its path) and as records. */
function runFile(dir: string, name: string, ids: readonly string[]): string {
  return runOf(dir, name, ids).path;
}

function runOf(dir: string, name: string, ids: readonly string[]) {
  const runId = `compare-${name}`;
  const tasks = ids.map((id) => ({ id, handler: id.replace(/-v\d+$/, ''), bug_classes: [], bug_count: 0, hash: HASH }));
  const config = { provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model', params: {}, tasks: [...ids], shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 };
  const run = { ...createRun({ id: runId, name, config, provenance: { app: 'test', verifier: 'test' }, tasks, now: 1_700_000_000_000 }), status: 'done' as const };
  const attempts: AttemptRecord[] = ids.map((taskId) => ({
    id: attemptId(runId, taskId, 0, 0), runId, taskId, sample: 0, round: 0, promptHash: HASH, cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: config.baseUrl, model: 'fake-model', params: {}, sample: 0 },
    response: { text: 'x', model: 'fake-model', usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 1 },
    cost: 0, grade: { category: 'pass', extracted: 'x', diagnosis: '', ms: 1 }, createdAt: 1_700_000_000_000, gradedAt: 1_700_000_000_000,
  }));
  const prompts = [{ hash: HASH, messages: [{ role: 'user' as const, content: 'Write the spec.' }] }];
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(exportRun({ run, tasks, prompts, attempts, exportedAt: new Date(0).toISOString() })));
  return { path, run, attempts, prompts };
}

describe('compare of runs with no task in common', () => {
  it('says there is nothing to compare, lists the tasks left out, and exits 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osvlab-compare-'));
    const a = runFile(dir, 'left', ['sys_dup-v0', 'sys_kill-v0']);
    const b = runFile(dir, 'right', ['sys_close-v0']);
    const r = await osvlab('compare', a, b, '--resamples', '100');
    expect(r.code, r.err).toBe(3);
    expect(r.out).toBe(
      [
        'A: left (fake-model)   B: right (fake-model)',
        'nothing to compare: the runs have no task in common (A has 2 tasks, B 1 task)',
        'left out:',
        '  sys_dup-v0                   only-in-a',
        '  sys_kill-v0                  only-in-a',
        '  sys_close-v0                 only-in-b',
        '',
      ].join('\n'),
    );
    expect(r.out).not.toMatch(/McNemar|B - A/);
  });
});

describe('report of a one-task run', () => {
  it('writes one task in the singular, and says a task counts in each of its bug classes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'osvlab-report-'));
    const { run, attempts, prompts } = runOf(dir, 'single', ['sys_close-v0']);
    const store = await JsonlRepository.open(join(dir, 'single-run'));
    await store.importBundle({ run, attempts, prompts });
    await store.close();
    const r = await osvlab('report', join(dir, 'single-run'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('by bug class (a task with several classes counts in each):');
    expect(r.out).toMatch(/\(1 task\)/);
    expect(r.out).not.toMatch(/\(1 tasks\)/);
  });
});
