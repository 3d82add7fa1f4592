/**
 * A run directory's lock under contention (issue 57 item 6): many processes
 * (real ones, started together) find a stale lock and race to take it over.
 * Exactly one may hold it; each other one is refused with RUNDIR004 naming
 * the holder. The holder checks, while it holds, that the lock still names
 * it. The old takeover (read the stale lock, remove it, create) let two hold
 * it: the later remover deleted the lock the earlier one had just made.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'osvlab-lock-race-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CONTENDERS = 8;
const TRIALS = 4;

/** Each contender: wait for `go`, try the lock, say what happened, and if held keep it (checking it) until `done`. */
const CONTENDER = `
import { existsSync, readFileSync } from 'node:fs';
const [lockModule, dir, go, done] = process.argv.slice(2);
const { lockRunDir } = await import(lockModule);
const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
process.stdout.write('ready\\n');
while (!existsSync(go)) nap(1);
let lock;
try {
  lock = lockRunDir(dir);
  process.stdout.write('attempt held\\n');
} catch (e) {
  process.stdout.write('attempt ' + (e.code ?? 'crash') + ' ' + e.message + '\\n');
  process.exit(0);
}
let lost = false;
const end = Date.now() + 60000;
while (!existsSync(done) && Date.now() < end) {
  try { if (JSON.parse(readFileSync(dir + '/osvlab.lock', 'utf8')).pid !== process.pid) lost = true; } catch { lost = true; }
  nap(5);
}
process.stdout.write(lost ? 'lost\\n' : 'kept\\n');
lock.release();
`;

/** The lock module bundled for plain node, and the contender's script: their paths. */
function bundle(): { lock: string; script: string } {
  const dir = join(root, 'bin');
  mkdirSync(dir);
  const lock = join(dir, 'lock.mjs');
  buildSync({ entryPoints: [resolve('src/store/run-dir-lock.ts')], bundle: true, platform: 'node', format: 'esm', outfile: lock, logLevel: 'silent' });
  writeFileSync(join(dir, 'contender.mjs'), CONTENDER);
  return { lock, script: join(dir, 'contender.mjs') };
}

async function until(what: string, cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('stale lock takeover', () => {
  it(`${CONTENDERS} processes race for a stale lock, ${TRIALS} times: exactly one holds it each time`, async () => {
    const { lock, script } = bundle();
    for (let trial = 0; trial < TRIALS; trial++) {
      const dir = join(root, `run-${trial}`);
      mkdirSync(dir);
      // This process is alive, but with another start time: a holder whose pid was reused, so stale.
      writeFileSync(join(dir, 'osvlab.lock'), `${JSON.stringify({ pid: process.pid, started: 'not-this-process' })}\n`);
      const go = join(dir, 'go');
      const done = join(dir, 'done');
      const outs: string[] = [];
      const children: ChildProcess[] = [];
      const exits: Promise<void>[] = [];
      for (let i = 0; i < CONTENDERS; i++) {
        const c = spawn(process.execPath, [script, lock, dir, go, done], { stdio: ['ignore', 'pipe', 'inherit'] });
        outs.push('');
        c.stdout!.setEncoding('utf8').on('data', (s: string) => (outs[i] += s));
        children.push(c);
        exits.push(new Promise((r) => c.on('exit', () => r())));
      }
      try {
        await until('every contender to start', () => outs.every((o) => o.includes('ready')));
        writeFileSync(go, '');
        await until('every contender to try', () => outs.every((o) => o.includes('attempt ')));
        writeFileSync(done, '');
        await Promise.all(exits);
      } finally {
        for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      }
      const held = outs.filter((o) => o.includes('attempt held'));
      expect(held, `trial ${trial}: ${outs.join(' | ')}`).toHaveLength(1);
      expect(held[0]).toContain('kept');
      // Every other one is refused: the holder is named, or (on a loaded machine, when a takeover
      // outlasts the wait) the lock is said to be being taken over; never a second holder.
      for (const o of outs.filter((x) => !x.includes('attempt held'))) {
        expect(o).toMatch(/attempt RUNDIR004 RUNDIR004 (.* is in use by osvlab process \d+|.* is being taken over by another process; try again)/);
      }
    }
  }, 180_000);
});
