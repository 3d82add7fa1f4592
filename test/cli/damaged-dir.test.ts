/**
 * `osvlab report` on damaged run directories and `osvlab run` on selectors
 * and URLs that name nothing, as a user runs them (the CLI in a child
 * process). No provider and no solver: these are about input handling.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GradeResult } from '../../src/core/eval/grade/grade-types.ts';
import { createRun } from '../../src/core/eval/run/run-setup.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { JsonlRepository } from '../../src/store/jsonl.ts';
import { makeAttempt } from '../store/fixtures.ts';
import { runCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-damaged-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function osvlab(...args: string[]): { code: number; out: string; err: string } {
  return runCli(args, { env: { ...process.env, OSVLAB_API_KEY: 'sk-unused-0000' } });
}

const PASS: GradeResult = { category: 'pass', extracted: 'def f(): pass\n', diagnosis: 'ok', ms: 1 };

/** A finished run of `n` tasks, one passing first answer each, written through the real repository. */
async function finishedRun(n: number): Promise<{ dir: string; ids: string[] }> {
  const dir = join(root, `run-${++counter}`);
  const tasks = (await loadTasks()).slice(0, n);
  const ids = tasks.map((t) => t.id);
  const repo = await JsonlRepository.open(dir);
  const run = createRun({
    id: 'r1',
    config: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', params: {}, tasks: ids, shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
    provenance: { app: 't', verifier: 't' },
    tasks,
    now: 1,
  });
  await repo.putRun({ ...run, status: 'done' });
  for (const id of ids) await repo.putAttempt(makeAttempt('r1', id, 0, 0, { grade: PASS }));
  return { dir, ids };
}

describe('osvlab report on a damaged run directory', () => {
  it('attempts.jsonl cut mid-line: names the file and line it skipped, counts the missing samples, and marks the report partial', async () => {
    const { dir } = await finishedRun(10);
    const path = join(dir, 'attempts.jsonl');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    // Keep 8 whole lines and half of the 9th (as a killed writer leaves it).
    const keep = lines.slice(0, 8).join('\n').length + 1 + Math.floor(lines[8].length / 2);
    truncateSync(path, keep);

    const r = osvlab('report', dir, '--json');
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.partial).toBe(true);
    expect(rep.skipped).toEqual([{ file: 'attempts.jsonl', line: 9, reason: expect.stringContaining('cut off mid-line') }]);
    expect(rep.missing).toBe(2);
    expect(rep.metrics.samples).toBe(8);
    expect(r.err).toContain('skipped attempts.jsonl line 9');

    const text2 = osvlab('report', dir);
    expect(text2.code).toBe(0);
    expect(text2.out).toContain('PARTIAL REPORT');
    expect(text2.out).toContain('2 of 10 first answers are missing');
  });

  it('a garbage line in the middle and a record of the wrong shape are skipped by line number; the rest is reported', async () => {
    const { dir } = await finishedRun(3);
    const path = join(dir, 'attempts.jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${lines[0]}\n{"id": broken\nnull\n${lines[1]}\n${lines[2]}\n`);
    const rep = JSON.parse(osvlab('report', dir, '--json').out);
    expect(rep.skipped.map((s: { line: number }) => s.line)).toEqual([2, 3]);
    expect(rep.metrics.samples).toBe(3);
    expect(rep.partial).toBe(true);
  });

  it('a truncated run.json is an error naming the file', async () => {
    const { dir } = await finishedRun(2);
    const path = join(dir, 'run.json');
    truncateSync(path, Math.floor(readFileSync(path).length / 2));
    const r = osvlab('report', dir);
    expect(r.code).toBe(4);
    expect(r.err).toContain('RUNDIR002');
    expect(r.err).toContain(path);
    expect(r.err).not.toMatch(/^SyntaxError/m);
  });

  it('a run file that is a symbolic link is RUNDIR002 and is not followed: what it points to is never printed', async () => {
    const outside = join(root, `outside-${++counter}.txt`);
    writeFileSync(outside, 'my-own-line-1 with private words\nmy-own-line-2\n');
    for (const name of ['attempts.jsonl', 'run.json']) {
      const { dir } = await finishedRun(2);
      rmSync(join(dir, name));
      symlinkSync(outside, join(dir, name));
      for (const json of [true, false]) {
        const r = osvlab('report', dir, ...(json ? ['--json'] : []));
        expect(r.code, r.err).toBe(4);
        expect(r.err).toContain(`RUNDIR002 ${join(dir, name)} is a symbolic link, not a regular file`);
        expect(r.out + r.err).not.toContain('my-own');
      }
    }
  });

  it('a missing directory is an error, and is not created', () => {
    const missing = join(root, 'no', 'such', 'dir');
    const r = osvlab('report', missing);
    expect(r.code).toBe(4);
    expect(r.err).toContain('RUNDIR001');
    expect(existsSync(missing)).toBe(false);
  });
});

describe('osvlab run: selectors and URLs that name nothing are usage errors', () => {
  const base = ['run', '--provider', 'openai-compatible', '--model', 'm', '--n', '1'];
  it.each([
    [['--base-url', 'http://127.0.0.1:9/v1', '--tasks', 'first:0'], /first:N needs .* at least 1/],
    [['--base-url', 'http://127.0.0.1:9/v1', '--tasks', ' , '], /the selection is empty/],
    [['--base-url', 'not-a-url', '--tasks', 'first:1'], /LLM017 --base-url: "not-a-url" is not a URL/],
    [['--base-url', 'ftp://example.com/v1', '--tasks', 'first:1'], /LLM017 --base-url: a base URL starts with https:\/\/ or http:\/\/, not ftp:/],
  ])('%j', (extra, message) => {
    const out = join(root, `sel-${++counter}`);
    const r = osvlab(...base, ...extra, '--out', out);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(message);
    expect(existsSync(join(out, 'run.json'))).toBe(false);
  });
});
