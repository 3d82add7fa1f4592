// The JSONL twin: the shared suite, torn-line recovery and one-run-per-directory.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlRepository, readJsonl } from '../../src/store/jsonl.ts';
import { makeAttempt, makeRun } from './fixtures.ts';
import { repositorySuite } from './repository-suite.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-jsonl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshDir = () => join(root, `run-${++counter}`);

repositorySuite('JSONL', {
  open: () => JsonlRepository.open(freshDir()),
  reopen: async (repo) => JsonlRepository.open((repo as JsonlRepository).dir),
});

describe('JSONL specifics', () => {
  it('ignores a torn last line, and the next append does not glue onto it', async () => {
    const dir = freshDir();
    const repo = await JsonlRepository.open(dir);
    await repo.putRun(makeRun());
    await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
    await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 1, 0));
    // A process killed mid-write: half a record, no newline.
    const half = JSON.stringify(makeAttempt('run-1', 'sys_dup-v0', 2, 0));
    appendFileSync(join(dir, 'attempts.jsonl'), half.slice(0, half.length >> 1));

    const reopened = await JsonlRepository.open(dir);
    expect(reopened.skippedLines['attempts.jsonl']).toBe(1);
    expect((await reopened.listAttempts('run-1')).map((a) => a.sample).sort()).toEqual([0, 1]);

    await reopened.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 2, 0));
    const text = readFileSync(join(dir, 'attempts.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();

    const third = await JsonlRepository.open(dir);
    expect(third.skippedLines['attempts.jsonl']).toBe(0);
    expect(await third.listAttempts('run-1')).toHaveLength(3);
  });

  it('a damaged line in the middle is skipped, the rest kept', async () => {
    const dir = freshDir();
    const a = JSON.stringify(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
    const b = JSON.stringify(makeAttempt('run-1', 'sys_dup-v0', 1, 0));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'attempts.jsonl'), `${a}\n{"id": broken\n${b}\n`);
    const r = await readJsonl(join(dir, 'attempts.jsonl'));
    expect(r.rows).toHaveLength(2);
    expect(r.skipped).toBe(1);
  });

  it('concurrent appends stay whole lines', async () => {
    const dir = freshDir();
    const repo = await JsonlRepository.open(dir);
    await Promise.all(Array.from({ length: 40 }, (_, i) => repo.putAttempt(makeAttempt('run-1', `t${i}`, 0, 0, { response: { text: 'x'.repeat(70_000), model: 'm', usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 1 } }))));
    const r = await readJsonl(join(dir, 'attempts.jsonl'));
    expect(r.rows).toHaveLength(40);
    expect(r.skipped).toBe(0);
  });

  it('holds one run per directory', async () => {
    const repo = await JsonlRepository.open(freshDir());
    await repo.putRun(makeRun('a'));
    await expect(repo.putRun(makeRun('b'))).rejects.toThrow(/holds run "a"/);
  });

  it('can share one cache file between run directories', async () => {
    const cachePath = join(root, 'shared-cache.jsonl');
    const entry = { key: '1'.repeat(64), completion: { text: 't', model: 'm', usage: { input: 1, output: 1 }, finishReason: 'stop' as const, latencyMs: 1 }, createdAt: 1 };
    await (await JsonlRepository.open(freshDir(), { cachePath })).putCached(entry);
    expect(await (await JsonlRepository.open(freshDir(), { cachePath })).getCached(entry.key)).toEqual(entry);
  });
});
