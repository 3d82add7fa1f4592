// Run files: export, import back into either repository, and rejection of bad files with nothing written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { type TaskRef, exportRun, parseRunFile, validateRunFile } from '../../src/core/eval/files/run-file.ts';
import { computeMetrics } from '../../src/core/eval/stats/metrics.ts';
import { DexieRepository } from '../../src/store/dexie.ts';
import { OsvlabDb } from '../../src/app/lib/storage.ts';
import { JsonlRepository } from '../../src/store/jsonl.ts';
import { exportStoredRun, importRunFile } from '../../src/store/transfer.ts';
import { PROMPT, REPAIR_PROMPT, makeAttempt, makeRun } from './fixtures.ts';

const idb = { indexedDB, IDBKeyRange };
const root = mkdtempSync(join(tmpdir(), 'osvlab-export-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

const TASKS: TaskRef[] = [
  { id: 'sys_dup-v0', hash: 'a'.repeat(64), handler: 'sys_dup', bug_classes: [], bug_count: 0 },
  { id: 'sys_dup-v1', hash: 'b'.repeat(64), handler: 'sys_dup', bug_classes: ['memory-leak'], bug_count: 1 },
  { id: 'unused-v0', hash: 'e'.repeat(64), handler: 'sys_close', bug_classes: [], bug_count: 0 },
];

async function seeded(): Promise<DexieRepository> {
  const repo = new DexieRepository(new OsvlabDb(`osvlab-export-${++counter}`, idb));
  await repo.putRun(makeRun());
  await repo.putPrompt(PROMPT);
  await repo.putPrompt(REPAIR_PROMPT);
  await repo.putPrompt({ hash: '9'.repeat(64), messages: [{ role: 'user', content: 'a prompt no attempt uses' }] });
  await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
  await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 1, { grade: { category: 'pass', extracted: 'x', diagnosis: '', ms: 3 } }));
  await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v1', 0, 0, { response: undefined, grade: undefined, error: { kind: 'context-length', code: 'LLM007', message: 'too long' }, cost: null }));
  await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 1, 0));
  await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v1', 1, 0));
  await repo.putRun({ ...makeRun('run-2'), config: { ...makeRun().config } });
  await repo.putAttempt(makeAttempt('run-2', 'sys_dup-v0', 0, 0));
  return repo;
}

describe('run file export', () => {
  it('holds the run, its tasks by id and hash, the prompts it used, its attempts and metrics, and provenance', async () => {
    const repo = await seeded();
    const file = await exportStoredRun(repo, 'run-1', TASKS, '2025-06-01T00:00:00.000Z');
    expect(file.format).toBe('osvlab-run');
    expect(file.formatVersion).toBe(1);
    expect(file.provenance).toEqual({
      app: '0.1.0',
      verifier: 'test-verifier-1',
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5-coder:7b',
      params: { temperature: 0.2, maxTokens: 4096 },
    });
    expect(file.tasks.map((t) => [t.id, t.hash])).toEqual([
      ['sys_dup-v0', 'a'.repeat(64)],
      ['sys_dup-v1', 'b'.repeat(64)],
    ]);
    expect(file.prompts.map((p) => p.hash).sort()).toEqual([PROMPT.hash, REPAIR_PROMPT.hash]);
    expect(file.attempts).toHaveLength(5);
    expect(file.attempts.every((a) => a.runId === 'run-1')).toBe(true);
    expect(file.metrics).toEqual(computeMetrics(file.tasks, file.attempts));
    expect(file.metrics.passAtK[1]).toBeCloseTo(0, 12);
    // Chains: v0 s0 fixed by its repair; v0 s1 and v1 s1 failing; v1 s0 never answered (not counted).
    expect(file.metrics.passAfterRepair).toBeCloseTo(1 / 3, 12);
    expect(file.metrics.uncharged.unanswered).toBe(1);
    expect(validateRunFile(JSON.parse(JSON.stringify(file)))).toEqual([]);
  });

  it('refuses to export anything shaped like a key', async () => {
    const run = { ...makeRun(), config: { ...makeRun().config, apiKey: 'sk-should-never-be-here' } };
    expect(() => exportRun({ run: run as never, tasks: TASKS, prompts: [], attempts: [], exportedAt: 'now' })).toThrow(/\$\.run\.config\.apiKey looks like a secret/);
  });
});

describe('run file import', () => {
  it('round-trips into a Dexie database and into a JSONL run directory', async () => {
    const file = await exportStoredRun(await seeded(), 'run-1', TASKS, '2025-06-01T00:00:00.000Z');
    const text = JSON.stringify(file);
    const targets = [new DexieRepository(new OsvlabDb(`osvlab-import-${++counter}`, idb)), await JsonlRepository.open(join(root, `import-${++counter}`))];
    for (const target of targets) {
      const r = await importRunFile(target, text);
      expect(r).toEqual({ ok: true, runId: 'run-1', attempts: 5 });
      expect(await target.getRun('run-1')).toEqual(file.run);
      const back = await exportStoredRun(target, 'run-1', TASKS, '2025-06-01T00:00:00.000Z');
      const sort = <T extends { id: string }>(xs: readonly T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
      expect(sort(back.attempts)).toEqual(sort(file.attempts));
      expect(back.metrics).toEqual(file.metrics);
      expect(JSON.stringify(back)).not.toMatch(/sk-|api[-_]?key|authorization/i);
    }
  });

  it('rejects invalid files with JSON paths, and leaves existing data untouched', async () => {
    const repo = await seeded();
    const good = await exportStoredRun(repo, 'run-1', TASKS);
    const target = new DexieRepository(new OsvlabDb(`osvlab-reject-${++counter}`, idb));
    await target.putRun(makeRun('already-here'));
    await target.putAttempt(makeAttempt('already-here', 'sys_dup-v0', 0, 0));

    const bad = JSON.parse(JSON.stringify({ ...good, run: { ...good.run, id: 'new-run' } }));
    const answered: number[] = bad.attempts.flatMap((a: { response?: unknown }, i: number) => (a.response ? [i] : []));
    const [i, j] = [answered[answered.length - 1], answered[0]];
    bad.attempts[i].response.usage.input = '2000';
    bad.attempts[j].grade.category = 'great';
    delete bad.prompts[0].messages[0].role;
    const r = await importRunFile(target, JSON.stringify(bad));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.errors.map((e) => e.path);
    expect(paths).toContain(`$.attempts[${i}].response.usage.input`);
    expect(paths).toContain(`$.attempts[${j}].grade.category`);
    expect(paths).toContain('$.prompts[0].messages[0].role');
    expect(r.message).toContain(`$.attempts[${i}].response.usage.input: expected an integer >= 0, got the string "2000"`);
    expect(r.message).toContain(`$.attempts[${j}].grade.category: expected one of "pass", "syntax", "semantic", "timeout", "unknown", "internal", got the string "great"`);

    expect((await target.listRuns()).map((x) => x.id)).toEqual(['already-here']);
    expect(await target.listAttempts('already-here')).toHaveLength(1);
    expect(await target.listAttempts('new-run')).toEqual([]);
  });

  it('checks references: attempts of another run, unknown tasks and prompts, wrong ids', async () => {
    const good = JSON.parse(JSON.stringify(await exportStoredRun(await seeded(), 'run-1', TASKS)));
    good.attempts[0].runId = 'other';
    good.attempts[1].taskId = 'ghost-v0';
    good.attempts[2].promptHash = '0'.repeat(64);
    good.attempts[3].id = 'run-1|sys_dup-v0|9|9';
    const errs = validateRunFile(good).map((e) => e.path);
    expect(errs).toEqual(expect.arrayContaining(['$.attempts[0].runId', '$.attempts[1].taskId', '$.attempts[2].promptHash', '$.attempts[3].id']));
  });

  it("keeps a shard's K/N (merge needs it) and refuses one that is not a shard", async () => {
    const repo = new DexieRepository(new OsvlabDb(`osvlab-export-${++counter}`, idb));
    await repo.putRun({ ...makeRun(), shard: { index: 2, total: 3 } });
    await repo.putPrompt(PROMPT);
    await repo.putAttempt(makeAttempt('run-1', 'sys_dup-v0', 0, 0));
    const file = JSON.parse(JSON.stringify(await exportStoredRun(repo, 'run-1', TASKS)));
    expect(parseRunFile(JSON.stringify(file))).toMatchObject({ ok: true, file: { run: { shard: { index: 2, total: 3 } } } });
    for (const [shard, path] of [[{ index: 4, total: 3 }, '$.run.shard.index'], [{ index: 0, total: 3 }, '$.run.shard.index'], [{ index: 1 }, '$.run.shard.total']] as const) {
      expect(validateRunFile({ ...file, run: { ...file.run, shard } }).map((e) => e.path)).toEqual([path]);
    }
  });

  it('refuses an existing run id, a newer format, non-JSON, and smuggled keys, writing nothing', async () => {
    const repo = await seeded();
    const text = JSON.stringify(await exportStoredRun(repo, 'run-1', TASKS));
    const before = await repo.listAttempts('run-1');
    const again = await importRunFile(repo, text);
    expect(again).toMatchObject({ ok: false, message: expect.stringMatching(/already exists/) });
    expect(await repo.listAttempts('run-1')).toEqual(before);

    const newer = JSON.parse(text);
    newer.formatVersion = 2;
    expect(parseRunFile(JSON.stringify(newer))).toMatchObject({ ok: false, errors: [{ path: '$.formatVersion', message: expect.stringMatching(/newer OSVLab/) }] });
    expect(parseRunFile('{"format": "osvlab-run",')).toMatchObject({ ok: false, errors: [{ path: '$', message: expect.stringMatching(/^not JSON/) }] });
    const keyed = JSON.parse(text);
    keyed.run.config.params.api_key = 'sk-xyz';
    expect(parseRunFile(JSON.stringify(keyed))).toMatchObject({ ok: false, errors: [{ path: '$.run.config.params.api_key' }] });
    expect(parseRunFile('[]')).toMatchObject({ ok: false, errors: [{ path: '$', message: 'expected an object, got an array' }] });
  });
});
