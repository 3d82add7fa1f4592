/**
 * The key goes only to the host of the base URL (docs/providers.md,
 * "Redirects" and "Base URLs"), as a user meets it: `osvlab run` in a child
 * process against a fake provider on 127.0.0.1 that redirects to a second
 * fake on 127.0.0.2, another host, which records whatever arrives there.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli-process.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../fake-provider/server.ts';
import { storedRun } from '../run-dir.ts';

const KEY = 'sk-key-for-the-first-host-0042';
const TIMEOUT_MS = 120_000;

let home: FakeProvider;
let elsewhere: FakeProvider;
const dirs: string[] = [];

beforeAll(async () => {
  home = await startFakeProvider();
  elsewhere = await startFakeProvider({ host: '127.0.0.2' });
  // What the other host answers, were it asked: a passing answer, so only the client's refusal stops a grade.
  elsewhere.respond(() => ({ kind: 'text', text: 'No code.' }));
});
afterEach(() => {
  home.reset();
  elsewhere.reset();
  elsewhere.respond(() => ({ kind: 'text', text: 'No code.' }));
});
afterAll(async () => {
  await home.close();
  await elsewhere.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'osvlab-hosts-'));
  dirs.push(d);
  return d;
}

function run(provider: string, baseUrl: string, dir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, OSVLAB_API_KEY: KEY };
  for (const v of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY']) delete env[v];
  const args = ['run', '--provider', provider, '--base-url', baseUrl, '--model', 'm', '--tasks', 'sys_kill-v0', '--shots', '0', '--no-lemmas', '--out', dir, '--json'];
  return startCli(args, env).result;
}

/** Everything that reached the other host: requests of any method, and their keys. */
function arrivedElsewhere(): string[] {
  return [...elsewhere.requests.map((r) => `${r.method} ${r.path} key=${r.key ?? '-'}`), ...elsewhere.gets.map((g) => `GET ${g.path} ${JSON.stringify(g.headers)}`)];
}

const redirect = (status: number, to: string): FakeReply => ({ kind: 'raw', status, body: '', headers: { location: to } });

describe('a provider that redirects', () => {
  // Anthropic's and Gemini's keys are headers fetch would forward on a 307; OpenAI's 302 would come back as a GET answered elsewhere.
  const cases: [string, number, string][] = [
    ['anthropic', 307, '/v1/messages'],
    ['gemini', 307, '/v1/models/m:generateContent'],
    ['openai', 302, '/v1/chat/completions'],
  ];
  for (const [provider, status, path] of cases) {
    it(`${provider}: a ${status} to another host is LLM016 naming both hosts, and nothing reaches that host`, async () => {
      home.respond(() => redirect(status, `${elsewhere.url}${path}`));
      const dir = tempDir();
      const r = await run(provider, `${home.url}/v1`, join(dir, 'run'));
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain('LLM016');
      expect(r.err).toContain(`from ${home.url.slice('http://'.length)} to ${elsewhere.url.slice('http://'.length)}, another host`);
      expect(arrivedElsewhere()).toEqual([]);
      // Asked once and stopped: a redirect is not retried.
      expect(home.requests).toHaveLength(1);
      expect(home.requests[0].key).toBe(KEY);
      expect(r.err + r.out).not.toContain(KEY);
    }, TIMEOUT_MS);
  }

  it('a redirect on the same host is refused too, naming the path it points to', async () => {
    home.respond(() => redirect(308, '/v2/chat/completions'));
    const r = await run('openai-compatible', `${home.url}/v1`, join(tempDir(), 'run'));
    expect(r.code, r.err).toBe(4);
    expect(r.err).toContain('LLM016');
    expect(r.err).toContain(`to /v2/chat/completions on the same host (${home.url.slice('http://'.length)})`);
    expect(home.requests).toHaveLength(1);
  }, TIMEOUT_MS);
});

describe('a base URL', () => {
  it('with a user name and password is LLM017 before anything is sent or written, and the password is never echoed', async () => {
    const dir = join(tempDir(), 'run');
    const r = await run('openai-compatible', `http://alice:pw-s3cret-77@${home.url.slice('http://'.length)}/v1`, dir);
    expect(r.code, r.err).toBe(4);
    expect(r.err).toMatch(/^osvlab run: LLM017 --base-url: a base URL must not hold a user name or password \(http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\)/m);
    expect(r.err + r.out).not.toContain('pw-s3cret-77');
    expect(r.err + r.out).not.toContain('alice');
    expect(existsSync(dir)).toBe(false);
    expect(home.requests).toEqual([]);
  }, TIMEOUT_MS);

  it('with a key in its query, or a fragment, is LLM017', async () => {
    for (const [url, says] of [
      [`${home.url}/v1?api_key=k-in-the-url-99`, 'query parameter "api_key" looks like a key'],
      [`${home.url}/v1#frag`, 'has no fragment ("#frag")'],
    ]) {
      const dir = join(tempDir(), 'run');
      const r = await run('openai-compatible', url, dir);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain('LLM017');
      expect(r.err).toContain(says);
      expect(existsSync(dir)).toBe(false);
    }
    expect(home.requests).toEqual([]);
  }, TIMEOUT_MS);

  it('with another query string keeps it after the endpoint path', async () => {
    home.respond(() => ({ kind: 'text', text: 'No code.' }));
    const dir = join(tempDir(), 'run');
    const r = await run('openai-compatible', `${home.url}/v1/?api-version=2024-10-21`, dir);
    expect(r.code, r.err).toBe(0);
    expect(home.requests.map((q) => `${q.path}${q.query}`)).toEqual(['/v1/chat/completions?api-version=2024-10-21']);
    expect((await storedRun(dir)).run.config.baseUrl).toBe(`${home.url}/v1?api-version=2024-10-21`);
  }, TIMEOUT_MS);
});
