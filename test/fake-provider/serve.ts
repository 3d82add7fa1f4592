/**
 * The fake provider as a process of its own, for recipes run outside a test
 * process (deploy/slurm/test-local.sh):
 *
 *   npx tsx test/fake-provider/serve.ts [--delay-ms MS] [--prose-first ID,ID...] [--agent]
 *
 * A request that offers tools (an agent run, `osvlab run --agent`) is
 * answered by the scripted agent (agent.ts): it verifies a buggy draft,
 * reads the counterexample, verifies the fix and answers.
 *
 * It answers every prompt with the oracle spec of the task the prompt is about,
 * except the first answer (round 0) of the tasks named by --prose-first, which
 * is prose (so a repair round has work). Each answer comes after MS
 * milliseconds (default 0). When FAKE_PROVIDER_KEY is set in the environment,
 * requests with another key get the wire's 401 (a key is never an argument).
 *
 * Prints `listening URL` on its first line, then one line per completion
 * request: `request N TASK round R`. Stops on SIGTERM or SIGINT.
 */
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
const tasks = await loadTasks();
const fake = await startFakeProvider(process.env.FAKE_PROVIDER_KEY ? { key: process.env.FAKE_PROVIDER_KEY } : {});
let count = 0;
fake.respond((req) => {
  if (Array.isArray(req.body?.tools) && req.body.tools.length > 0) {
    process.stdout.write(`request ${++count} agent turn\n`);
    const move = agentMove(req);
    return delayMs > 0 ? { kind: 'slow', ms: delayMs, reply: move } : move;
  }
  const task = taskOf(req.prompt, tasks);
  const round = roundOf(req.prompt);
  process.stdout.write(`request ${++count} ${task.id} round ${round}\n`);
  const text = round === 0 && proseFirst.has(task.id) ? proseAnswer() : oracleAnswer(task.handler);
  const reply: FakeReply = { kind: 'text', text };
  return delayMs > 0 ? { kind: 'slow', ms: delayMs, reply } : reply;
});
process.stdout.write(`listening ${fake.url}\n`);

const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
