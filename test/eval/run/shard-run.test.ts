/**
 * `osvlab run --shard K/N` and `osvlab merge` end to end: real CLI
 * processes against the fake provider, the real verifier. Three shards run
 * at once (one of them killed with SIGKILL half-way and then resumed alone),
 * are merged, and the merged directory's `osvlab report` is the report of one
 * process doing the same work, byte for byte except the latency timings.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/tasks/task.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { type FakeProvider, startFakeProvider } from '../../fake-provider/server.ts';
import { Cli, type CliResult, completeLines, oracleAnswer, proseAnswer, reportWithoutTimings, roundOf, taskOf, waitFor } from './cli.ts';
import { storedRun } from '../../run-dir.ts';

const TIMEOUT_MS = 400_000;
/** Quick to verify; with n = 2 they make 6 chains, 2 per shard. */
const IDS = ['sys_dup-v0', 'sys_set_runnable-v0', 'sys_reclaim_port-v1'];

let fake: FakeProvider;
let selected: Task[];
const cli = new Cli();

beforeAll(async () => {
  fake = await startFakeProvider();
  const all = await loadTasks();
  selected = IDS.map((id) => all.find((t) => t.id === id)!);
});

/**
 * Replies by task and round: the oracle spec, except prose for the first answer of
 * sys_set_runnable-v0 (its repair is the oracle) and for every answer on sys_reclaim_port-v1.
 */
function script(req: import('../../fake-provider/server.ts').ReceivedRequest): import('../../fake-provider/server.ts').FakeReply {
    const t = taskOf(req.prompt, selected);
    const round = roundOf(req.prompt);
    if (t.id === 'sys_set_runnable-v0' && round === 0) return { kind: 'slow', ms: 150, reply: { kind: 'text', text: proseAnswer() } };
    if (t.id === 'sys_reclaim_port-v1') return { kind: 'slow', ms: 150, reply: { kind: 'text', text: proseAnswer() } };
    return { kind: 'slow', ms: 150, reply: { kind: 'text', text: oracleAnswer(t.handler) } };
}
afterAll(async () => {
  cli.cleanup();
  await fake.close();
});

function runArgs(out: string, extra: readonly string[] = []): string[] {
  return [
    'run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'fake',
    '--tasks', IDS.join(','), '--shots', '0', '--repair', '1', '--n', '2',
    '--concurrency', '1', '--grade-concurrency', '1', '--no-lemmas', '--out', out, ...extra,
  ];
}

interface Sharded {
  /** The same run made by one process. */
  readonly single: string;
  readonly singleRun: CliResult;
  /** How many requests the single run made. */
  readonly singleRequests: number;
  readonly root: string;
  /** The three shards' directories, each finished. */
  readonly shards: readonly string[];
  /** Shard 2 killed with SIGKILL after its first stored attempt, and its run status then. */
  readonly killed: CliResult;
  readonly killedStatus: string;
  readonly others: readonly CliResult[];
  /** A merge tried while shard 2 was unfinished, and shard 2 resumed alone with the same command. */
  readonly early: CliResult;
  readonly resumed: CliResult;
}

let made: Promise<Sharded> | undefined;

/**
 * The single run and the three shards (shard 2 killed half-way, merged too
 * early, then resumed), made once for whichever test asks first: each test
 * can run alone, in any order.
 */
function sharded(): Promise<Sharded> {
  made ??= (async () => {
    const single = cli.tempDir();
    fake.reset();
    fake.respond(script);
    const singleRun = await cli.run(runArgs(single));
    const singleRequests = fake.requests.length;

    const root = cli.tempDir();
    const shards = [1, 2, 3].map((k) => join(root, `shard-${k}`));
    fake.reset();
    fake.respond(script);
    const started = shards.map((d, i) => cli.start(runArgs(d, ['--shard', `${i + 1}/3`])));
    // Kill shard 2 as soon as it has stored its first attempt.
    await waitFor('shard 2 to store an attempt', () => completeLines(join(shards[1], 'attempts.jsonl')).length >= 1);
    started[1].child.kill('SIGKILL');
    const killed = await started[1].result;
    const killedStatus = (await storedRun(shards[1])).run.status;
    const others = await Promise.all([started[0].result, started[2].result]);
    const early = await cli.run(['merge', ...shards, '--out', join(root, 'early')]);
    const resumed = await cli.run(runArgs(shards[1], ['--shard', '2/3']));
    return { single, singleRun, singleRequests, root, shards, killed, killedStatus, others, early, resumed };
  })();
  return made;
}

describe('run --shard K/N and merge', () => {
  it('three shards, one killed and resumed alone, merge into the report of one process', async () => {
    const { single, singleRun, singleRequests, root, shards, killed, killedStatus, others, early, resumed } = await sharded();
    expect(singleRun.code, singleRun.err).toBe(0);
    // 3 tasks x 2 samples, plus a repair for each of the 4 prose first answers.
    expect(singleRequests).toBe(6 + 4);

    expect(killed.signal).toBe('SIGKILL');
    expect(killedStatus).toBe('running');
    for (const r of others) expect(r.code, r.err).toBe(0);

    // Merging now names the unfinished shard.
    expect(early.code).toBe(2);
    expect(early.err).toContain('MERGE007');
    expect(early.err).toContain('shard 2/3');

    // The killed shard resumes alone with the same command.
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain('resuming run');

    for (const [i, d] of shards.entries()) {
      const { run, attempts } = await storedRun(d);
      expect(run.shard).toEqual({ index: i + 1, total: 3 });
      expect(run.status).toBe('done');
      // 6 chains task by task in 3 blocks of 2: shard K holds both samples of task K.
      expect(new Set(attempts.map((a) => `${a.taskId}|${a.sample}`))).toEqual(new Set([`${IDS[i]}|0`, `${IDS[i]}|1`]));
    }

    const merged = join(root, 'merged');
    const exported = join(root, 'merged.json');
    const m = await cli.run(['merge', ...shards, '--out', merged, '--export', exported]);
    expect(m.code, m.err).toBe(0);
    expect(m.out).toContain('merged 3 shards');

    const a = await cli.run(['report', single]);
    const b = await cli.run(['report', merged]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(reportWithoutTimings(b.out)).toBe(reportWithoutTimings(a.out));
    expect(a.out).toMatch(/pass@1 /);

    // The JSON report too, attempt for attempt (their order is the order they finished in).
    const ja = JSON.parse((await cli.run(['report', single, '--json'])).out);
    const jb = JSON.parse((await cli.run(['report', merged, '--json'])).out);
    const norm = (j: any) => {
      delete j.metrics.latency;
      j.attempts.sort((x: any, y: any) => (x.id < y.id ? -1 : 1));
      return j;
    };
    expect(norm(jb)).toEqual(norm(ja));

    // The same chains were answered, each once in the merged run.
    const s = await storedRun(single);
    const mm = await storedRun(merged);
    expect(mm.run.id).toBe(s.run.id);
    expect(mm.run.shard).toBeUndefined();
    expect(mm.attempts.map((x) => x.id).sort()).toEqual(s.attempts.map((x) => x.id).sort());
    expect(mm.attempts.map((x) => `${x.id} ${x.grade?.category}`).sort()).toEqual(s.attempts.map((x) => `${x.id} ${x.grade?.category}`).sort());
    // The export is a run file of the merged run.
    const file = JSON.parse(readFileSync(exported, 'utf8'));
    expect(file.format).toBe('osvlab-run');
    expect(file.run.id).toBe(s.run.id);
    expect(file.attempts).toHaveLength(s.attempts.length);
  }, TIMEOUT_MS);

  it('a missing, duplicated or foreign shard is an error naming it', async () => {
    const { single, shards, resumed } = await sharded();
    expect(resumed.code, resumed.err).toBe(0);
    const root = cli.tempDir();
    const missing = await cli.run(['merge', shards[0], shards[2], '--out', join(root, 'a')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/MERGE005: missing shard 2\/3 of run \w+/);
    expect(existsSync(join(root, 'a', 'run.json'))).toBe(false);

    const twice = await cli.run(['merge', shards[0], shards[1], shards[1], shards[2], '--out', join(root, 'b')]);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain(`MERGE004: shard 2/3 is given twice: ${shards[1]} and ${shards[1]}`);

    // The single-process run is not a shard.
    const notShard = await cli.run(['merge', shards[0], single, '--out', join(root, 'c')]);
    expect(notShard.code).toBe(2);
    expect(notShard.err).toContain(`MERGE002: ${single} is not a shard`);

    // A shard of another run (here: a different n) is refused.
    const other = join(root, 'other');
    cpSync(shards[1], other, { recursive: true });
    const rec = JSON.parse(readFileSync(join(other, 'run.json'), 'utf8'));
    writeFileSync(join(other, 'run.json'), JSON.stringify({ ...rec, config: { ...rec.config, n: 3 } }));
    const foreign = await cli.run(['merge', shards[0], other, shards[2], '--out', join(root, 'd')]);
    expect(foreign.code).toBe(2);
    expect(foreign.err).toContain(`MERGE003: ${other}`);

    // A directory of shard 1/3 does not resume as shard 2/3.
    const wrong = await cli.run(runArgs(shards[0], ['--shard', '2/3']));
    expect(wrong.code).toBe(4);
    expect(wrong.err).toContain('holds shard 1/3');
    const bad = await cli.run(runArgs(cli.tempDir(), ['--shard', '0/3']));
    expect(bad.code).toBe(4);
    expect(bad.err).toContain('K must be between 1 and N');
  }, TIMEOUT_MS);
});
