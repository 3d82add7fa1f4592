import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'osvlab-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that adds 1 to the count in `file` `times` times, each a read-merge-write as the proof generators do. */
function incrementer(file: string, times: number, locked: boolean): Promise<number | null> {
  const code = `
    import { readFileSync, renameSync, writeFileSync } from 'node:fs';
    import { withFileLock } from ${JSON.stringify(join(ROOT, 'scripts/file-lock.ts'))};
    const file = ${JSON.stringify(file)};
    const bump = () => {
      const n = JSON.parse(readFileSync(file, 'utf8')).n;
      for (let i = 0; i < 20000; i++) Math.sqrt(i); // the merge's own work, between read and write
      const tmp = file + '.' + process.pid + '.tmp';
      writeFileSync(tmp, JSON.stringify({ n: n + 1 }));
      renameSync(tmp, file);
    };
    for (let i = 0; i < ${times}; i++) ${locked ? 'withFileLock(file, bump)' : 'bump()'};
  `;
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: 'inherit' });
    p.on('exit', (status) => resolve(status));
  });
}

async function count(locked: boolean): Promise<number> {
  const file = join(dir, `count-${locked}.json`);
  writeFileSync(file, JSON.stringify({ n: 0 }));
  expect(await Promise.all([incrementer(file, 300, locked), incrementer(file, 300, locked), incrementer(file, 300, locked)])).toEqual([0, 0, 0]);
  return JSON.parse(readFileSync(file, 'utf8')).n;
}

describe('withFileLock (scripts/file-lock.ts)', () => {
  it('loses no update when processes read, merge and write one file side by side', async () => {
    expect(await count(true)).toBe(900);
  }, 120_000);
});
