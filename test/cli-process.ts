/**
 * `osvlab` in a child process, started as a user starts it (node bin/osvlab.mjs
 * from the repository root), with the output collected: `startCli` is
 * asynchronous, so a fake provider served by the test process keeps answering
 * while it runs; `runCli` waits for the exit, for commands that need nothing
 * from the test process.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

export interface RunCliOptions {
  /** The environment (default: the test process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** A file descriptor for stdin (default: none). */
  readonly stdin?: 'ignore' | number;
  /** Kill the command after this long (default: never). */
  readonly timeoutMs?: number;
}

/** Runs `osvlab ARGS` to completion; `code` is -1 when it was killed by a signal. */
export function runCli(args: readonly string[], opts: RunCliOptions = {}): CliResult & { readonly code: number; readonly ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: opts.env ?? process.env,
    stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'],
    timeout: opts.timeoutMs,
    maxBuffer: 256 << 20,
  });
  return { code: r.status ?? -1, signal: r.signal, out: r.stdout, err: r.stderr, ms: Date.now() - started };
}
