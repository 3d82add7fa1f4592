/**
 * The suite on a machine that is short of everything (test/README.md,
 * "Timing"): runs vitest on the given test files (default: the browser
 * tests, test/e2e) while other processes hold every core busy, and with the
 * local test servers' network slowed (test/net-delay.ts). A test that
 * passes only when the machine is fast fails here.
 *
 *   npm run test:stress                        the e2e files
 *   npm run test:stress -- test/e2e/playground.test.ts test/cli
 *   npm run test:stress -- --busy 3 --delay 300 test/e2e
 *   npm run test:stress -- --all               every test file
 *
 * --busy N: busy loops per core (default 2); --delay MS: each request to a
 * local test server waits this long first (default 150). Other arguments go
 * to vitest. The busy loops are stopped by their pids when vitest ends,
 * however it ends; the exit code is vitest's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  busyPerCore: number;
  delayMs: number;
  vitestArgs: string[];
}

function parse(argv: string[]): Options {
  const opts: Options = { busyPerCore: 2, delayMs: 150, vitestArgs: [] };
  let all = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const count = (name: string) => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${name} takes a whole number, got "${argv[i] ?? ''}"`);
      return v;
    };
    if (a === '--busy') opts.busyPerCore = count('--busy');
    else if (a === '--delay') opts.delayMs = count('--delay');
    else if (a === '--all') all = true;
    else opts.vitestArgs.push(a);
  }
  const named = opts.vitestArgs.some((a) => !a.startsWith('-'));
  if (!named && !all) opts.vitestArgs.push('test/e2e');
  return opts;
}

/** One process that spins a core until it is killed. */
function busyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

async function main(): Promise<number> {
  const opts = parse(process.argv.slice(2));
  const cores = availableParallelism();
  const loops: ChildProcess[] = [];
  const stop = () => {
    for (const p of loops) if (p.pid !== undefined && p.exitCode === null) p.kill('SIGKILL');
  };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      stop();
      process.exit(130);
    });
  }
  for (let i = 0; i < opts.busyPerCore * cores; i++) loops.push(busyLoop());
  const started = Date.now();
  console.log(
    `stress: ${loops.length} busy loops on ${cores} cores (pids ${loops.map((p) => p.pid).join(' ')}), ` +
      `local servers delayed ${opts.delayMs} ms per request, load average ${loadavg()[0].toFixed(1)}; vitest run ${opts.vitestArgs.join(' ')}`,
  );
  const vitest = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...opts.vitestArgs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, OSVLAB_TEST_NET_DELAY_MS: String(opts.delayMs) },
  });
  const code = await new Promise<number>((resolve) => vitest.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1))));
  stop();
  console.log(`stress: vitest exited ${code} after ${Math.round((Date.now() - started) / 1000)} s (load average at the end ${loadavg()[0].toFixed(1)})`);
  return code;
}

process.exitCode = await main();
