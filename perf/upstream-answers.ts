/**
 * OSVBench's recorded answers (`results/Spec/<model>_Spec.json` of
 * github.com/lishangyu-hkust/OSVBench; not in this repository): keys
 * "0".."244", each `{syscall: [answer]}`. Index i shows handler i mod 49,
 * the correct code for i < 49 and an injected bug otherwise. Read by the
 * benchmarks that take `--upstream FILE` (meaning-groups.ts, run-refute.ts).
 */
import { readFileSync } from 'node:fs';
import { requireHandler } from '../src/core/kernel/handlers.ts';

export interface UpstreamAnswer {
  readonly handler: string;
  readonly response: string;
  /** The entry's key in the file. */
  readonly index: number;
  /** The variant shown: 0 the correct code, 1-4 the buggy ones (index div 49). */
  readonly sample: number;
}

/** Every entry's answer (the first where an entry has more), in the file's order. */
export function upstreamAnswers(path: string): UpstreamAnswer[] {
  const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, string[]>>;
  const out: UpstreamAnswer[] = [];
  for (const [key, entry] of Object.entries(json)) {
    const index = Number(key);
    for (const [syscall, answers] of Object.entries(entry)) {
      if (answers.length) out.push({ handler: requireHandler(syscall).name, response: answers[0], index, sample: Math.floor(index / 49) });
    }
  }
  return out;
}
