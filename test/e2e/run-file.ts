/** A small finished run file made with the product's own exporter, for browser tests to import. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportRun } from '../../src/core/eval/files/run-file.ts';
import { type AttemptRecord, type PromptRecord, attemptId } from '../../src/core/eval/run/run-types.ts';
import { createRun } from '../../src/core/eval/run/run-setup.ts';
import { promptHash } from '../../src/core/eval/run/runner.ts';
import { ARTIFACTS, ROOT } from './harness.ts';

const ORACLE_KILL = readFileSync(join(ROOT, 'tasks/hv6/specs/sys_kill.py'), 'utf8');
const HASH = 'a'.repeat(64);

/** A small finished run: two tasks, one sample each; one passes, one is a syntax failure (or both pass). */
export async function makeRunFile(allPass = false): Promise<{ path: string; runId: string }> {
  const runId = `e2e-run-${Date.now()}`;
  const tasks = [
    { id: 'sys_kill-v0', handler: 'sys_kill', bug_classes: [], bug_count: 0, hash: HASH },
    { id: 'sys_reap-v0', handler: 'sys_reap', bug_classes: [], bug_count: 0, hash: HASH },
  ];
  const run = {
    ...createRun({
      id: runId,
      name: 'e2e import',
      config: {
        provider: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'fake-model',
        params: { temperature: 0 },
        tasks: tasks.map((t) => t.id),
        shots: 0,
        n: 1,
        repairRounds: 0,
        concurrency: 1,
        gradeConcurrency: 1,
      },
      provenance: { app: 'test', verifier: 'test' },
      tasks,
      now: 1_700_000_000_000,
    }),
    status: 'done' as const,
  };
  const messages = [{ role: 'user' as const, content: 'Write the spec.' }];
  const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
  const attempt = (taskId: string, category: 'pass' | 'syntax', text: string): AttemptRecord => ({
    id: attemptId(runId, taskId, 0, 0),
    runId,
    taskId,
    sample: 0,
    round: 0,
    promptHash: prompt.hash,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model', params: { temperature: 0 }, sample: 0 },
    response: { text, model: 'fake-model', usage: { input: 100, output: 50 }, finishReason: 'stop', latencyMs: 1200 },
    cost: 0,
    // The grader's own diagnosis of an answer without code (src/core/eval/grade/grade.ts).
    grade: { category, extracted: category === 'pass' ? text : null, diagnosis: category === 'pass' ? 'The verifier proved the spec correct.' : 'The answer contains no code. Answer with exactly one ```python fenced block holding the complete spec.', ms: 10 },
    createdAt: 1_700_000_000_000,
    gradedAt: 1_700_000_001_000,
  });
  const attempts = [attempt('sys_kill-v0', 'pass', ORACLE_KILL), allPass ? attempt('sys_reap-v0', 'pass', ORACLE_KILL) : attempt('sys_reap-v0', 'syntax', 'no code here')];
  const file = exportRun({ run, tasks, prompts: [prompt], attempts, exportedAt: new Date(0).toISOString() });
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${runId}.json`);
  writeFileSync(path, JSON.stringify(file));
  return { path, runId };
}


/**
 * A run file whose run stopped before its first answer (`cancelled`, no
 * attempts), made elsewhere: its provider and base URL are the file's. Its
 * tasks are the bundle's own (tasks/hv6/tasks.json), so Resume can send them.
 */
export function makeStoppedRunFile(opts: { readonly provider: 'openai' | 'openai-compatible' | 'anthropic' | 'gemini'; readonly baseUrl: string; readonly name: string; readonly tasks: readonly string[] }): { path: string; runId: string } {
  const runId = `e2e-stopped-${opts.name}-${Date.now()}`;
  const bundle = (JSON.parse(readFileSync(join(ROOT, 'tasks/hv6/tasks.json'), 'utf8')) as { tasks: { id: string; handler: string; hash: string }[] }).tasks;
  const tasks = opts.tasks.map((id) => {
    const t = bundle.find((x) => x.id === id);
    if (!t) throw new Error(`no task ${id} in tasks/hv6/tasks.json`);
    return { id, handler: t.handler, bug_classes: [], bug_count: 0, hash: t.hash };
  });
  const run = {
    ...createRun({
      id: runId,
      name: opts.name,
      config: { provider: opts.provider, baseUrl: opts.baseUrl, model: 'fake-model', params: {}, tasks: [...opts.tasks], shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
      provenance: { app: 'elsewhere', verifier: 'elsewhere' },
      tasks,
      now: 1_700_000_000_000,
    }),
    status: 'cancelled' as const,
  };
  const file = exportRun({ run, tasks, prompts: [], attempts: [], exportedAt: new Date(0).toISOString() });
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${runId}.json`);
  writeFileSync(path, JSON.stringify(file));
  return { path, runId };
}
