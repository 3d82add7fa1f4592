/**
 * `osvlab ARGV` run in this process (src/cli/main.ts), for tests that stop
 * before any solver work: the exit code and what went to stdout and stderr.
 */
import { expect } from 'vitest';
import { main } from '../src/cli/main.ts';

export async function osvlab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const [o, e] = [process.stdout.write, process.stderr.write];
  // Written as a stream writes: the callback is called (main waits on it before it returns).
  const into = (add: (s: string) => void) =>
    ((s: string | Uint8Array, ...rest: unknown[]) => {
      add(String(s));
      const done = rest.find((x): x is () => void => typeof x === 'function');
      if (done) process.nextTick(done);
      return true;
    }) as typeof o;
  process.stdout.write = into((s) => (out += s));
  process.stderr.write = into((s) => (err += s));
  try {
    return { code: await main(argv), out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

/** The options a command's parser knows, from its own unknown-option message. */
export async function optionsOf(command: string): Promise<string[]> {
  const r = await osvlab(command, '--no-such-option-at-all');
  expect(r.code, r.err).toBe(4);
  expect(r.err).toContain('ARG003 unknown option --no-such-option-at-all');
  const known = /\(known: ([^)]*)\)/.exec(r.err);
  return known ? known[1].split(', ').map((o) => o.slice(2)) : [];
}
