/**
 * Browser stores as the current release (main at 88b9320, before the page
 * had one database) wrote them, for the migration tests of
 * src/app/lib/storage.ts: in Node over fake-indexeddb (test/app/storage.test.ts)
 * and in real browsers (test/e2e/storage-upgrade.test.ts, which bundles this
 * file into a page).
 *
 * The schemas below are that release's version declarations copied here and
 * frozen: the databases `osvlab` (src/store/schema.ts), `osvlab-app`
 * (src/app/lib/db.ts), `osvlab-course` (src/app/lessons/progress-db.ts, with
 * its version 2 upgrade) and `osvlab-history` (src/app/lib/history-db.ts),
 * and the local-storage entries of remembered API keys
 * (state/provider-settings.svelte.ts). A later edit of the app cannot change
 * what these write. Nothing here may import the app's storage code.
 */
import Dexie from 'dexie';
import { PROMPT, REPAIR_PROMPT, makeAttempt, makeRun } from '../store/fixtures.ts';

type DexieDeps = ConstructorParameters<typeof Dexie>[1];

/** The release's `osvlab` (runs). */
function releaseRunsDb(deps?: DexieDeps): Dexie {
  const db = new Dexie('osvlab', deps);
  db.version(1).stores({
    runs: 'id, createdAt',
    attempts: 'id, runId',
    prompts: 'hash',
    responseCache: 'key, createdAt',
    settings: 'key',
    drafts: 'handler, updatedAt',
    lessons: 'lesson',
  });
  return db;
}

/** The release's `osvlab-app`; `version` 1 is the one before it dropped `lessons`. */
function releaseAppDb(version: 1 | 2, deps?: DexieDeps): Dexie {
  const db = new Dexie('osvlab-app', deps);
  db.version(1).stores({ drafts: 'handler, updatedAt', lessons: 'lesson', settings: 'key' });
  if (version === 2) db.version(2).stores({ lessons: null });
  return db;
}

/** The release's `osvlab-course`; `version` 1 is the one whose attempt files carried the whole exercise. */
function releaseCourseDb(version: 1 | 2, deps?: DexieDeps): Dexie {
  const db = new Dexie('osvlab-course', deps);
  db.version(1).stores({ exercises: 'key', imports: 'id, importedAt' });
  if (version === 2)
    db.version(2)
      .stores({ exercises: 'key', imports: 'id, importedAt', authored: 'id' })
      .upgrade((tx) =>
        tx
          .table('imports')
          .toCollection()
          .modify((rec: { file: Record<string, unknown> & { exercise: { title: string; handler: string } }; exercise?: unknown }) => {
            if (rec.file.v !== 1) return;
            const ex = rec.file.exercise;
            rec.exercise = ex;
            rec.file = { ...rec.file, v: 2, exercise: { title: ex.title, handler: ex.handler }, withSolution: false };
          }),
      );
  return db;
}

/** The release's `osvlab-history`. */
function releaseHistoryDb(deps?: DexieDeps): Dexie {
  const db = new Dexie('osvlab-history', deps);
  db.version(1).stores({ entries: '++id, at, handler' });
  return db;
}

const EXERCISE = {
  v: 1,
  kind: 'osvlab-exercise',
  title: 'Duplicate a descriptor',
  prompt: 'Write the spec of sys_dup.',
  handler: 'sys_dup',
  starter: 'def sys_dup(old, oldfd, pid, newfd):\n    pass\n',
  refuteOn: ['sys_dup-v1'],
  strict: false,
  hideChecks: false,
} as const;

const ATTEMPT_FILE = {
  format: 'osvlab-attempt',
  v: 2,
  exerciseId: 'e'.repeat(16),
  exercise: { title: EXERCISE.title, handler: EXERCISE.handler },
  learner: 'Ada',
  answer: 'def sys_dup(old, oldfd, pid, newfd):\n    new = old.copy()\n    return new\n',
  passed: false,
  withSolution: false,
  message: 'Refuted: procs.ofile differs.',
  checks: [{ label: 'Verifies against the correct kernel', status: 'failed' }],
  attempts: 2,
  hintsOpened: 1,
  gradedAt: 5000,
  app: '0.1.0',
} as const;

/** What the release wrote, table by table: every row the migration must keep. */
export const RELEASE = {
  runs: [makeRun('run-1', 1000), makeRun('run-2', 2000)],
  attempts: [makeAttempt('run-1', 'sys_dup-v0', 0, 0), makeAttempt('run-1', 'sys_dup-v0', 0, 1), makeAttempt('run-2', 'sys_dup-v1', 1, 0)],
  prompts: [PROMPT, REPAIR_PROMPT],
  responseCache: [{ key: 'f'.repeat(64), createdAt: 3000, completion: { text: 'def sys_dup(old): pass', model: 'm', usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 5 } }],
  runSettings: [{ key: 'prices', value: { m: { input: 1, output: 2 } } }],
  drafts: [
    { handler: 'sys_dup', spec: 'def sys_dup(old, oldfd, pid, newfd):\n    pass  # draft\n', updatedAt: 2 },
    { handler: 'sys_kill', spec: 'def sys_kill(old, pid):\n    pass\n', variant: 'sys_kill-v3', updatedAt: 1 },
  ],
  appSettings: [{ key: 'playground.last', value: { handler: 'sys_kill', variant: 'sys_kill-v3' } }],
  history: [
    { id: 1, handler: 'sys_dup', variant: '', spec: 'def sys_dup(old):\n    pass  # 1\n', status: 'refuted', at: 10, title: 'first try' },
    { id: 2, handler: 'sys_dup', variant: 'sys_dup-v1', spec: 'def sys_dup(old):\n    pass  # 2\n', status: 'verified', at: 20, title: 'v2' },
    { id: 5, handler: 'sys_kill', variant: '', spec: 'def sys_kill(old, pid):\n    pass  # 5\n', status: 'error', at: 30, title: 'kill' },
  ],
  exercises: [
    { key: 'state-machines/fix-state', answer: 'def f(): pass', passed: true, attempts: 3, hintsOpened: 1, lastMessage: 'Verified.', passedWith: 'own' as const, updatedAt: 40 },
    { key: 't/abc', answer: 'def g(): pass', passed: false, attempts: 1, hintsOpened: 0, updatedAt: 41 },
  ],
  imports: [{ id: 'i'.repeat(64), importedAt: 50, file: ATTEMPT_FILE, graded: { passed: false, message: 'Refuted.', app: '0.1.0' } }],
  authored: [{ id: 'e'.repeat(16), exercise: EXERCISE, savedAt: 60 }],
  /** local storage: a key remembered per origin, and one saved by an older version as the plain key. */
  keys: { 'osvlab.key.openai': JSON.stringify({ 'https://api.openai.com': 'sk-release-openai' }), 'osvlab.key.anthropic': 'sk-ant-legacy-plain' },
};

/** The names of the release's databases. */
export const RELEASE_DATABASES = ['osvlab', 'osvlab-app', 'osvlab-course', 'osvlab-history'] as const;

/** A version 1 import row (course version 1): its file carried the whole exercise. */
export const IMPORT_V1 = { id: 'j'.repeat(64), importedAt: 55, file: { ...ATTEMPT_FILE, v: 1, exercise: EXERCISE } };

/**
 * Writes RELEASE with the release's own schemas (and the API keys into
 * `localStorage` when there is one). `older`: the app and course databases at
 * their version 1, with one version 1 import, as a user who skipped a release has them.
 */
export async function writeReleaseStores(deps?: DexieDeps, older = false): Promise<void> {
  const runs = releaseRunsDb(deps);
  await runs.open();
  await runs.table('runs').bulkPut(RELEASE.runs);
  await runs.table('attempts').bulkPut(RELEASE.attempts);
  await runs.table('prompts').bulkPut(RELEASE.prompts);
  await runs.table('responseCache').bulkPut(RELEASE.responseCache);
  await runs.table('settings').bulkPut(RELEASE.runSettings);
  runs.close();

  const app = releaseAppDb(older ? 1 : 2, deps);
  await app.table('drafts').bulkPut(RELEASE.drafts);
  await app.table('settings').bulkPut(RELEASE.appSettings);
  app.close();

  const course = releaseCourseDb(older ? 1 : 2, deps);
  await course.table('exercises').bulkPut(RELEASE.exercises);
  await course.table('imports').bulkPut(older ? [...RELEASE.imports, IMPORT_V1] : RELEASE.imports);
  if (!older) await course.table('authored').bulkPut(RELEASE.authored);
  course.close();

  const history = releaseHistoryDb(deps);
  await history.table('entries').bulkPut(RELEASE.history);
  history.close();

  if (typeof localStorage !== 'undefined') for (const [k, v] of Object.entries(RELEASE.keys)) localStorage.setItem(k, v);
}

/** The tables of the new database that hold what the release wrote, and how they are keyed. */
const KEYS = { runs: 'id', attempts: 'id', prompts: 'hash', responseCache: 'key', settings: 'key', drafts: 'handler', history: 'id', exercises: 'key', imports: 'id', authored: 'id' } as const;

type Snapshot = Record<keyof typeof KEYS, unknown[]>;

const byKey = (key: string) => (a: Record<string, unknown>, b: Record<string, unknown>) => (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0);

/** Every row of those tables in `db` (the setting that marks the move left out), each table in key order. */
export async function snapshotOf(db: Dexie, movedSetting: string): Promise<Snapshot> {
  const out = {} as Snapshot;
  for (const [table, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    const rows = (await db.table(table).toArray()) as Record<string, unknown>[];
    out[table] = rows.filter((r) => !(table === 'settings' && r.key === movedSetting)).sort(byKey(key));
  }
  return out;
}

/** What snapshotOf must give after the upgrade of the stores writeReleaseStores(…, older) wrote: every row, version 1 imports in their version 2 form. */
export function expectedAfterUpgrade(older = false): Snapshot {
  const { exercise: ex } = IMPORT_V1.file;
  const importV1As2 = { ...IMPORT_V1, exercise: ex, file: { ...IMPORT_V1.file, v: 2, exercise: { title: ex.title, handler: ex.handler }, withSolution: false } };
  const rows: Record<keyof typeof KEYS, Record<string, unknown>[]> = {
    runs: RELEASE.runs as never,
    attempts: RELEASE.attempts as never,
    prompts: RELEASE.prompts as never,
    responseCache: RELEASE.responseCache,
    settings: [...RELEASE.runSettings, ...RELEASE.appSettings],
    drafts: RELEASE.drafts,
    history: RELEASE.history,
    exercises: RELEASE.exercises,
    imports: older ? [...RELEASE.imports, importV1As2] : RELEASE.imports,
    authored: older ? [] : RELEASE.authored,
  };
  const out = {} as Snapshot;
  for (const [table, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) out[table] = [...rows[table]].sort(byKey(key));
  return out;
}
