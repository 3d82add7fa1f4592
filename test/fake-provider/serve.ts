/**
 * The fake provider as a process of its own, for recipes run outside a test
 * process (deploy/slurm/test-local.sh):
 *
 *   npx tsx test/fake-provider/serve.ts [--delay-ms MS] [--prose-first ID,ID...] [--hold-file FILE]
 *
 * A request that offers tools (an agent run, `osvlab run --agent`) is
 * answered by the scripted agent (agent.ts): it verifies a buggy draft,
 * reads the counterexample, verifies the fix and answers; asked as model
 * `scripted-run`, it first calls `run` with the buggy draft.
 *
 * It answers every prompt with the oracle spec of the task the prompt is about,
 * except the first answer (round 0) of the tasks named by --prose-first, which
 * is prose (so a repair round has work). Each answer comes after MS
 * milliseconds (default 0). When FAKE_PROVIDER_KEY is set in the environment,
 * requests with another key get the wire's 401 (a key is never an argument).
 *
 * With --hold-file FILE: when FILE holds `TASK N` at the time a request comes,
 * the N-th request for TASK (counted from this process's start) is never
 * answered; its client sees the request in flight until it gives up or dies.
 * A recipe test writes the file once it knows N, so that it can kill a process
 * that is certainly still running (deploy/slurm/test-local.sh).
 *
 * Prints `listening URL` on its first line, then one line per completion
 * request: `request N TASK round R`. Stops on SIGTERM or SIGINT.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { oracleAnswer, proseAnswer, roundOf, taskOf } from '../eval/run/cli.ts';
import { type FakeReply, startFakeProvider } from './server.ts';
import { agentMove } from './agent.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

const delayMs = Number(option('delay-ms') ?? '0');
const proseFirst = new Set((option('prose-first') ?? '').split(',').filter((s) => s !== ''));
const holdFile = option('hold-file');
const tasks = await loadTasks();
const perTask = new Map<string, number>();

/** Whether the n-th request for a task is the one the hold file names. */
function held(taskId: string, n: number): boolean {
  if (holdFile === undefined || !existsSync(holdFile)) return false;
  const [id, at] = readFileSync(holdFile, 'utf8').trim().split(/\s+/);
  return id === taskId && Number(at) === n;
}

const fake = await startFakeProvider(process.env.FAKE_PROVIDER_KEY ? { key: process.env.FAKE_PROVIDER_KEY } : {});
let count = 0;
fake.respond((req) => {
  if (Array.isArray(req.body?.tools) && req.body.tools.length > 0) {
    process.stdout.write(`request ${++count} agent turn\n`);
    const move = agentMove(req, { run: req.body?.model === 'scripted-run' });
    return delayMs > 0 ? { kind: 'slow', ms: delayMs, reply: move } : move;
  }
  const task = taskOf(req.prompt, tasks);
  const round = roundOf(req.prompt);
  const n = (perTask.get(task.id) ?? 0) + 1;
  perTask.set(task.id, n);
  const hold = held(task.id, n);
  process.stdout.write(`request ${++count} ${task.id} round ${round}${hold ? ' held' : ''}\n`);
  if (hold) return { kind: 'hang' };
  const text = round === 0 && proseFirst.has(task.id) ? proseAnswer() : oracleAnswer(task.handler);
  const reply: FakeReply = { kind: 'text', text };
  return delayMs > 0 ? { kind: 'slow', ms: delayMs, reply } : reply;
});
process.stdout.write(`listening ${fake.url}\n`);

const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
