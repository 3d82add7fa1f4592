/**
 * A published site's core (src/core/eval/publish/): the index and the
 * manifest refuse what they must, a run file read against the manifest
 * flags exactly the answers whose text changed, and the cell verdicts name
 * exactly the cells an answer's changed grade moves, on hand-built runs
 * whose expected figures are worked out below. Grading with the real
 * verifier is tested through `osvlab publish --check` (test/cli/publish.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../../src/core/eval/files/run-file.ts';
import type { GradeCategory, GradeResult } from '../../../src/core/eval/grade/grade-types.ts';
import { type AnswerChange, figureParts, figureVerdicts, figureIdsOf, figuresOf, passKOf } from '../../../src/core/eval/publish/figures.ts';
import { openPublishedRun } from '../../../src/core/eval/publish/reverify.ts';
import { answerDigests, findAlteredAnswers, manifest, parseManifest } from '../../../src/core/eval/publish/manifest.ts';
import { type IndexRun, parseSiteIndex, runFilePath, siteIndex } from '../../../src/core/eval/publish/site.ts';
import { type AttemptRecord, type RunRecord, attemptId } from '../../../src/core/eval/run/run-types.ts';
import { summaryOf } from '../../../src/core/eval/session/regrade.ts';
import { computeMetrics } from '../../../src/core/eval/stats/metrics.ts';
import { sha256Hex, sha256HexOfBytes } from '../../../src/core/hash.ts';
import { makeAttempt } from '../../store/fixtures.ts';

const HASH = 'a'.repeat(64);
const TASKS = [
  { id: 'sys_dup-v0', handler: 'sys_dup', bug_classes: [], bug_count: 0, hash: HASH },
  { id: 'sys_kill-v0', handler: 'sys_kill', bug_classes: [], bug_count: 0, hash: HASH },
];

function runRecord(id: string, over: Partial<RunRecord['config']> = {}): RunRecord {
  return {
    id,
    createdAt: 1,
    updatedAt: 2,
    config: {
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'fake',
      params: {},
      tasks: TASKS.map((t) => t.id),
      shots: 0,
      n: 1,
      repairRounds: 0,
      concurrency: 1,
      gradeConcurrency: 1,
      grading: { timeoutMs: 60_000, strict: true },
      ...over,
    },
    provenance: { app: '0.1.0', verifier: 'v-published' },
    taskHashes: Object.fromEntries(TASKS.map((t) => [t.id, HASH])),
    status: 'done',
  };
}

function grade(category: GradeCategory, extra: Partial<GradeResult> = {}): GradeResult {
  return { category, extracted: category === 'syntax' ? null : 'def f(): pass', diagnosis: '', ms: 5, ...extra };
}

function attempt(run: RunRecord, taskId: string, sample: number, round: number, g: GradeResult, text = `answer ${taskId} ${sample} ${round}`): AttemptRecord {
  return makeAttempt(run.id, taskId, sample, round, {
    promptHash: HASH,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'fake', params: {}, sample },
    response: { text, model: 'fake', usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 1 },
    grade: g,
    createdAt: 1,
    cached: undefined,
    gradedAt: undefined,
  });
}

/** The same attempts with some grades replaced, as a re-verification returns them. */
function regrade(attempts: readonly AttemptRecord[], by: Readonly<Record<string, GradeResult>>): AttemptRecord[] {
  return attempts.map((a) => (by[a.id] ? { ...a, grade: by[a.id] } : a));
}

/** The changes figureVerdicts is given: every attempt whose grade summary differs, or that is altered. */
function changes(run: RunRecord, stored: readonly AttemptRecord[], after: readonly AttemptRecord[], altered: readonly string[] = []): Map<string, AnswerChange> {
  const out = new Map<string, AnswerChange>();
  const byId = new Map(after.map((a) => [a.id, a]));
  for (const a of stored) {
    const b = byId.get(a.id)!;
    const before = summaryOf(a.grade!);
    const now = summaryOf(b.grade!);
    if (JSON.stringify(before) === JSON.stringify(now) && !altered.includes(a.id)) continue;
    out.set(a.id, { attemptId: a.id, taskId: a.taskId, sample: a.sample, round: a.round, before, after: now, beforeVerifier: 'v-published', afterVerifier: 'v-here', altered: altered.includes(a.id) });
  }
  return out;
}

function verdicts(run: RunRecord, stored: AttemptRecord[], after: AttemptRecord[], altered: readonly string[] = []) {
  return figureVerdicts({ run, tasks: TASKS, stored, regraded: after, changes: changes(run, stored, after, altered) });
}

const changedCells = (v: ReturnType<typeof verdicts>) => v.verdicts.filter((c) => c.status === 'changed').map((c) => c.figure);

describe('the index of a published site', () => {
  const entry = (id: string, file: string): IndexRun => ({ id, file });
  const index = (runs: IndexRun[]) => JSON.stringify(siteIndex({ title: 'T', publishedAt: '2026-01-01T00:00:00Z', publisher: { app: '0.1.0', verifier: 'v-x' }, runs }));

  it('reads what it wrote', () => {
    const r = parseSiteIndex(index([entry('a', 'published/runs/a.json')]));
    expect(r.ok && r.index.runs).toEqual([{ id: 'a', file: 'published/runs/a.json' }]);
  });

  it('refuses a run file outside published/runs/, and a run or file listed twice, naming the path', () => {
    for (const file of ['../secret.json', 'https://elsewhere.example/run.json', 'published/runs/../../x.json', '/published/runs/a.json', 'published/index.json']) {
      const r = parseSiteIndex(index([entry('a', file)]));
      expect(r.ok ? [] : r.errors).toEqual([{ path: '$.runs[0].file', message: `"${file}" is not a run file of this site (published/runs/NAME.json)` }]);
    }
    const twice = parseSiteIndex(index([entry('a', 'published/runs/a.json'), entry('a', 'published/runs/a.json')]));
    expect(twice.ok ? [] : twice.errors.map((e) => e.message)).toEqual(['run "a" is listed twice', '"published/runs/a.json" is listed twice']);
  });

  it('refuses what is not an index, and one from a newer OSVLab', () => {
    expect(parseSiteIndex('{').ok).toBe(false);
    const r = parseSiteIndex(JSON.stringify({ format: 'osvlab-run' }));
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toContain('$.format');
    const newer = parseSiteIndex(JSON.stringify({ format: 'osvlab-published', formatVersion: 99 }));
    expect(newer.ok ? '' : newer.errors[0].message).toBe('version 99 was written by a newer OSVLab; this one reads up to 1');
  });

  it('gives each run a file name of its own, whatever its id', () => {
    const taken = new Set<string>();
    expect(runFilePath('1a2b3c4d5e6f', taken)).toBe('published/runs/1a2b3c4d5e6f.json');
    expect(runFilePath('../../etc/passwd', taken)).toBe('published/runs/etc-passwd.json');
    expect(runFilePath('etc/passwd', taken)).toBe('published/runs/etc-passwd-2.json');
    expect(runFilePath('...', taken)).toBe('published/runs/run.json');
    for (const p of taken) expect(parseSiteIndex(index([entry('x', p)])).ok).toBe(true);
  });
});

describe('the manifest', () => {
  const run = runRecord('r1');
  const attempts = [attempt(run, 'sys_dup-v0', 0, 0, grade('pass')), attempt(run, 'sys_kill-v0', 0, 0, grade('syntax'))];

  it('hashes each answer as the SHA-256 of its UTF-8 text, and reads back what it wrote', async () => {
    const digests = await answerDigests(attempts);
    expect(digests[attempts[0].id]).toBe(await sha256Hex(attempts[0].response!.text));
    // Known vector: SHA-256("abc").
    expect(await sha256HexOfBytes(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const m = manifest({ 'published/runs/r1.json': { sha256: HASH, bytes: 10 } }, { r1: digests });
    const back = parseManifest(JSON.stringify(m));
    expect(back.ok && back.manifest).toEqual(m);
  });

  it('flags exactly the answer whose text changed, one it does not name, and one the file lacks', async () => {
    const m = manifest({}, { r1: await answerDigests(attempts) });
    expect(await findAlteredAnswers(m, 'r1', attempts)).toEqual({ altered: [], missing: [] });
    const edited = [{ ...attempts[0], response: { ...attempts[0].response!, text: 'an edited answer' } }, attempts[1]];
    const r = await findAlteredAnswers(m, 'r1', edited);
    expect(r.missing).toEqual([]);
    expect(r.altered).toEqual([
      { attemptId: attempts[0].id, taskId: 'sys_dup-v0', sample: 0, round: 0, reason: 'hash-differs', expected: await sha256Hex(attempts[0].response!.text), actual: await sha256Hex('an edited answer') },
    ]);
    const extra = attempt(run, 'sys_dup-v0', 1, 0, grade('pass'));
    const more = await findAlteredAnswers(m, 'r1', [attempts[0], extra]);
    expect(more.altered.map((a) => [a.attemptId, a.reason])).toEqual([[extra.id, 'not-in-manifest']]);
    expect(more.missing).toEqual([attempts[1].id]);
    // A run the manifest does not know: every answer is unaccounted for.
    expect((await findAlteredAnswers(m, 'other', attempts)).altered.map((a) => a.reason)).toEqual(['not-in-manifest', 'not-in-manifest']);
  });

  it('refuses a hash that is not 64 hex digits, at its path', () => {
    const r = parseManifest(JSON.stringify(manifest({}, { r1: { x: 'ABC' } })));
    expect(r.ok ? [] : r.errors).toEqual([{ path: '$.answers["r1"]["x"]', message: 'expected a 64-digit lower-case hex hash, got the string "ABC"' }]);
  });
});

describe('the cells of a row', () => {
  it('has pass@k from three samples, strict when graded strict, after repair with repair rounds', () => {
    expect(figureIdsOf(runRecord('a'))).toEqual(['pass1', 'split', 'strict']);
    expect(figureIdsOf(runRecord('a', { n: 5, repairRounds: 2, grading: { timeoutMs: 1, strict: false } }))).toEqual(['pass1', 'passk', 'split', 'repair']);
    expect([1, 2, 3, 4, 5, 10].map(passKOf)).toEqual([undefined, undefined, 3, 3, 5, 5]);
  });

  it("computes the figures as the run's metrics do", () => {
    const run = runRecord('f', { n: 3 });
    // sys_dup: 2 of 3 pass; sys_kill: 1 of 3 (one syntax, one semantic).
    const attempts = [
      attempt(run, 'sys_dup-v0', 0, 0, grade('pass', { strict: true })),
      attempt(run, 'sys_dup-v0', 1, 0, grade('pass', { strict: false })),
      attempt(run, 'sys_dup-v0', 2, 0, grade('semantic')),
      attempt(run, 'sys_kill-v0', 0, 0, grade('pass', { strict: true })),
      attempt(run, 'sys_kill-v0', 1, 0, grade('syntax')),
      attempt(run, 'sys_kill-v0', 2, 0, grade('semantic')),
    ];
    const f = figuresOf(run, attempts, TASKS);
    const m = computeMetrics(TASKS, attempts);
    expect(f.pass1.value).toBeCloseTo(m.passAtK['1'], 12);
    expect(f.pass1.value).toBeCloseTo(0.5, 12);
    // pass@3 with n = 3: 1 for any task with a pass.
    expect(f.passk).toMatchObject({ k: 3, value: m.passAtK['3'] });
    expect(f.passk!.value).toBe(1);
    expect(f.split).toMatchObject({ pass: 3, syntax: 1, semantic: 2, timeout: 0, internal: 0, unanswered: 0 });
    expect(f.strict).toEqual({ passes: 2, of: 3 });
    const [lo, hi] = f.pass1.ci!;
    expect(lo).toBeLessThanOrEqual(0.5);
    expect(hi).toBeGreaterThanOrEqual(0.5);
  });

  it('gives a share over fewer than 10 tasks the Wilson interval, which does not collapse when every task passes (issue 55 item 2)', () => {
    const run = runRecord('w');
    const allPass = TASKS.map((t) => attempt(run, t.id, 0, 0, grade('pass', { strict: true })));
    const f = figuresOf(run, allPass, TASKS);
    expect(TASKS.length).toBeLessThan(10);
    expect(f.pass1.method).toBe('wilson');
    expect(f.pass1.ci![1]).toBe(1);
    expect(f.pass1.ci![0]).toBeLessThan(0.9);
    expect(figureParts(f, 'pass1')).toEqual({ main: '100.0%', detail: `[${(f.pass1.ci![0] * 100).toFixed(1)}%, 100.0%] Wilson` });
  });

  it('shows an empty strict cell as no figure, not "0 of 0"', () => {
    const run = runRecord('e');
    const f = figuresOf(run, TASKS.map((t) => attempt(run, t.id, 0, 0, grade('syntax'))), TASKS);
    expect(f.strict).toEqual({ passes: 0, of: 0 });
    expect(figureParts(f, 'strict')).toEqual({ main: '-' });
  });

  describe('which cells a changed answer moves', () => {
    const run = runRecord('c', { repairRounds: 1 });
    const stored = [
      attempt(run, 'sys_dup-v0', 0, 0, grade('pass', { strict: true })),
      attempt(run, 'sys_kill-v0', 0, 0, grade('syntax')),
      attempt(run, 'sys_kill-v0', 0, 1, grade('semantic')),
    ];
    const [dup, kill, killRepair] = stored.map((a) => a.id);

    it('nothing changed: every cell reproduced', () => {
      const v = verdicts(run, stored, stored);
      expect(v.verdicts.map((c) => [c.figure, c.status])).toEqual([
        ['pass1', 'reproduced'],
        ['split', 'reproduced'],
        ['strict', 'reproduced'],
        ['repair', 'reproduced'],
      ]);
      expect(v.verdicts.every((c) => c.published === c.derived)).toBe(true);
      expect(v.unread).toEqual([]);
    });

    it('a failure of another kind (syntax -> semantic): only the split', () => {
      const v = verdicts(run, stored, regrade(stored, { [kill]: grade('semantic') }));
      expect(changedCells(v)).toEqual(['split']);
      const split = v.verdicts.find((c) => c.figure === 'split')!;
      expect(split.published).toBe('pass 1, syntax 1');
      expect(split.derived).toBe('pass 1, semantic 1');
      expect(split.answers.map((a) => a.attemptId)).toEqual([kill]);
    });

    it('a pass that no longer passes: pass@1, the split, strict and after repair', () => {
      const v = verdicts(run, stored, regrade(stored, { [dup]: grade('semantic') }));
      expect(changedCells(v)).toEqual(['pass1', 'split', 'strict', 'repair']);
      expect(v.verdicts.find((c) => c.figure === 'pass1')!.derived).toMatch(/^0\.0% /);
    });

    it('a strict flag alone: only strict', () => {
      const v = verdicts(run, stored, regrade(stored, { [dup]: grade('pass', { strict: false }) }));
      expect(changedCells(v)).toEqual(['strict']);
    });

    it('a repair round: only after repair', () => {
      const v = verdicts(run, stored, regrade(stored, { [killRepair]: grade('pass', { strict: true }) }));
      expect(changedCells(v)).toEqual(['repair']);
      expect(v.verdicts.find((c) => c.figure === 'repair')!.answers.map((a) => a.attemptId)).toEqual([killRepair]);
    });

    it('bug-following alone: no cell, listed as unread', () => {
      const v = verdicts(run, stored, regrade(stored, { [kill]: grade('syntax', { bugFollowing: true }) }));
      expect(changedCells(v)).toEqual([]);
      expect(v.unread.map((a) => a.attemptId)).toEqual([kill]);
    });

    it('an altered first answer graded the same: every cell that reads it', () => {
      const v = verdicts(run, stored, stored, [kill]);
      expect(changedCells(v)).toEqual(['pass1', 'split', 'strict', 'repair']);
      expect(v.verdicts.find((c) => c.figure === 'split')!.answers).toEqual([expect.objectContaining({ attemptId: kill, altered: true })]);
      expect(v.unread).toEqual([]);
    });
  });
});

describe('opening a published run file', () => {
  const run = runRecord('o1');
  const attempts = [attempt(run, 'sys_dup-v0', 0, 0, grade('pass')), attempt(run, 'sys_kill-v0', 0, 0, grade('syntax'))];
  const file = exportRun({ run, tasks: TASKS, prompts: [{ hash: HASH, messages: [{ role: 'user', content: 'x' }] }], attempts, exportedAt: '2026-01-01T00:00:00Z' });
  const entry: IndexRun = { id: 'o1', file: 'published/runs/o1.json' };
  const bytes = (f: unknown) => new TextEncoder().encode(JSON.stringify(f));

  it('checks the file and every answer against the manifest before anything is graded', async () => {
    const b = bytes(file);
    const m = manifest({ [entry.file]: { sha256: await sha256HexOfBytes(b), bytes: b.length } }, { o1: await answerDigests(attempts) });
    const ok = await openPublishedRun(entry, b, m);
    expect(ok.ok && [ok.run.digest.actual === ok.run.digest.expected, ok.run.altered, ok.run.missing, ok.run.figureIds]).toEqual([true, [], [], ['pass1', 'split', 'strict']]);

    const edited = { ...file, attempts: [attempts[0], { ...attempts[1], response: { ...attempts[1].response!, text: 'something else' } }] };
    const bad = await openPublishedRun(entry, bytes(edited), m);
    expect(bad.ok && bad.run.digest.actual !== bad.run.digest.expected).toBe(true);
    expect(bad.ok && bad.run.altered.map((a) => [a.attemptId, a.reason])).toEqual([[attempts[1].id, 'hash-differs']]);
  });

  it("refuses answers its run's config does not ask for: samples past n, rounds past the repair rounds (issue 57 item 9)", async () => {
    // Five extra passing samples, rehashed into the manifest: they would raise pass@1 while the row still says n 1.
    const extra = Array.from({ length: 5 }, (_, i) => attempt(run, 'sys_kill-v0', i + 1, 0, grade('pass')));
    const cases: [AttemptRecord[], string][] = [
      [[...attempts, ...extra], 'sample 2 of sys_kill-v0, with n 1, and 4 more'],
      [[...attempts, attempt(run, 'sys_dup-v0', 0, 1, grade('pass'))], 'repair round 1 of sys_dup-v0, with 0 repair rounds'],
    ];
    for (const [all, said] of cases) {
      const f = { ...file, attempts: all };
      const b = bytes(f);
      const m = manifest({ [entry.file]: { sha256: await sha256HexOfBytes(b), bytes: b.length } }, { o1: await answerDigests(all) });
      const opened = await openPublishedRun(entry, b, m);
      expect(opened.ok ? 'opened' : opened.message).toBe(`published/runs/o1.json holds answers its run's config does not ask for (${said}): a published row's figures are of the run as configured`);
    }
  });

  it('says what is wrong with a file it cannot read', async () => {
    const m = manifest({}, {});
    const wrongRun = await openPublishedRun({ ...entry, id: 'other' }, bytes(file), m);
    expect(wrongRun.ok ? '' : wrongRun.message).toBe('published/runs/o1.json holds run "o1", but the index says it holds run "other"');
    const notUtf8 = await openPublishedRun(entry, new Uint8Array([0x7b, 0xff, 0x7d]), m);
    expect(notUtf8.ok ? '' : notUtf8.message).toBe('published/runs/o1.json is not UTF-8 text');
    const notRun = await openPublishedRun(entry, bytes({ format: 'osvlab-run' }), m);
    expect(notRun.ok ? '' : notRun.message).toMatch(/^published\/runs\/o1\.json is not a valid run file:\n\$\.formatVersion: is missing/);
  });
});
