/**
 * A renaming in a run's config (docs/rename.md §4): part of the run id (a
 * run without one keeps its id), checked when a run opens and when a run
 * record is read, and part of an answers run's id.
 */
import { describe, expect, it } from 'vitest';
import { validateRunRecord } from '../../src/core/eval/files/run-file.ts';
import { answersRunId } from '../../src/core/eval/run/answers-run.ts';
import { handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { type RunChoice, canonicalConfig, runIdOf } from '../../src/core/eval/session/config.ts';
import { RunSession } from '../../src/core/eval/session/session.ts';
import { renameChoiceError } from '../../src/core/rename/choice.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { MemoryStore } from '../../src/store/memory.ts';

const choice: RunChoice = { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1', model: 'm', params: {}, tasks: ['sys_dup-v0'] };

describe('a renaming in the config', () => {
  it('is written only when chosen, and makes a different run per style and seed', async () => {
    const plain = canonicalConfig(choice);
    expect('rename' in plain).toBe(false);
    const ids = await Promise.all(
      [undefined, { style: 'synonym', seed: 1 }, { style: 'synonym', seed: 2 }, { style: 'opaque', seed: 1 }].map((rename) =>
        runIdOf(canonicalConfig({ ...choice, ...(rename ? { rename: rename as RunChoice['rename'] } : {}) })),
      ),
    );
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(await runIdOf(canonicalConfig({ ...choice, rename: undefined })));
    expect(canonicalConfig({ ...choice, rename: { style: 'opaque', seed: 3 } }).rename).toEqual({ style: 'opaque', seed: 3 });
  });

  it('is refused when it is not a renaming, before anything is stored', async () => {
    expect(renameChoiceError({ style: 'synonym', seed: 0 })).toBeUndefined();
    expect(renameChoiceError({ style: 'rot13', seed: 1 })).toMatch(/unknown renaming style "rot13"/);
    expect(renameChoiceError({ style: 'opaque', seed: -1 })).toMatch(/seed/);
    expect(renameChoiceError({ style: 'opaque', seed: 1.5 })).toMatch(/seed/);
    const store = new MemoryStore();
    const bad = { ...choice, rename: { style: 'rot13', seed: 1 } } as unknown as RunChoice;
    await expect(RunSession.open(bad, { tasks: await loadTasks(), store, grader: async () => { throw new Error('no grading'); } })).rejects.toThrow(/SESSION003 unknown renaming style/);
    expect(await store.listRuns()).toEqual([]);
  });

  it('is checked in a run record read from a file', () => {
    const run = (rename: unknown) => ({
      id: 'x', createdAt: 0, updatedAt: 0,
      config: { ...canonicalConfig(choice), rename },
      provenance: { app: 'a', verifier: 'v' }, taskHashes: {}, status: 'done',
    });
    expect(validateRunRecord(run({ style: 'opaque', seed: 2 }))).toEqual([]);
    expect(validateRunRecord(run({ style: 'rot13', seed: 2 })).map((e) => e.path)).toEqual(['$.config.rename.style']);
  });

  it('makes an answers run of the same file another run', async () => {
    const items = [{ task: handlerOnlyTask('sys_dup'), sample: 0, response: 'x', line: 1 }];
    const plain = await answersRunId(items);
    expect(await answersRunId(items, { style: 'synonym', seed: 1 })).not.toBe(plain);
    expect(await answersRunId(items, { style: 'synonym', seed: 1 })).not.toBe(await answersRunId(items, { style: 'opaque', seed: 1 }));
  });
});
