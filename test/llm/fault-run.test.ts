/**
 * `osvlab run` while the provider drops connections (issue 12, "provider
 * faults"): every prompt's first request is reset mid-flight, as when a
 * local server is killed and restarted. The run retries each and finishes
 * with every answer; nothing is reported as CORS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli-process.ts';
import { proseAnswer } from '../fake-provider/answers.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';

let fake: FakeProvider;
let dir: string;
beforeAll(async () => {
  fake = await startFakeProvider();
  dir = mkdtempSync(join(tmpdir(), 'osvlab-faults-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('osvlab run with a provider that drops connections', () => {
  it('retries every reset and completes with all answers', async () => {
    const seen = new Set<string>();
    fake.respond((r) => {
      if (!seen.has(r.prompt)) {
        seen.add(r.prompt);
        return { kind: 'reset' };
      }
      return { kind: 'text', text: proseAnswer() };
    });
    const tasks = ['sys_set_runnable', 'sys_dup'].flatMap((h) => [0, 1].map((v) => `${h}-v${v}`));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.OSVLAB_API_KEY;
    const args = ['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'flaky', '--tasks', tasks.join(','),
      '--shots', '0', '--concurrency', '3', '--out', dir, '--json', '--no-lemmas'];
    const { code, out, err } = await startCli(args, env).result;
    expect(code, err).toBe(0);
    expect(err).not.toMatch(/CORS/);
    expect(fake.requests).toHaveLength(2 * tasks.length);
    const rep = JSON.parse(out);
    expect(rep.run.status).toBe('done');
    expect(rep.attempts).toHaveLength(tasks.length);
    expect(rep.metrics.uncharged).toEqual({ unanswered: 0, internal: 0 });
  }, 180_000);
});
