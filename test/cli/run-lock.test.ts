/**
 * One writer per run directory, and a stopped grade that says it is partial
 * (docs/osvbench.md, "Run directories"), as a user meets them: `osvlab` in
 * child processes. A run waiting on a provider that never answers holds its
 * directory; every other command that writes there is refused with
 * RUNDIR004 naming the holder's pid; the lock of a killed holder is taken
 * over; Ctrl+C releases it.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { runCli, startCli } from '../cli-process.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';

// Only stops a hang: the holder test took 240 s and ran out at a load average of 50 (about 2 min on CI).
const TIMEOUT_MS = 600_000;
const root = mkdtempSync(join(tmpdir(), 'osvlab-lock-'));
const env: NodeJS.ProcessEnv = { ...process.env, OSVLAB_API_KEY: 'sk-lock-test-0000' };
let fake: FakeProvider;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  fake.reset();
});
afterAll(async () => {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
});

function start(args: readonly string[]) {
  const s = startCli(args, env);
  children.add(s.child);
  return s;
}

async function waitFor(what: string, cond: () => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const runArgs = (dir: string) => ['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'm', '--tasks', 'sys_kill-v0', '--shots', '0', '--no-lemmas', '--out', dir, '--request-timeout', '600000'];

describe('a run directory has one writer', () => {
  it('while a run holds it, run, grade, regrade --out and merge --out there are RUNDIR004 naming its pid; a killed holder is taken over', async () => {
    fake.respond(() => ({ kind: 'hang' }));
    const dir = join(root, 'held');
    const holder = start(runArgs(dir));
    await waitFor('the request', () => fake.requests.length === 1);
    const lock = join(dir, 'osvlab.lock');
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(holder.child.pid);

    const answers = join(root, 'answers.jsonl');
    writeFileSync(answers, `${JSON.stringify({ task_id: 'sys_kill-v0', response: 'No code.' })}\n`);
    const said = `RUNDIR004 ${dir} is in use by osvlab process ${holder.child.pid}`;
    for (const args of [runArgs(dir), ['grade', '--responses', answers, '--out', dir, '--no-lemmas'], ['regrade', dir, '--out', dir], ['merge', dir, '--out', dir]]) {
      const r = runCli(args, { env });
      expect(r.code, `${args[0]}: ${r.err}`).toBe(4);
      expect(r.err, args[0]).toContain(said);
    }
    // A merge into a new folder that another process has locked (here: this test's process) is refused before it reads its shards.
    const fresh = join(root, 'merge-into');
    mkdirSync(fresh);
    writeFileSync(join(fresh, 'osvlab.lock'), JSON.stringify({ pid: process.pid }));
    const m = runCli(['merge', dir, '--out', fresh], { env });
    expect(m.code, m.err).toBe(4);
    expect(m.err).toContain(`RUNDIR004 ${fresh} is in use by osvlab process ${process.pid}`);
    // Asked once: the refused runs sent nothing.
    expect(fake.requests).toHaveLength(1);

    holder.child.kill('SIGKILL');
    await holder.result;
    expect(existsSync(lock)).toBe(true);
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: 'No code.' }));
    // Asynchronous: the fake provider answers from this process.
    const next = await start(runArgs(dir)).result;
    expect(next.code, next.err).toBe(0);
    expect(existsSync(lock)).toBe(false);
  }, TIMEOUT_MS);

  it('Ctrl+C releases the lock: the next run resumes at once', async () => {
    fake.respond(() => ({ kind: 'hang' }));
    const dir = join(root, 'interrupted');
    const first = start(runArgs(dir));
    await waitFor('the request', () => fake.requests.length === 1);
    first.child.kill('SIGINT');
    const r = await first.result;
    expect(r.code, r.err).toBe(3);
    expect(existsSync(join(dir, 'osvlab.lock'))).toBe(false);
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: 'No code.' }));
    const next = await start(runArgs(dir)).result;
    expect(next.code, next.err).toBe(0);
    expect(next.err).toContain('resuming run');
  }, TIMEOUT_MS);
});

describe('a grade stopped half-way', () => {
  it('says partial (exit 3), its report is partial until a rerun grades the rest', async () => {
    const spec = oracleSpec('sys_kill')!;
    const n = 24;
    const answers = join(root, 'slow.jsonl');
    // Each answer is a correct spec, so each grade is a real proof (seconds), one at a time.
    writeFileSync(answers, Array.from({ length: n }, (_, i) => JSON.stringify({ task_id: 'sys_kill-v0', response: `${spec}\n# answer ${i}\n` })).join('\n') + '\n');
    const dir = join(root, 'stopped');
    const args = ['grade', '--responses', answers, '--out', dir, '--concurrency', '1'];
    const first = start(args);
    let out = '';
    first.child.stdout!.on('data', (s: string) => (out += s));
    await waitFor('two grades', () => (out.match(/ pass/g) ?? []).length >= 2);
    first.child.kill('SIGINT');
    const r = await first.result;
    expect(r.code, r.err).toBe(3);
    const graded = (r.out.match(/^line \d+ .* pass/gm) ?? []).length;
    expect(graded).toBeLessThan(n);
    expect(r.out).toContain(`PARTIAL: stopped with ${n - graded} of ${n} answers not graded`);

    const report = JSON.parse(runCli(['report', dir, '--json'], { env }).out);
    expect(report.partial).toBe(true);
    expect(report.run.status).toBe('cancelled');
    expect(report.partial_reasons).toContain(`the run is not finished (status cancelled): ${n - graded} of ${n} answers are not graded yet; rerun the command that made it to finish it`);

    const rest = runCli([...args, '--json'], { env });
    expect(rest.code, rest.err).toBe(0);
    expect(JSON.parse(rest.out).summary).toMatchObject({ partial: false, answers: n, pass: n });
    expect(JSON.parse(runCli(['report', dir, '--json'], { env }).out).partial).toBe(false);
  }, TIMEOUT_MS);
});
