// The Dexie repository over fake-indexeddb (on the page's database, src/app/lib/storage.ts), the shared suite, and schema migration from v1.
import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DexieRepository } from '../../src/store/dexie.ts';
import { CURRENT_VERSION, OsvlabDb, SCHEMA } from '../../src/app/lib/storage.ts';
import { PROMPT, makeAttempt, makeRun } from './fixtures.ts';
import { repositorySuite } from './repository-suite.ts';

const idb = { indexedDB, IDBKeyRange };
let counter = 0;

repositorySuite('Dexie', {
  async open() {
    return new DexieRepository(new OsvlabDb(`osvlab-test-${++counter}`, idb));
  },
  async reopen(repo) {
    const name = (repo as DexieRepository).db.name;
    await repo.close();
    return new DexieRepository(new OsvlabDb(name, idb));
  },
});

describe('Dexie specifics', () => {
  it('holds many runs, listed by creation time', async () => {
    const repo = new DexieRepository(new OsvlabDb(`osvlab-many-${++counter}`, idb));
    await repo.putRun(makeRun('b', 2000));
    await repo.putRun(makeRun('a', 1000));
    await repo.putAttempt(makeAttempt('a', 'sys_dup-v0', 0, 0));
    await repo.putAttempt(makeAttempt('b', 'sys_dup-v0', 0, 0));
    expect((await repo.listRuns()).map((r) => r.id)).toEqual(['a', 'b']);
    await repo.deleteRun('a');
    expect(await repo.listAttempts('b')).toHaveLength(1);
    await repo.close();
  });

  it('opens a version-1 database with the current code and keeps every row', async () => {
    const name = `osvlab-v1-${++counter}`;
    // The v1 schema exactly as first shipped, written down here so a later edit of SCHEMA cannot hide a break.
    const v1 = new Dexie(name, idb);
    v1.version(1).stores({
      runs: 'id, createdAt',
      attempts: 'id, runId',
      prompts: 'hash',
      responseCache: 'key, createdAt',
      settings: 'key',
      drafts: 'handler, updatedAt',
      lessons: 'lesson',
    });
    await v1.open();
    await v1.table('runs').put(makeRun());
    await v1.table('attempts').bulkPut([makeAttempt('run-1', 'sys_dup-v0', 0, 0), makeAttempt('run-1', 'sys_dup-v0', 1, 0)]);
    await v1.table('prompts').put(PROMPT);
    await v1.table('settings').put({ key: 'prices', value: { x: { input: 1, output: 1 } } });
    await v1.table('drafts').put({ handler: 'sys_dup', spec: 'def sys_dup(): pass', updatedAt: 1 });
    v1.close();

    const db = new OsvlabDb(name, idb);
    await db.open();
    expect(db.verno).toBe(CURRENT_VERSION);
    const want = SCHEMA[SCHEMA.length - 1].stores;
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(want).filter((k) => want[k] !== null).sort());
    for (const t of db.tables) {
      const spec = [t.schema.primKey.src, ...t.schema.indexes.map((i) => i.src)].join(', ');
      expect(spec).toBe(want[t.name]);
    }
    expect(await db.runs.count()).toBe(1);
    expect(await db.attempts.where('runId').equals('run-1').count()).toBe(2);
    expect(await db.prompts.get(PROMPT.hash)).toEqual(PROMPT);
    expect((await db.drafts.get('sys_dup'))?.spec).toBe('def sys_dup(): pass');
    // `lessons`, which no release wrote (the course kept its progress in osvlab-course), is gone.
    expect(db.tables.map((t) => t.name)).not.toContain('lessons');
    expect((await db.settings.get('prices'))?.value).toEqual({ x: { input: 1, output: 1 } });
    db.close();
  });
});
