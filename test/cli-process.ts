/**
 * `osvlab` in a child process, started as a user starts it (node bin/osvlab.mjs
 * from the repository root), with the output collected. Asynchronous, so a
 * fake provider served by the test process keeps answering while it runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

/** Starts `osvlab ARGS` with exactly `env` as its environment. */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
  return { child, result };
}
