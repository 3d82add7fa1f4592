/**
 * The scripted learner (learner.ts) behind the fake provider, as a process
 * of its own: `npx tsx test/fake-provider/serve-learner.ts [PORT]` prints the
 * OpenAI-compatible base URL, serves until stopped, and on SIGINT or
 * SIGTERM prints how many requests it answered. For trying studies by hand
 * (docs/research.md); tests start the learner in their own process.
 */
import { learner } from './learner.ts';
import { startFakeProvider } from './server.ts';

const fake = await startFakeProvider({ port: Number(process.argv[2] ?? 0) });
fake.respond(learner());
process.stdout.write(`${fake.url}/v1\n`);
const stop = async () => {
  process.stderr.write(`learner: answered ${fake.requests.length} requests\n`);
  await fake.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
