/**
 * `osvlab grade` as a user runs it (the CLI in a child process, the real
 * verifier in its worker pool): JSONL files with bad lines, OSVBench's own
 * results format with several samples per task, `--out` + `osvlab report`,
 * and `strict` in the JSON.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/core/tasks/task.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { codeAnswer, oracleSpec, proseAnswer } from '../fake-provider/answers.ts';
import { runCli } from '../cli-process.ts';

const TIMEOUT_MS = 420_000;
const root = mkdtempSync(join(tmpdir(), 'osvlab-grade-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

function osvlab(...args: string[]): { code: number; out: string; err: string } {
  return runCli(args);
}

function file(name: string, text: string): string {
  const p = join(root, name);
  writeFileSync(p, text);
  return p;
}

/** Replaces `from` (which must occur) in a spec. */
function edit(spec: string, from: string, to: string): string {
  if (!spec.includes(from)) throw new Error(`spec lacks ${JSON.stringify(from)}`);
  return spec.replace(from, to);
}

/** An OSVBench-style answer: the function alone, no fence, no prose (here still with its import lines; see the bare test below). */
const functionOnly = (spec: string) => `\n${spec.trim()}\n`;
/** The import lines of an oracle spec removed: the function as OSVBench's results files hold it. */
const bare = (spec: string) => spec.split('\n').filter((l) => !/^(import|from)\s/.test(l)).join('\n');

const KILL = oracleSpec('sys_kill');
const RUNNABLE = oracleSpec('sys_set_runnable');
// Writes the wrong state: RUNNING instead of RUNNABLE.
const RUNNABLE_WRONG = edit(RUNNABLE, 'dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING');

const indexOf = (id: string) => tasks.findIndex((t) => t.id === id);

describe('osvlab grade', () => {
  it('grades every good line of a JSONL file and reports each bad one with its line number and code; strict is printed', () => {
    const lines = [
      JSON.stringify({ task_id: 'sys_kill-v0', response: codeAnswer(KILL) }),
      'null',
      '[1, 2]',
      JSON.stringify({ task_id: 'sys_kill-v1' }),
      JSON.stringify({ task_id: 'no-such-task', response: 'x' }),
      '{"task_id": "sys_kill-v0", "response": "cut',
      JSON.stringify({ handler: 'sys_reclaim_port', response: proseAnswer() }),
      '',
    ];
    // A UTF-8 byte-order mark before the first line is accepted.
    const path = file('mixed.jsonl', `\uFEFF${lines.join('\n')}`);
    const r = osvlab('grade', '--responses', path, '--json');
    expect(r.code, r.err).toBe(2);
    const out = JSON.parse(r.out);
    expect(out.results.map((x: { line: number; task_id: string; category: string }) => [x.line, x.task_id, x.category])).toEqual([
      [1, 'sys_kill-v0', 'pass'],
      [7, 'sys_reclaim_port-v0', 'syntax'],
    ]);
    // The strict result of a passing answer is part of its grade (the oracle satisfies the lemma checks).
    expect(out.results[0].strict).toBe(true);
    expect(out.results[1].strict).toBeNull();
    expect(out.bad.map((b: { line: number; code: string }) => [b.line, b.code])).toEqual([
      [2, 'GRADE002'],
      [3, 'GRADE002'],
      [4, 'GRADE003'],
      [5, 'GRADE005'],
      [6, 'GRADE001'],
    ]);
    expect(out.summary).toMatchObject({ format: 'jsonl', answers: 2, pass: 1, syntax: 1, strict: 1, bad_lines: 5, grading: { strict: true } });
    expect(out.summary.grading.timeoutMs).toBeGreaterThan(0);
    // Each verifier worker's start, jobs and busy time: one answer went to a worker (the prose one needs none).
    const workers = out.summary.workers as { readyMs?: number; jobs: number; busyMs: number; doneMs?: number }[];
    expect(workers.reduce((n, w) => n + w.jobs, 0)).toBe(1);
    const busy = workers.find((w) => w.jobs === 1)!;
    expect(busy.busyMs).toBeGreaterThan(0);
    expect(busy.doneMs).toBeGreaterThanOrEqual(busy.readyMs! + busy.busyMs);
    expect(busy.doneMs).toBeLessThanOrEqual(out.summary.ms);
    for (const n of [2, 3, 4, 5, 6]) expect(r.err).toContain(`line ${n}: GRADE`);
  }, TIMEOUT_MS);

  it("grades OSVBench's results format sample by sample, and --out writes a run that report reads", () => {
    const kill = indexOf('sys_kill-v0');
    const runnable = indexOf('sys_set_runnable-v1');
    const results = {
      [kill]: { sys_kill: [functionOnly(KILL), proseAnswer()] },
      [runnable]: { sys_set_runnable: [functionOnly(RUNNABLE_WRONG), functionOnly(RUNNABLE)] },
      // One stray key is a bad entry; the others still grade (the file is not read as JSONL).
      meta: { model: 'x' },
    };
    const path = file('osvbench_results.json', JSON.stringify(results, null, 4));
    const dir = join(root, 'osv-run');
    const r = osvlab('grade', '--responses', path, '--json', '--no-lemmas', '--out', dir, '--model', 'hand-written');
    expect(r.code, r.err).toBe(2);
    const out = JSON.parse(r.out);
    expect(out.summary.format).toBe('osvbench');
    const got = out.results.map((x: any) => `${x.index} ${x.syscall} ${x.sample} ${x.task_id} ${x.category}`).sort();
    expect(got).toEqual(
      [
        `${kill} sys_kill 0 sys_kill-v0 pass`,
        `${kill} sys_kill 1 sys_kill-v0 syntax`,
        `${runnable} sys_set_runnable 0 sys_set_runnable-v1 semantic`,
        `${runnable} sys_set_runnable 1 sys_set_runnable-v1 pass`,
      ].sort(),
    );
    expect(out.bad).toEqual([expect.objectContaining({ code: 'GRADE007', message: expect.stringContaining('"meta"') })]);
    expect(out.summary.osvbench).toEqual({ pass: 2, syntax: 1, semantic: 1 });
    expect(out.summary.grading.strict).toBe(false);

    const rep = osvlab('report', dir, '--json');
    expect(rep.code, rep.err).toBe(0);
    const m = JSON.parse(rep.out);
    expect(m.run.source).toEqual({ format: 'osvbench', file: 'osvbench_results.json' });
    expect(m.run.model).toBe('hand-written');
    expect(m.partial).toBe(false);
    expect(m.grading).toEqual({ timeoutMs: out.summary.grading.timeoutMs, strict: false });
    // Two tasks, two samples each, one pass each: pass@1 = 1/2 per task.
    expect(m.pass_at_k).toEqual({ 1: 0.5 });
    expect(m.metrics.samples).toBe(4);
    expect(m.osvbench.counts).toEqual({ pass: 2, syntax: 1, semantic: 1 });
    expect(m.metrics.byHandler).toEqual({
      sys_kill: { tasks: 1, samples: 2, passes: 1, pass1: 0.5 },
      sys_set_runnable: { tasks: 1, samples: 2, passes: 1, pass1: 0.5 },
    });
    const text = osvlab('report', dir).out;
    expect(text).toContain("OSVBench's categories: pass 50.0% (2)  syntax 25.0% (1)  semantic 25.0% (1)");
    expect(text).toMatch(/by handler:[\s\S]*sys_kill\s+50\.0%\s+1\/2/);
  }, TIMEOUT_MS);

  // Bare functions (no import lines) evaluate in the namespace of hv6's specs.py once the spec
  // dialect's namespace change (issue 9, section 1) is merged; until then this test fails.
  it('a bare function with no import lines grades like the same function with them', () => {
    const idx = indexOf('sys_kill-v0');
    const path = file('bare.json', JSON.stringify({ [idx]: { sys_kill: [bare(KILL), functionOnly(KILL)] } }));
    const r = osvlab('grade', '--responses', path, '--json', '--no-lemmas');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).results.map((x: { category: string }) => x.category)).toEqual(['pass', 'pass']);
  }, TIMEOUT_MS);
});

describe('osvlab tasks --format osvbench', () => {
  it("writes the 245 tasks in OSVBench's benchmark.json shape, in the order grade maps indexes to", async () => {
    const r = osvlab('tasks', '--format', 'osvbench');
    expect(r.code, r.err).toBe(0);
    const list = JSON.parse(r.out);
    expect(list).toHaveLength(245);
    list.forEach((e: Record<string, string>, i: number) => {
      const t = tasks[i];
      expect(e.syscall).toBe(t.handler);
      expect(e.declaration).toBe(t.declaration);
      expect(e.description).toContain(t.description.trim());
      expect(e.code).toContain(t.code.trimEnd());
      if (t.bug_count === 0) {
        // Upstream tells correct tasks by the absence of both fields.
        expect(Object.keys(e).sort()).toEqual(['code', 'declaration', 'description', 'syscall']);
      } else {
        expect(e.bug_num).toBe(String(t.bug_count));
        expect(e.bug_type.split(', ')).toEqual(t.bug_classes.map((c) => c.replace('-', ' ')));
      }
    });
  });
});

describe('grade files that would quietly mean something else (issue 35, item 13)', () => {
  it('an empty file, or one with no good line, is IN004 and writes nothing', () => {
    for (const [name, text, says] of [
      ['empty.jsonl', '', 'it is empty'],
      ['all-bad.jsonl', 'null\n{"task_id": "nope", "response": "x"}\n', '2 bad lines, listed above, and no good one'],
    ]) {
      const out = join(root, `${name}-run`);
      const r = osvlab('grade', '--responses', file(name, text), '--out', out);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain(`IN004 ${join(root, name)} holds no answer to grade (${says})`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('a task index given twice is GRADE013 at the earlier line, and the last is graded; a handler that disagrees with task_id is GRADE012', () => {
    const results = file('twice.json', `{\n "${indexOf('sys_kill-v0')}": {"sys_kill": ["first answer"]},\n "${indexOf('sys_kill-v0')}": {"sys_kill": ["second answer"]}\n}\n`);
    const a = osvlab('grade', '--responses', results, '--json', '--no-lemmas');
    expect(a.code, a.err).toBe(2);
    const ja = JSON.parse(a.out);
    expect(ja.bad).toEqual([{ code: 'GRADE013', line: 2, message: `task index "${indexOf('sys_kill-v0')}" is given again at line 3: as upstream's JSON reader does, the last one is graded and this one is not` }]);
    expect(ja.results.map((x: { line: number }) => x.line)).toEqual([3]);

    const lines = file('disagree.jsonl', [
      JSON.stringify({ task_id: 'sys_kill-v0', handler: 'sys_dup', response: proseAnswer() }),
      JSON.stringify({ task_id: 'clone_proc-v0', handler: 'sys_clone', response: proseAnswer() }),
    ].join('\n'));
    const b = osvlab('grade', '--responses', lines, '--json', '--no-lemmas');
    expect(b.code, b.err).toBe(2);
    const jb = JSON.parse(b.out);
    expect(jb.bad).toEqual([{ code: 'GRADE012', line: 1, message: `"handler" "sys_dup" disagrees with task_id 'sys_kill-v0', a task of sys_kill: give one of them, or make them agree` }]);
    // The hv6 alias of the same handler agrees.
    expect(jb.results.map((x: { line: number; task_id: string }) => [x.line, x.task_id])).toEqual([[2, 'clone_proc-v0']]);
  });

  it('a spec in a Markdown list item, and one whose docstring holds a fence, are read whole and pass', () => {
    const listItem = `Steps:\n\n1. The specification:\n\n${codeAnswer(KILL).split('\n').map((l) => (l ? `   ${l}` : l)).join('\n')}\n2. Nothing else.`;
    const withDoc = codeAnswer(edit(KILL, 'def sys_kill(old, pid):\n', 'def sys_kill(old, pid):\n    """Kills pid, e.g.\n    ```\n    sys_kill(old, 3)\n    ```\n    """\n'));
    const path = file('shapes.jsonl', [listItem, withDoc].map((response) => JSON.stringify({ task_id: 'sys_kill-v0', response })).join('\n'));
    const r = osvlab('grade', '--responses', path, '--json', '--no-lemmas');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).results.map((x: { category: string }) => x.category)).toEqual(['pass', 'pass']);
  }, TIMEOUT_MS);

  it('UTF-16 is decoded in a grade file and refused (IN005) in a spec; no NUL byte reaches the output', () => {
    const jsonl = `${JSON.stringify({ task_id: 'sys_kill-v0', response: proseAnswer() })}\n{"task_id": oops}\n`;
    const le = join(root, 'utf16le.jsonl');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(jsonl, 'utf16le')]));
    const be = Buffer.from(jsonl, 'utf16le');
    be.swap16();
    const bePath = join(root, 'utf16be-nobom.jsonl');
    writeFileSync(bePath, be);
    for (const p of [le, bePath]) {
      const r = osvlab('grade', '--responses', p, '--json', '--no-lemmas');
      expect(r.code, r.err).toBe(2);
      expect(JSON.parse(r.out).results.map((x: { task_id: string; category: string }) => [x.task_id, x.category])).toEqual([['sys_kill-v0', 'syntax']]);
      expect(r.err).toContain('line 2: GRADE001');
      expect(r.out + r.err).not.toContain('\0');
    }
    const spec = join(root, 'utf16.py');
    writeFileSync(spec, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(KILL, 'utf16le')]));
    const v = osvlab('verify', 'sys_kill', '--spec', spec);
    expect(v.code, v.err).toBe(4);
    expect(v.err).toContain(`IN005 spec '${spec}' is UTF-16 text (little-endian); only UTF-8 is read: save it as UTF-8`);
    expect(v.out + v.err).not.toContain('\0');
  });
});
