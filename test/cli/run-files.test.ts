/**
 * The run files a user hands osvlab (issue 21, items 4, 5, 8, 12, 17 and
 * 18): folders that are not run directories are refused before anything is
 * written, damaged and missing files make a report partial, special files
 * are coded errors and never hang, a resume appends nothing it kept. Every
 * answer here is prose (a syntax grade, no solver query), so the suite is
 * quick.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-run-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const osvlab = (...args: string[]) => runCli(args);
const prose = 'I cannot write this spec.';
const answers = join(root, 'answers.jsonl');
writeFileSync(answers, ['sys_dup-v0', 'sys_close-v0', 'sys_kill-v0'].map((t) => JSON.stringify({ task_id: t, response: prose })).join('\n') + '\n');
const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim() !== '').length;

// One graded run and two shards of it, for the tests below (each test stands alone on them).
beforeAll(() => {
  expect(osvlab('grade', '--responses', answers, '--out', join(root, 'graded'), '--no-lemmas').code).toBe(0);
  for (const k of [1, 2]) expect(osvlab('grade', '--responses', answers, '--out', join(root, `shard-${k}`), '--no-lemmas', '--shard', `${k}/2`).code).toBe(0);
  // Three grading runs: over 120 s under a load average of 60. The bound only stops a hang.
}, 600_000);

describe('run files', () => {
  it('a rerun of grade --out appends nothing it kept (21.8)', () => {
    const dir = join(root, 'graded');
    const n = lines(join(dir, 'attempts.jsonl'));
    expect(n).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 2; i++) expect(osvlab('grade', '--responses', answers, '--out', dir, '--no-lemmas').code).toBe(0);
    expect(lines(join(dir, 'attempts.jsonl'))).toBe(n);
  }, 120_000);

  it('grade --out on a run whose attempts.jsonl links to a file outside is RUNDIR002, and that file is untouched', () => {
    const dir = join(root, 'linked');
    cpSync(join(root, 'graded'), dir, { recursive: true });
    const outside = join(root, 'outside-notes.txt');
    writeFileSync(outside, 'my notes\n');
    rmSync(join(dir, 'attempts.jsonl'));
    symlinkSync(outside, join(dir, 'attempts.jsonl'));
    const r = osvlab('grade', '--responses', answers, '--out', dir, '--no-lemmas');
    expect(r.code, r.err).toBe(4);
    expect(r.err).toContain(`RUNDIR002 ${join(dir, 'attempts.jsonl')} is a symbolic link`);
    expect(readFileSync(outside, 'utf8')).toBe('my notes\n');
  }, 120_000);

  it('a run directory the system will not let be written is RUNDIR005 naming the path and the reason, never a hang', () => {
    // Node's own recursive mkdir spins forever on /proc/sys; ENOENT there, EPERM under /sys.
    for (const [out, why] of [['/proc/sys/osvlab-x/run', 'a folder on its path does not exist or cannot hold files (ENOENT)'], ['/sys/osvlab-x', '(EPERM)']]) {
      const r = runCli(['grade', '--responses', answers, '--out', out, '--no-lemmas'], { timeoutMs: 60_000 });
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain(`RUNDIR005 ${out.replace(/\/run$/, '')} cannot be written: `);
      expect(r.err).toContain(why);
    }
    // A full or read-only file system, where this machine lets a test mount one (as root, CI's case).
    const fs = join(root, 'small-fs');
    mkdirSync(fs);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', fs]).status !== 0) return;
    try {
      const many = join(root, 'many.jsonl');
      writeFileSync(many, Array.from({ length: 200 }, (_, i) => JSON.stringify({ task_id: 'sys_kill-v0', response: `${prose} (${i}) ${'words '.repeat(40)}` })).join('\n') + '\n');
      const full = osvlab('grade', '--responses', many, '--out', join(fs, 'run'), '--no-lemmas');
      expect(full.code, full.err).toBe(4);
      expect(full.err).toMatch(new RegExp(`RUNDIR005 ${fs}/run/\\S+ cannot be written: no space is left on its device \\(ENOSPC\\)`));
      expect(spawnSync('mount', ['-o', 'remount,ro', fs]).status).toBe(0);
      const ro = osvlab('grade', '--responses', answers, '--out', join(fs, 'other'), '--no-lemmas');
      expect(ro.code, ro.err).toBe(4);
      expect(ro.err).toContain(`RUNDIR005 ${join(fs, 'other')} cannot be written: its file system is read-only (EROFS)`);
    } finally {
      spawnSync('umount', [fs]);
    }
  }, 180_000);

  it('--out into a folder that is not a run directory is refused and its files are untouched (21.4)', () => {
    const mine = join(root, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'attempts.jsonl'), 'my own notes\n');
    writeFileSync(join(mine, 'prompts.jsonl'), 'more notes');
    for (const args of [['grade', '--responses', answers, '--out', mine], ['merge', join(root, 'shard-1'), join(root, 'shard-2'), '--out', mine]]) {
      const r = osvlab(...args);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain('RUNDIR003');
    }
    expect(readFileSync(join(mine, 'attempts.jsonl'), 'utf8')).toBe('my own notes\n');
    expect(readFileSync(join(mine, 'prompts.jsonl'), 'utf8')).toBe('more notes');
    expect(readdirSync(mine).sort()).toEqual(['attempts.jsonl', 'prompts.jsonl']);
    const slash = osvlab('grade', '--responses', answers, '--out', '/');
    expect(slash.code).toBe(4);
    expect(slash.err).toContain('RUNDIR003');
    expect(existsSync('/run.json')).toBe(false);
    // Five CLI runs: 16 s on an idle machine, 87 s under a load average of 37. The bound only stops a hang.
  }, 300_000);

  it('a file where a folder is expected, and a folder where attempts.jsonl is expected, are coded (21.18)', () => {
    const f = join(root, 'a-file');
    writeFileSync(f, 'x');
    for (const out of [f, join(f, 'run')]) {
      const r = osvlab('grade', '--responses', answers, '--out', out);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toMatch(/RUNDIR003 .* not a directory/);
    }
    const dir = join(root, 'dir-attempts');
    execFileSync('cp', ['-r', join(root, 'graded'), dir]);
    rmSync(join(dir, 'attempts.jsonl'));
    mkdirSync(join(dir, 'attempts.jsonl'));
    const r = osvlab('report', dir);
    expect(r.code, r.err).toBe(4);
    expect(r.err).toMatch(/RUNDIR002 .*attempts\.jsonl is a directory/);
  }, 60_000);

  it('merge --export into a folder is refused before the merged run is written (21.18)', () => {
    const out = join(root, 'merged-x');
    const shards = [join(root, 'shard-1'), join(root, 'shard-2')];
    const r = osvlab('merge', ...shards, '--out', out, '--export', root);
    expect(r.code, r.err).toBe(4);
    expect(r.err).toContain('RUNDIR003');
    expect(existsSync(join(out, 'run.json'))).toBe(false);
    // The same merge with a good file name then works (nothing was left behind).
    const ok = osvlab('merge', ...shards, '--out', out, '--export', join(root, 'merged.json'));
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'merged.json'), 'utf8')).format).toBe('osvlab-run');
  }, 60_000);

  it('a merge that skips damaged lines says so and marks the run partial; a missing attempts.jsonl is partial (21.5)', () => {
    const shard = join(root, 'damaged-shard');
    execFileSync('cp', ['-r', join(root, 'shard-1'), shard]);
    writeFileSync(join(shard, 'attempts.jsonl'), readFileSync(join(shard, 'attempts.jsonl'), 'utf8') + '{"id": "torn"}\n');
    const out = join(root, 'merged-damaged');
    const m = osvlab('merge', shard, join(root, 'shard-2'), '--out', out, '--json');
    expect(m.code, m.err).toBe(2);
    expect(m.err).toContain('skipped');
    expect(JSON.parse(m.out)).toMatchObject({ skipped: 1, status: 'incomplete', partial: expect.stringContaining('damaged line') });
    const rep = JSON.parse(osvlab('report', out, '--json').out);
    expect(rep.partial).toBe(true);
    expect(rep.partial_reasons[0]).toContain('damaged line');

    const gone = join(root, 'no-attempts');
    execFileSync('cp', ['-r', join(root, 'graded'), gone]);
    rmSync(join(gone, 'attempts.jsonl'));
    const r = osvlab('report', gone, '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ partial: true, partial_reasons: [expect.stringContaining('attempts.jsonl is missing')] });
  }, 60_000);

  it('report on a FIFO or /dev/zero as a run file is a coded error at once, never a hang (21.12)', () => {
    for (const name of ['attempts.jsonl', 'run.json']) {
      const dir = join(root, `fifo-${name}`);
      execFileSync('cp', ['-r', join(root, 'graded'), dir]);
      rmSync(join(dir, name));
      execFileSync('mkfifo', [join(dir, name)]);
      const started = Date.now();
      // A hang is killed (code -1) rather than holding the suite.
      const r = runCli(['report', dir], { timeoutMs: 20_000 });
      expect(r.code, r.err).toBe(4);
      expect(r.err).toMatch(/RUNDIR002 .*a pipe \(FIFO\)/);
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    const zero = join(root, 'zero');
    execFileSync('cp', ['-r', join(root, 'graded'), zero]);
    rmSync(join(zero, 'attempts.jsonl'));
    symlinkSync('/dev/zero', join(zero, 'attempts.jsonl'));
    const z = runCli(['report', zero], { timeoutMs: 20_000 });
    expect(z.code, z.err).toBe(4);
    expect(z.err).toMatch(/RUNDIR002 .*is a symbolic link/);
  }, 60_000);

  it('report is not quadratic in unknown task ids (21.12)', () => {
    // Timed against the same report with a tenth of the ids, in this run: linear
    // work costs both about the start-up of the CLI; quadratic took minutes for
    // 200,000 ids and would take a hundredth of that for 20,000.
    const timed = (n: number) => {
      const dir = join(root, `many-ids-${n}`);
      execFileSync('cp', ['-r', join(root, 'graded'), dir]);
      const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
      run.config.tasks = Array.from({ length: n }, (_, i) => `nosuch_${i}-v0`);
      writeFileSync(join(dir, 'run.json'), JSON.stringify(run));
      const started = Date.now();
      // Killed at 180 s (code -1) rather than holding the suite.
      const r = runCli(['report', dir, '--json'], { timeoutMs: 180_000 });
      expect(r.code, r.err).toBe(0);
      return Date.now() - started;
    };
    const small = timed(20_000);
    const large = timed(200_000);
    expect(large, `${large} ms for 200,000 ids, ${small} ms for 20,000`).toBeLessThan(4 * small + 5_000);
  }, 400_000);

  it('report names attempts of tasks the run does not list and marks the report partial', () => {
    const dir = join(root, 'stray-attempts');
    execFileSync('cp', ['-r', join(root, 'graded'), dir]);
    const before = JSON.parse(runCli(['report', dir, '--json']).out);
    expect(before.partial).toBe(false);
    const lines = readFileSync(join(dir, 'attempts.jsonl'), 'utf8').trimEnd().split('\n');
    const moved = { ...JSON.parse(lines[0]), id: 'moved-0', taskId: 'sys_not_a_handler-v9' };
    writeFileSync(join(dir, 'attempts.jsonl'), `${[...lines, JSON.stringify(moved)].join('\n')}\n`);
    const r = runCli(['report', dir, '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.partial).toBe(true);
    expect(out.partial_reasons.join(' ')).toMatch(/1 attempt names a task this run does not have \(sys_not_a_handler-v9\)/);
    expect(out.pass_at_k).toEqual(before.pass_at_k);
    expect(runCli(['report', dir]).out).toMatch(/PARTIAL REPORT[\s\S]*sys_not_a_handler-v9/);
  }, 60_000);

  it('one stray key in an OSVBench results file is a coded bad entry and the rest grade (21.17)', () => {
    // All the strays in one file (one CLI run; one run per stray took 120-230 s of CI): each is a bad entry of its own.
    const strays = ['meta', '-1', '1.0', ' 95', '__proto__'];
    const f = join(root, 'stray.json');
    writeFileSync(f, `{${strays.map((k) => `"${k}": {"x": 1}, `).join('')}"3": {"sys_kill": ["${prose}"]}}`);
    const r = osvlab('grade', '--responses', f, '--json', '--no-lemmas');
    expect(r.code, r.err).toBe(2);
    const out = JSON.parse(r.out);
    expect(out.summary.format).toBe('osvbench');
    expect(out.results).toHaveLength(1);
    expect(out.bad).toHaveLength(strays.length);
    for (const b of out.bad) expect(b).toEqual(expect.objectContaining({ code: 'GRADE007' }));
  }, 300_000);
});
