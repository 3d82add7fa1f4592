/**
 * `osvlab run` end to end: the CLI in a child process, talking real HTTP to
 * the fake OpenAI-compatible provider, grading with the real verifier in its
 * worker pool, storing in a JSONL run directory. The fake picks each reply
 * from the prompt (which task, which repair round), so every expected number
 * below follows from the script and the tasks' facts, not from a past run.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUG_CLASSES, type Task } from '../../src/core/tasks/task.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { startCli as startCliProcess } from '../cli-process.ts';
import { codeAnswer, proseAnswer } from '../fake-provider/answers.ts';
import { outage } from '../fake-provider/faults.ts';
import { type FakeProvider, type FakeReply, type ReceivedRequest, startFakeProvider } from '../fake-provider/server.ts';
import { storedRun } from '../run-dir.ts';

const KEY = 'sk-local-test-key-0001';
/** Per test: each spawns the CLI one to three times and grades with Z3, on a machine that may be busy. */
const TIMEOUT_MS = 240_000;
/** Text of every repair prompt (src/core/eval/prompt/prompt.ts buildRepairPrompt). */
const REPAIR_MARK = 'The verifier did not accept this specification';

let fake: FakeProvider;
let allTasks: readonly Task[];
const dirs: string[] = [];
const children = new Set<ChildProcess>();

beforeAll(async () => {
  fake = await startFakeProvider();
  allTasks = await loadTasks();
});
afterEach(() => {
  const errors = scriptErrors;
  scriptErrors = [];
  // A test that failed half-way must not leave a CLI running.
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  fake.reset();
  expect(errors).toEqual([]);
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Errors thrown by a test's responder (a request the script did not expect); checked after each test. */
let scriptErrors: string[] = [];

/** Scripts the fake; a responder that throws answers 500 and records why, rather than breaking the server. */
function respond(fn: (req: ReceivedRequest) => FakeReply): void {
  fake.respond((req) => {
    try {
      return fn(req);
    } catch (e) {
      scriptErrors.push((e as Error).message);
      return { kind: 'raw', status: 500, body: JSON.stringify({ error: { message: (e as Error).message } }) };
    }
  });
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'osvlab-run-'));
  dirs.push(d);
  return d;
}

function task(id: string): Task {
  const t = allTasks.find((x) => x.id === id);
  if (!t) throw new Error(`no task ${id}`);
  return t;
}

/** Starts `osvlab ARGS` as a user would (async: the fake server lives in this process). */
function startCli(args: readonly string[]): ReturnType<typeof startCliProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, OSVLAB_API_KEY: KEY };
  delete env.OPENAI_API_KEY;
  const started = startCliProcess(args, env);
  children.add(started.child);
  return started;
}

function runArgs(dir: string, tasks: readonly string[], opts: { shots?: number; repair?: number; concurrency?: number; strict?: boolean } = {}): string[] {
  return [
    'run',
    '--provider', 'openai-compatible',
    '--base-url', `${fake.url}/v1`,
    '--model', 'fake',
    '--tasks', tasks.join(','),
    '--shots', String(opts.shots ?? 0),
    '--repair', String(opts.repair ?? 0),
    '--n', '1',
    '--concurrency', String(opts.concurrency ?? 2),
    '--out', dir,
    '--json',
    ...(opts.strict ? [] : ['--no-lemmas']),
  ];
}

/** The task a prompt is about: the C code of its "Your task" section (worked examples come before it). */
function taskOf(prompt: string, candidates: readonly string[]): Task {
  const at = prompt.indexOf('Your task: `');
  if (at < 0) throw new Error('prompt has no task section');
  const code = /```c\n([\s\S]*?)\n```/.exec(prompt.slice(at))?.[1];
  const found = candidates.map(task).filter((t) => t.code.trimEnd() === code);
  if (found.length !== 1) throw new Error(`prompt matches ${found.length} of the selected tasks`);
  return found[0];
}

/** 0 for the first answer, r for the r-th repair. */
function roundOf(prompt: string): number {
  return prompt.split(REPAIR_MARK).length - 1;
}

function oracle(handler: string): string {
  const s = oracleSpec(handler);
  if (!s) throw new Error(`no oracle for ${handler}`);
  return s;
}

/** Replaces `from` (which must occur) in a spec. */
function edit(spec: string, from: string, to: string): string {
  if (!spec.includes(from)) throw new Error(`spec lacks ${JSON.stringify(from)}`);
  return spec.replace(from, to);
}

type Kind = 'correct' | 'wrong' | 'prose';

/** Wrong specs: each differs from the oracle in one state write. */
const WRONG: Record<string, () => string> = {
  // Writes the wrong state: RUNNING instead of RUNNABLE.
  sys_set_runnable: () => edit(oracle('sys_set_runnable'), 'dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING'),
  // Drops the nr_fds increment: exactly what the injected bug of sys_dup-v1 removes from the C code.
  sys_dup: () => edit(oracle('sys_dup'), '    new.procs[pid].nr_fds[newfd] += 1\n', ''),
};

function answerText(kind: Kind, handler: string): string {
  if (kind === 'correct') return codeAnswer(oracle(handler));
  if (kind === 'wrong') return codeAnswer(WRONG[handler]());
  return proseAnswer();
}

/** Complete lines of a JSONL file written by the child (a torn tail is not counted). */
function completeLines(path: string): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((l) => l.trim() !== '');
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function report(dir: string): Promise<any> {
  const r = await startCli(['report', dir, '--json']).result;
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

/** What computeMetrics should say for a group of one-sample tasks, from the tasks' facts and which passed. */
function group(tasks: readonly Task[], passed: (t: Task) => boolean) {
  const passes = tasks.filter(passed).length;
  return { tasks: tasks.length, samples: tasks.length, passes, pass1: tasks.length ? passes / tasks.length : 0 };
}

describe('osvlab run against the fake provider', () => {
  it('scripted answers and one repair round give exactly the scripted metrics', async () => {
    // Per task, the kind of answer for round 0 and round 1.
    const SCRIPT: Record<string, readonly Kind[]> = {
      'sys_dup-v0': ['correct'],
      'sys_close-v0': ['correct'],
      'sys_close-v2': ['correct'],
      'sys_set_runnable-v0': ['wrong', 'correct'],
      'sys_dup-v1': ['wrong', 'wrong'],
      'sys_reclaim_port-v1': ['prose', 'prose'],
    };
    const ids = Object.keys(SCRIPT);
    const replies: { task: string; round: number; text: string; request: ReceivedRequest }[] = [];
    respond((req) => {
      const t = taskOf(req.prompt, ids);
      const round = roundOf(req.prompt);
      const kind = SCRIPT[t.id][round];
      if (!kind) throw new Error(`unscripted request: ${t.id} round ${round}`);
      const text = answerText(kind, t.handler);
      replies.push({ task: t.id, round, text, request: req });
      return { kind: 'text', text };
    });

    const dir = tempDir();
    const r = await startCli(runArgs(dir, ids, { shots: 1, repair: 1, concurrency: 2, strict: true })).result;
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('grading error');

    // Requests: one per task, plus one repair per task whose first answer failed; each carried the key from the environment.
    const firstPass = (id: string) => SCRIPT[id][0] === 'correct';
    const expectedRequests = ids.reduce((n, id) => n + (firstPass(id) ? 1 : 2), 0);
    expect(fake.requests).toHaveLength(expectedRequests);
    expect(replies).toHaveLength(expectedRequests);
    expect(new Set(fake.requests.map((q) => q.key))).toEqual(new Set([KEY]));
    for (const id of ids) {
      expect(replies.filter((x) => x.task === id).map((x) => x.round).sort()).toEqual(firstPass(id) ? [0] : [0, 1]);
    }

    const { run, attempts } = await storedRun(dir);
    expect(run.status).toBe('done');
    const attempt = (id: string, round: number) => attempts.find((a) => a.taskId === id && a.round === round)!;

    // A repair prompt continues the conversation: the first prompt, the model's answer, then the verifier's diagnosis of that answer.
    for (const id of ids.filter((i) => !firstPass(i))) {
      const first = replies.find((x) => x.task === id && x.round === 0)!;
      const repair = replies.find((x) => x.task === id && x.round === 1)!;
      const diagnosis = attempt(id, 0).grade!.diagnosis;
      expect(repair.request.prompt.startsWith(first.request.prompt)).toBe(true);
      expect(repair.request.prompt).toContain(first.text);
      expect(repair.request.prompt).toContain(diagnosis.trim());
      expect(repair.request.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    }
    expect(attempt('sys_set_runnable-v0', 0).grade!.diagnosis).toMatch(/Counterexample:\n/);
    expect(replies.find((x) => x.task === 'sys_set_runnable-v0' && x.round === 1)!.request.prompt).toContain('Counterexample:');
    expect(replies.find((x) => x.task === 'sys_reclaim_port-v1' && x.round === 1)!.request.prompt).toContain('The answer contains no code');

    const category: Record<Kind, string> = { correct: 'pass', wrong: 'semantic', prose: 'syntax' };
    const rep = await report(dir);
    // `run --json` prints the same report as `report --json`.
    expect(JSON.parse(r.out)).toEqual(rep);
    expect(rep.run).toMatchObject({ status: 'done', model: 'fake', provider: 'openai-compatible' });
    expect(rep.attempts.map((a: any) => `${a.task_id}|${a.round}|${a.category}`).sort()).toEqual(
      ids.flatMap((id) => SCRIPT[id].map((k, round) => `${id}|${round}|${category[k]}`)).sort(),
    );

    const m = rep.metrics;
    const selected = ids.map(task);
    const firstKinds = ids.map((id) => SCRIPT[id][0]);
    const count = (k: Kind) => firstKinds.filter((x) => x === k).length;
    expect(m.tasks).toBe(ids.length);
    expect(m.samples).toBe(ids.length);
    expect(m.minSamplesPerTask).toBe(1);
    expect(rep.pass_at_k).toEqual({ 1: count('correct') / ids.length });
    expect(Object.keys(m.passAtKSkipped).sort()).toEqual(['3', '5']);
    expect(m.rates).toEqual({
      pass: count('correct') / ids.length,
      syntax: count('prose') / ids.length,
      semantic: count('wrong') / ids.length,
      timeout: 0,
      unknown: 0,
    });
    expect(m.uncharged).toEqual({ unanswered: 0, internal: 0 });
    // The oracle specs also satisfy the lemma checks.
    expect(m.strictRate).toBe(count('correct') / ids.length);

    // Repair round 1: every failed first answer gets one; it fixes the chains whose second answer is correct.
    const repaired = ids.filter((id) => !firstPass(id));
    const fixedBy = (kind: Kind) => repaired.filter((id) => SCRIPT[id][0] === kind && SCRIPT[id][1] === 'correct').length;
    const triedBy = (kind: Kind) => repaired.filter((id) => SCRIPT[id][0] === kind).length;
    const fixed = repaired.filter((id) => SCRIPT[id][1] === 'correct').length;
    expect(m.repair).toEqual([
      {
        round: 1,
        attempted: repaired.length,
        fixed,
        stillFailing: repaired.length - fixed,
        byKind: { semantic: { attempted: triedBy('wrong'), fixed: fixedBy('wrong') }, syntax: { attempted: triedBy('prose'), fixed: fixedBy('prose') } },
      },
    ]);
    expect(m.passAfterRepair).toBe((count('correct') + fixed) / ids.length);

    // Bug-following: every graded first answer on a buggy variant is a sample; the sys_dup-v1 answer drops
    // exactly the increment its injected bug drops, so it refines the buggy code and follows the bug.
    // (A precondition on the generated tasks: if they are regenerated with another bug here, pick another answer.)
    expect(task('sys_dup-v1').provenance.map((p) => `${p.operator}: ${p.description}`)).toEqual(['drop-increment: removed "p->nr_fds++;"']);
    const buggy = selected.filter((t) => t.bug_count > 0);
    expect(m.bugFollowing).toEqual({ samples: buggy.length, following: 1, rate: 1 / buggy.length });
    expect(attempt('sys_dup-v1', 0).grade!.bugFollowing).toBe(true);

    const passed = (t: Task) => firstPass(t.id);
    const byHandler: Record<string, unknown> = {};
    for (const h of [...new Set(selected.map((t) => t.handler))].sort()) byHandler[h] = group(selected.filter((t) => t.handler === h), passed);
    expect(m.byHandler).toEqual(byHandler);
    const byBugCount: Record<string, unknown> = {};
    for (const n of [...new Set(selected.map((t) => t.bug_count))]) byBugCount[n] = group(selected.filter((t) => t.bug_count === n), passed);
    expect(m.byBugCount).toEqual(byBugCount);
    const byBugClass: Record<string, unknown> = { correct: group(selected.filter((t) => t.bug_count === 0), passed) };
    for (const c of BUG_CLASSES) byBugClass[c] = group(selected.filter((t) => t.bug_classes.includes(c)), passed);
    expect(m.byBugClass).toEqual(byBugClass);

    // Tokens: the fake bills ceil(prompt chars / 4) in and ceil(answer chars / 4) out; the run adds up every attempt.
    expect(m.tokens).toEqual({
      input: replies.reduce((s, x) => s + Math.ceil(x.request.prompt.length / 4), 0),
      output: replies.reduce((s, x) => s + Math.ceil(x.text.length / 4), 0),
    });
    // A local base URL costs nothing; every answered attempt has a latency.
    expect(m.cost).toEqual({ usd: 0, unpriced: 0 });
    expect(m.latency.count).toBe(expectedRequests);
  }, TIMEOUT_MS);

  it('a run killed with SIGKILL resumes on rerun without asking any answered prompt again', async () => {
    const ids = ['sys_set_runnable-v0', 'sys_set_runnable-v1', 'sys_set_runnable-v2', 'sys_set_runnable-v3',
      'sys_reclaim_port-v0', 'sys_reclaim_port-v1', 'sys_reclaim_port-v2', 'sys_reclaim_port-v3'];
    const ANSWERED = 3;
    // Phase 1: the first three requests are answered slowly; later ones never are (in flight when the kill comes).
    const answered: string[] = [];
    respond((req): FakeReply => {
      const t = taskOf(req.prompt, ids);
      if (answered.length >= ANSWERED) return { kind: 'hang' };
      answered.push(req.prompt);
      return { kind: 'slow', ms: 300, reply: { kind: 'text', text: answerText('correct', t.handler) } };
    });
    const dir = tempDir();
    const args = runArgs(dir, ids, { concurrency: 2 });
    const first = startCli(args);
    // Answers are cached (cache.jsonl) as soon as they arrive: wait until the three are stored and two requests hang.
    await waitFor('three stored answers and two hanging requests', () => completeLines(join(dir, 'cache.jsonl')).length >= ANSWERED && fake.inFlight === 2);
    first.child.kill('SIGKILL');
    const killed = await first.result;
    expect(killed.signal).toBe('SIGKILL');
    const phase1 = fake.requests.map((q) => q.prompt);
    expect(phase1).toHaveLength(ANSWERED + 2);
    const hung = phase1.filter((p) => !answered.includes(p));
    expect(hung).toHaveLength(2);

    fake.reset();
    respond((req) => ({ kind: 'text', text: answerText('correct', taskOf(req.prompt, ids).handler) }));
    const second = await startCli(args).result;
    expect(second.code, second.err).toBe(0);
    expect(second.err).toContain('resuming run');

    const phase2 = fake.requests.map((q) => q.prompt);
    for (const p of answered) expect(phase2).not.toContain(p);
    for (const p of hung) expect(phase2).toContain(p);
    // Every task asked exactly once over both phases (the hung ones twice: their first request got no answer).
    expect(phase2).toHaveLength(ids.length - ANSWERED);
    expect(new Set(phase2).size).toBe(phase2.length);
    expect([...answered, ...phase2].map((p) => taskOf(p, ids).id).sort()).toEqual([...ids].sort());

    const rep = await report(dir);
    expect(rep.run.status).toBe('done');
    expect(rep.metrics.samples).toBe(ids.length);
    expect(rep.pass_at_k).toEqual({ 1: 1 });
    expect(rep.attempts.map((a: any) => a.task_id).sort()).toEqual([...ids].sort());
    expect(completeLines(join(dir, 'cache.jsonl'))).toHaveLength(ids.length);
  }, TIMEOUT_MS);

  it('SIGTERM cancels the run (exit 3, status cancelled) and a rerun finishes it', async () => {
    const ids = ['sys_set_runnable-v0', 'sys_reclaim_port-v0'];
    let calls = 0;
    respond((req): FakeReply => (calls++ === 0 ? { kind: 'text', text: answerText('correct', taskOf(req.prompt, ids).handler) } : { kind: 'hang' }));
    const dir = tempDir();
    const args = runArgs(dir, ids, { concurrency: 1 });
    const first = startCli(args);
    await waitFor('one graded attempt and one hanging request', async () => {
      if (fake.inFlight !== 1 || fake.requests.length !== 2) return false;
      return completeLines(join(dir, 'attempts.jsonl')).some((l) => JSON.parse(l).grade);
    });
    first.child.kill('SIGTERM');
    const stopped = await first.result;
    expect(stopped.code, stopped.err).toBe(3);
    expect(stopped.err).toContain('rerun the same command to resume');
    const partial = JSON.parse(stopped.out);
    expect(partial.run.status).toBe('cancelled');
    expect(partial.metrics.samples).toBe(1);
    // The abandoned request left no attempt behind (it is not an error of the model).
    expect((await storedRun(dir)).attempts).toHaveLength(1);
    const hung = fake.requests[1].prompt;

    fake.reset();
    respond((req) => ({ kind: 'text', text: answerText('correct', taskOf(req.prompt, ids).handler) }));
    const second = await startCli(args).result;
    expect(second.code, second.err).toBe(0);
    expect(fake.requests.map((q) => q.prompt)).toEqual([hung]);
    const done = JSON.parse(second.out);
    expect(done.run.status).toBe('done');
    expect(done.metrics.samples).toBe(2);
    expect(done.pass_at_k).toEqual({ 1: 1 });
  }, TIMEOUT_MS);

  it('a 429 with Retry-After is waited out and retried; the run completes with correct metrics', async () => {
    const ids = ['sys_dup-v0', 'sys_set_runnable-v0'];
    const arrivals: { task: string; at: number }[] = [];
    respond((req): FakeReply => {
      const t = taskOf(req.prompt, ids);
      arrivals.push({ task: t.id, at: Date.now() });
      if (t.id === 'sys_dup-v0' && arrivals.filter((a) => a.task === t.id).length === 1) return { kind: 'rate-limit', retryAfter: '1' };
      return { kind: 'text', text: answerText('correct', t.handler) };
    });
    const dir = tempDir();
    const r = await startCli(runArgs(dir, ids)).result;
    expect(r.code, r.err).toBe(0);

    expect(fake.requests).toHaveLength(ids.length + 1);
    const dup = fake.requests.filter((q) => taskOf(q.prompt, ids).id === 'sys_dup-v0');
    expect(dup).toHaveLength(2);
    expect(dup[1].body).toEqual(dup[0].body);
    const [a, b] = arrivals.filter((x) => x.task === 'sys_dup-v0');
    expect(b.at - a.at).toBeGreaterThanOrEqual(950);

    const rep = JSON.parse(r.out);
    expect(rep.run.status).toBe('done');
    expect(rep.pass_at_k).toEqual({ 1: 1 });
    expect(rep.rates).toEqual({ pass: 1, syntax: 0, semantic: 0, timeout: 0, unknown: 0 });
    expect(rep.metrics.samples).toBe(ids.length);
    const { attempts } = await storedRun(dir);
    expect(attempts).toHaveLength(ids.length);
    expect(attempts.filter((x) => x.error)).toEqual([]);
  }, TIMEOUT_MS);

  it('requests that fail for good are unanswered: not charged, pass@k over the answered ones, and a rerun completes them', async () => {
    const ids = ['sys_set_runnable-v0', 'sys_reclaim_port-v0', 'sys_close-v0'];
    const DOWN = 'sys_reclaim_port-v0';
    respond((req) => {
      const t = taskOf(req.prompt, ids);
      return t.id === DOWN ? outage() : { kind: 'text', text: answerText(t.id === 'sys_close-v0' ? 'prose' : 'correct', t.handler) };
    });
    const dir = tempDir();
    const args = runArgs(dir, ids, { concurrency: 1 });
    const first = await startCli(args).result;
    // Not done: the run stays resumable (exit 3, status incomplete) and says so.
    expect(first.code, first.err).toBe(3);
    expect(first.err).toContain('rerun the same command');
    // The client spent its retries on the failing request (every try reached the server).
    const downTries = fake.requests.filter((q) => taskOf(q.prompt, ids).id === DOWN).length;
    expect(downTries).toBeGreaterThan(1);
    const rep1 = JSON.parse(first.out);
    expect(rep1.run.status).toBe('incomplete');
    expect(rep1.metrics.uncharged).toEqual({ unanswered: 1, internal: 0 });
    // pass@1 and the rates over the two answered tasks: one pass, one prose answer.
    expect(rep1.metrics.samples).toBe(2);
    expect(rep1.pass_at_k).toEqual({ 1: 0.5 });
    expect(rep1.rates).toMatchObject({ pass: 0.5, syntax: 0.5 });
    expect(rep1.attempts.find((a: any) => a.task_id === DOWN).category).toBe('unanswered');
    expect(rep1.grading).toEqual({ timeoutMs: expect.any(Number), strict: false });

    // The provider is back: the rerun asks only the unanswered task, and the run is done.
    fake.reset();
    respond((req) => ({ kind: 'text', text: answerText('correct', taskOf(req.prompt, ids).handler) }));
    const second = await startCli(args).result;
    expect(second.code, second.err).toBe(0);
    expect(fake.requests.map((q) => taskOf(q.prompt, ids).id)).toEqual([DOWN]);
    const rep2 = JSON.parse(second.out);
    expect(rep2.run.status).toBe('done');
    expect(rep2.metrics.uncharged).toEqual({ unanswered: 0, internal: 0 });
    expect(rep2.metrics.samples).toBe(3);
    expect(rep2.pass_at_k[1]).toBeCloseTo(2 / 3, 12);
  }, TIMEOUT_MS);

  it('answers without code (prose, empty text) are graded as syntax failures, not crashes', async () => {
    const ids = ['sys_close-v0', 'sys_reclaim_port-v0'];
    respond((req) => ({ kind: 'text', text: taskOf(req.prompt, ids).id === 'sys_close-v0' ? proseAnswer() : '' }));
    const dir = tempDir();
    const r = await startCli(runArgs(dir, ids)).result;
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('grading error');
    expect(fake.requests).toHaveLength(ids.length);

    // Metrics have no category of their own for "no code": it is a syntax failure.
    const rep = JSON.parse(r.out);
    expect(rep.run.status).toBe('done');
    expect(rep.rates).toEqual({ pass: 0, syntax: 1, semantic: 0, timeout: 0, unknown: 0 });
    expect(rep.pass_at_k).toEqual({ 1: 0 });
    const { attempts } = await storedRun(dir);
    expect(attempts.map((a) => a.taskId).sort()).toEqual([...ids].sort());
    for (const a of attempts) {
      expect(a.error).toBeUndefined();
      expect(a.grade).toMatchObject({ category: 'syntax', extracted: null });
      expect(a.grade!.diagnosis).toContain('contains no code');
    }
    expect(attempts.find((a) => a.taskId === 'sys_reclaim_port-v0')!.response!.text).toBe('');
  }, TIMEOUT_MS);
});
