// The app's own database (src/app/lib/db.ts) over fake-indexeddb: opening a
// version-1 database (as the app shipped it, with the unused `lessons` table)
// keeps every draft and setting and drops that table.
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { drafts, settings } from '../../src/app/lib/db.ts';

describe('app db', () => {
  it('upgrades a version-1 database: drafts and settings stay, the lessons table goes', async () => {
    // The v1 schema exactly as first shipped, written down here so a later edit of db.ts cannot hide a break.
    const v1 = new Dexie('osvlab-app');
    v1.version(1).stores({ drafts: 'handler, updatedAt', lessons: 'lesson', settings: 'key' });
    await v1.table('drafts').bulkPut([
      { handler: 'sys_dup', spec: 'def sys_dup(old): pass\n', updatedAt: 2 },
      { handler: 'sys_kill', spec: 'def sys_kill(old, pid): pass\n', variant: 'sys_kill-v3', updatedAt: 1 },
    ]);
    await v1.table('settings').put({ key: 'theme', value: 'dark' });
    await v1.table('lessons').put({ lesson: 'reading-a-spec', passed: true, spec: 'x', updatedAt: 1 });
    v1.close();

    expect((await drafts.all()).map((d) => [d.handler, d.variant])).toEqual([['sys_dup', undefined], ['sys_kill', 'sys_kill-v3']]);
    expect(await settings.get('theme', 'light')).toBe('dark');

    const after = new Dexie('osvlab-app');
    await after.open();
    expect(after.verno).toBe(2);
    expect(after.tables.map((t) => t.name).sort()).toEqual(['drafts', 'settings']);
    after.close();
  });
});
