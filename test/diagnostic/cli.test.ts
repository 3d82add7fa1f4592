/**
 * The CLI prints a spec error whole: code frame, notes and call trace in the
 * terminal, and notes and trace in `--json` next to the fields it always had;
 * an unknown handler is the one coded error (SPEC030) at the top level; a
 * run stopped by a request error prints it as a Diagnostic too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli-process.ts';
import { type FakeProvider, startFakeProvider } from '../fake-provider/server.ts';
import { SPEC_WITH_TRACE as SPEC } from './spec-with-trace.ts';


const osvlab = async (...args: string[]) => (await startCli(args, process.env)).result;

describe('osvlab prints diagnostics whole', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'osvlab-diag-')), 'kill.py');
  writeFileSync(file, SPEC);

  it('verify: notes and call trace of a spec error, in the terminal and in --json', async () => {
    const [t, j] = await Promise.all([osvlab('verify', 'sys_kill', '--spec', file), osvlab('verify', 'sys_kill', '--spec', file, '--json')]);
    expect(t.code, t.err).toBe(2);
    expect(t.out).toContain(`${file}:4:8: error SPEC012: a symbolic expression cannot be used as a Python bool in 'if'\n  3 | def check(pid):\n`);
    expect(t.out).toContain('\nnote: z3py raises "Symbolic expressions cannot be cast to concrete Boolean values" here\n');
    expect(t.out).toContain('\ncall trace (innermost first):\n  in check, called at line 9\n  in sys_kill\n');
    expect(j.code, j.err).toBe(2);
    const error = JSON.parse(j.out).verdict.error;
    expect(error).toMatchObject({ code: 'SPEC012', line: 4, column: 8, severity: 'error', trace: ['in check, called at line 9', 'in sys_kill'] });
    expect(error.notes).toHaveLength(2);
  }, 120_000);

  it('an unknown handler is SPEC030, exit 4', async () => {
    const r = await osvlab('verify', 'sys_foo', '--oracle');
    expect(r.code).toBe(4);
    expect(r.err).toBe("osvlab verify: error SPEC030: unknown handler 'sys_foo'\n");
  }, 60_000);
});

describe('osvlab run prints the request error that stopped it', () => {
  let fake: FakeProvider;
  let dir: string;
  beforeAll(async () => {
    fake = await startFakeProvider();
    dir = mkdtempSync(join(tmpdir(), 'osvlab-diag-run-'));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a rejected key: code, message and what the run does next', async () => {
    fake.respond(() => ({ kind: 'auth' }));
    const env: NodeJS.ProcessEnv = { ...process.env, OSVLAB_API_KEY: 'test-key-not-secret' };
    const r = await startCli(
      ['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'm', '--tasks', 'sys_dup-v0', '--shots', '0', '--out', dir, '--no-lemmas'],
      env,
    ).result;
    expect(r.code, r.err).toBe(4);
    expect(r.err).toMatch(/\nrun failed: error LLM001: The server rejected the API key \(HTTP 401\)[^\n]*\nnote: a run stops at this error; it can be resumed\n/);
  }, 120_000);
});
