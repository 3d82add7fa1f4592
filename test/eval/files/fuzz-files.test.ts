/**
 * A seeded, time-bounded fuzzer for the files users feed the grader: answer
 * files (JSONL and OSVBench's results format) and run directories. Each
 * input is mutated from a valid one (cut, bytes flipped, lines duplicated,
 * swapped, nulls and BOMs inserted, values retyped). Every input must end as
 * a result (its good parts graded or reported) or a coded error: never an
 * uncoded exception (internal) and never a hang. Prints the counts.
 *
 * Answers are graded only as far as no solver is needed (prose, a spec that
 * does not parse): the point is the file handling, and the solver's own
 * robustness has fuzzers of its own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerOnlyTask } from '../../../src/core/eval/grade/grade.ts';
import { computeMetrics } from '../../../src/core/eval/stats/metrics.ts';
import { parseAnswerFile } from '../../../src/core/eval/files/responses.ts';
import { rng } from '../../../src/core/rng.ts';
import { createRun } from '../../../src/core/eval/run/run-setup.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { JsonlRepository, RunDirError } from '../../../src/store/jsonl.ts';
import { extractSpec } from '../../../src/core/eval/grade/answer.ts';
import { parseSpec } from '../../../src/core/dialect/index.ts';
import { makeAttempt, PROMPT } from '../../store/fixtures.ts';

const BUDGET_MS = 4000;
/** One input taking longer than this counts as a hang. */
const HANG_MS = 2000;

let tasks: readonly Task[];
const root = mkdtempSync(join(tmpdir(), 'osvlab-fuzz-'));
beforeAll(async () => {
  tasks = await loadTasks();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Counts {
  tried: number;
  coded: number;
  graded: number;
  internal: number;
  hang: number;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** One random damage to a text. */
function mutate(r: Rand, text: string): string {
  const at = Math.floor(r() * (text.length + 1));
  const lines = text.split('\n');
  const li = Math.floor(r() * lines.length);
  switch (Math.floor(r() * 10)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + text.slice(at + 1);
    case 2:
      return [...lines.slice(0, li), 'null', ...lines.slice(li)].join('\n');
    case 3:
      return `\uFEFF${text}`;
    case 4:
      return [...lines.slice(0, li), lines[li], ...lines.slice(li)].join('\n');
    case 5:
      return text.replace(/"[a-z_]+"/, pick(r, ['"x"', '""', '"response"', '"task_id"', '"0"', '"99999"']));
    case 6:
      return text.replace(/: ?"[^"]*"/, pick(r, [': 5', ': null', ': []', ': {}', ': true', ': "sys_kill"']));
    case 7:
      return text.slice(0, at) + pick(r, ['{', '}', '[', ']', ',', '"', '\\', '\n', '\u0000', '\uD800']) + text.slice(at);
    case 8:
      return [...lines.slice(0, li), pick(r, ['{}', '[]', '"str"', '1e999', '{"handler": "sys_kill", "response": 5}']), ...lines.slice(li + 1)].join('\n');
    default:
      return lines.reverse().join('\n');
  }
}

const PROSE = 'No code, only words.';
const BROKEN = '```python\ndef sys_kill(old, pid)\n    return\n```';

function validJsonl(): string {
  return [
    JSON.stringify({ task_id: 'sys_kill-v0', response: PROSE }),
    JSON.stringify({ handler: 'sys_dup', response: BROKEN }),
    JSON.stringify({ task_id: 'sys_close-v1', response: PROSE }),
  ].join('\n');
}

function validOsvbench(): string {
  const i = tasks.findIndex((t) => t.id === 'sys_kill-v0');
  return JSON.stringify({ [i]: { sys_kill: [PROSE, BROKEN] }, [i + 1]: { sys_kill: [PROSE] } }, null, 4);
}

/** Grades as far as no solver is needed: no code, or a spec that does not parse, is a syntax failure. */
function gradeWithoutSolver(response: string): 'syntax' | 'needs-solver' {
  const spec = extractSpec(response);
  if (spec === null) return 'syntax';
  return parseSpec(spec).ok ? 'needs-solver' : 'syntax';
}

async function timed(c: Counts, fn: () => Promise<'coded' | 'graded'>): Promise<void> {
  c.tried++;
  const started = Date.now();
  try {
    const r = await fn();
    c[r]++;
  } catch (e) {
    c.internal++;
    console.log('internal:', e);
  }
  if (Date.now() - started > HANG_MS) c.hang++;
}

describe('fuzzing the files users feed the grader (seeded, time-bounded)', () => {
  it('answer files: every input is graded or a coded error, 0 internal, 0 hang', async () => {
    const r = rng('fuzz-answer-files');
    const c: Counts = { tried: 0, coded: 0, graded: 0, internal: 0, hang: 0 };
    const end = Date.now() + BUDGET_MS;
    while (Date.now() < end) {
      let text = r() < 0.5 ? validJsonl() : validOsvbench();
      for (let k = 1 + Math.floor(r() * 3); k > 0; k--) text = mutate(r, text);
      await timed(c, async () => {
        const f = parseAnswerFile(text, tasks, handlerOnlyTask);
        for (const p of f.problems) {
          expect(p.code).toMatch(/^GRADE\d{3}$/);
          expect(p.line).toBeGreaterThanOrEqual(0);
        }
        for (const item of f.items) gradeWithoutSolver(item.response);
        return f.items.length > 0 ? 'graded' : 'coded';
      });
    }
    console.log(`answer-file fuzz: ${JSON.stringify(c)}`);
    expect(c.tried).toBeGreaterThan(50);
    expect(c.graded).toBeGreaterThan(0);
    expect(c.coded).toBeGreaterThan(0);
    expect(c.internal).toBe(0);
    expect(c.hang).toBe(0);
  }, 60_000);

  it('run directories: every damaged directory gives a report (partial) or a coded error, 0 internal, 0 hang', async () => {
    const r = rng('fuzz-run-dirs');
    const c: Counts = { tried: 0, coded: 0, graded: 0, internal: 0, hang: 0 };
    const ids = tasks.slice(0, 4).map((t) => t.id);
    const seedDir = join(root, 'seed');
    const repo = await JsonlRepository.open(seedDir);
    const run = createRun({
      id: 'r1',
      config: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', params: {}, tasks: ids, shots: 0, n: 2, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
      provenance: { app: 't', verifier: 't' },
      tasks,
      now: 1,
    });
    await repo.putRun({ ...run, status: 'done' });
    await repo.putPrompt(PROMPT);
    for (const id of ids) for (const s of [0, 1]) await repo.putAttempt(makeAttempt('r1', id, s, 0));
    const files = ['run.json', 'attempts.jsonl', 'prompts.jsonl'];
    const originals = Object.fromEntries(files.map((f) => [f, readFileSync(join(seedDir, f), 'utf8')]));
    const end = Date.now() + BUDGET_MS;
    let n = 0;
    while (Date.now() < end) {
      const dir = join(root, `d${n++}`);
      mkdirSync(dir);
      for (const f of files) {
        let text = originals[f];
        if (r() < 0.5) for (let k = 1 + Math.floor(r() * 2); k > 0; k--) text = mutate(r, text);
        if (r() > 0.1) writeFileSync(join(dir, f), text);
      }
      await timed(c, async () => {
        let store: JsonlRepository;
        try {
          store = await JsonlRepository.open(dir, { create: false });
        } catch (e) {
          if (e instanceof RunDirError) return 'coded';
          throw e;
        }
        const [found] = await store.listRuns();
        if (!found) return 'coded';
        const m = computeMetrics(tasks.filter((t) => found.config.tasks.includes(t.id)), await store.listAttempts(found.id), { n: found.config.n });
        for (const d of store.damaged) expect(d.line).toBeGreaterThan(0);
        expect(m.samples).toBeLessThanOrEqual(ids.length * 2);
        return 'graded';
      });
    }
    console.log(`run-directory fuzz: ${JSON.stringify(c)}`);
    expect(c.tried).toBeGreaterThan(30);
    expect(c.graded).toBeGreaterThan(0);
    expect(c.coded).toBeGreaterThan(0);
    expect(c.internal).toBe(0);
    expect(c.hang).toBe(0);
  }, 60_000);
});
