import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeEngine } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { extractSpec } from '../../src/core/eval/grade/answer.ts';
import { GradeMemo } from '../../src/core/eval/grade/grade-memo.ts';
import type { SmtEngine } from '../../src/core/smt/solver.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { VerifierCaches, type VerifyEnv, verify, verifyStatus } from '../../src/core/verify/index.ts';

/** An engine that counts its queries. */
function counting(engine: SmtEngine): SmtEngine & { queries: number } {
  const counted = {
    ...engine,
    queries: 0,
    check: (...args: Parameters<SmtEngine['check']>) => {
      counted.queries++;
      return engine.check(...args);
    },
  };
  return counted;
}

/** The answers of perf/corpus/per-task.jsonl that refinement refutes on the correct kernel, with their tasks. */
function semanticAnswers(tasks: readonly Task[]): { task: Task; spec: string }[] {
  const lines = readFileSync(join(import.meta.dirname, '../../perf/corpus/per-task.jsonl'), 'utf8').trim().split('\n');
  return lines.map((l) => JSON.parse(l) as { task_id: string; response: string }).flatMap((a) => {
    const task = tasks.find((t) => t.id === a.task_id)!;
    const spec = extractSpec(a.response);
    return spec !== null && task.bug_count > 0 ? [{ task, spec }] : [];
  });
}

describe('verifyStatus: the status of verify, for bug-following and the matrix', () => {
  let engine: SmtEngine;
  let tasks: readonly Task[];
  const env = (e: SmtEngine = engine): VerifyEnv => ({ engine: e, caches: new VerifierCaches() });
  beforeAll(async () => {
    engine = await nodeEngine();
    tasks = await loadTasks();
  });

  it("gives verify's status to every answer of the per-task corpus that the correct kernel refutes, on its buggy variant", async () => {
    const caches = { full: new VerifierCaches(), status: new VerifierCaches() };
    let refuted = 0;
    let byRun = 0;
    for (const { task, spec } of semanticAnswers(tasks)) {
      const req = { handler: task.handler, spec, timeoutMs: 60_000 };
      if ((await verify(req, { engine, caches: caches.full })).status !== 'refuted') continue;
      refuted++;
      const onVariant = { ...req, implSource: task.impl_override };
      const full = await verify(onVariant, { engine, caches: caches.full });
      const queries = counting(engine);
      const status = await verifyStatus(onVariant, { engine: queries, caches: caches.status });
      expect(status, `${task.id}`).toBe(full.status);
      // Refuted by running: no query at all (neither the rest of the spec side, the variant's own obligations nor a counterexample).
      if (full.status === 'refuted' && full.foundBy === 'run') {
        byRun++;
        expect(queries.queries, `${task.id}`).toBe(0);
      }
    }
    // The corpus has 27 such answers; most are refuted on their variant by running.
    expect(refuted).toBeGreaterThanOrEqual(20);
    expect(byRun).toBeGreaterThanOrEqual(15);
  }, 300_000);

  it('proves a spec that follows the bug, as verify does', async () => {
    // sys_dup-v1 drops the `nr_fds` increment; so does this spec: it refines the buggy code.
    const task = tasks.find((t) => t.id === 'sys_dup-v1')!;
    expect(task.provenance.map((p) => p.operator)).toEqual(['drop-increment']);
    const oracle = oracleSpec('sys_dup')!;
    const following = oracle.replace(/\n\s*new\.procs\[pid\]\.nr_fds\[newfd\] \+= 1\n/, '\n');
    expect(following).not.toBe(oracle);
    const req = { handler: 'sys_dup', spec: following, implSource: task.impl_override };
    expect((await verify(req, env())).status).toBe('verified');
    expect(await verifyStatus(req, env())).toBe('verified');
    // The oracle does not follow it: refuted by running, without a query.
    const queries = counting(engine);
    expect(await verifyStatus({ ...req, spec: oracle }, env(queries))).toBe('refuted');
    expect(queries.queries).toBe(0);
    expect((await verify({ ...req, spec: oracle }, env())).status).toBe('refuted');
  }, 120_000);

  it('says spec-error for a spec that does not run, and throws for an unknown handler, as verify does', async () => {
    const task = tasks.find((t) => t.id === 'sys_dup-v1')!;
    const req = { handler: 'sys_dup', spec: 'def sys_dup(old, oldfd, pid, newfd):\n    return nope\n', implSource: task.impl_override };
    expect((await verify(req, env())).status).toBe('spec-error');
    expect(await verifyStatus(req, env())).toBe('spec-error');
    await expect(verify({ ...req, handler: 'no_such_handler' }, env())).rejects.toThrow("unknown handler 'no_such_handler'");
    await expect(verifyStatus({ ...req, handler: 'no_such_handler' }, env())).rejects.toThrow("unknown handler 'no_such_handler'");
  });

  it("is remembered by the grade memo apart from verdicts, and taken from a verdict it already has", async () => {
    const task = tasks.find((t) => t.id === 'sys_dup-v1')!;
    const req = { handler: 'sys_dup', spec: oracleSpec('sys_dup')!, implSource: task.impl_override };
    const memo = new GradeMemo();
    expect(await memo.status(req, env())).toBe('refuted');
    expect(await memo.status(req, env())).toBe('refuted');
    expect([memo.misses, memo.hits]).toEqual([1, 1]);
    // A status never stands in for a verdict.
    const v = await memo.verify(req, env());
    expect(v.status === 'refuted' && v.counterexample?.replayed).toBe(true);
    expect(memo.misses).toBe(2);
    const other = new GradeMemo();
    await other.verify(req, env());
    expect(await other.status(req, env())).toBe('refuted');
    expect(other.misses).toBe(1);
  }, 120_000);
});
