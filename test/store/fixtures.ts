/** Small, valid records for store and export tests. */
import type { GradeResult } from '../../src/core/eval/grade/grade-types.ts';
import { type AttemptRecord, type PromptRecord, type RunRecord, attemptId } from '../../src/core/eval/run/run-types.ts';

export function makeRun(id = 'run-1', createdAt = 1000): RunRecord {
  return {
    id,
    name: 'fixture run',
    createdAt,
    updatedAt: createdAt,
    config: {
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5-coder:7b',
      params: { temperature: 0.2, maxTokens: 4096 },
      tasks: ['sys_dup-v0', 'sys_dup-v1'],
      shots: 1,
      n: 2,
      repairRounds: 1,
      concurrency: 2,
      gradeConcurrency: 1,
    },
    provenance: { app: '0.1.0', verifier: 'test-verifier-1' },
    taskHashes: { 'sys_dup-v0': 'a'.repeat(64), 'sys_dup-v1': 'b'.repeat(64) },
    status: 'done',
  };
}

export const PROMPT: PromptRecord = {
  hash: 'c'.repeat(64),
  messages: [
    { role: 'system', content: 'You write hv6 state-machine specs.' },
    { role: 'user', content: 'Write the spec of sys_dup.' },
  ],
  meta: { shots: 1 },
};

export const REPAIR_PROMPT: PromptRecord = {
  hash: 'd'.repeat(64),
  base: PROMPT.hash,
  messages: [
    { role: 'assistant', content: 'def sys_dup(old): pass' },
    { role: 'user', content: 'The verifier says: refuted at procs.ofile.' },
  ],
};

const GRADE: GradeResult = {
  category: 'semantic',
  extracted: 'def sys_dup(old): pass',
  verdict: { status: 'refuted', failed: ['procs.ofile'], obligations: [{ name: 'procs.ofile', status: 'failed', ms: 12 }] },
  strict: false,
  bugFollowing: false,
  matrix: { 'sys_dup-v0': 'refuted', 'sys_dup-v1': 'refuted' },
  diagnosis: 'refuted at procs.ofile',
  ms: 40,
};

export function makeAttempt(runId: string, taskId: string, sample: number, round: number, overrides: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    id: attemptId(runId, taskId, sample, round),
    runId,
    taskId,
    sample,
    round,
    promptHash: round === 0 ? PROMPT.hash : REPAIR_PROMPT.hash,
    cacheKey: `${taskId}-${sample}-${round}`.padEnd(64, '0'),
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:7b', params: { temperature: 0.2, maxTokens: 4096 }, sample },
    response: { text: '```python\ndef sys_dup(old): pass\n```', model: 'qwen2.5-coder:7b', usage: { input: 2000, output: 40 }, finishReason: 'stop', latencyMs: 900 },
    cached: false,
    cost: 0,
    grade: GRADE,
    createdAt: 2000,
    gradedAt: 2100,
    ...overrides,
  };
}
