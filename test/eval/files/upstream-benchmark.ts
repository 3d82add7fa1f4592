/** A benchmark.json in upstream's shape, for tests: entries 0-48 correct, labels on the rest, and the trailing comma upstream's file has. */
import { UPSTREAM_HANDLERS } from '../../../src/core/eval/files/osvbench.ts';

/**
 * `length` entries, entry i for handler i mod 49 in upstream's order, with
 * `labelOf(i)` as its bug_type from index 49 on; the first bug_num line ends
 * with a trailing comma. `commaLine` is that line (1-based).
 */
export function upstreamBenchmark(length: number, labelOf: (index: number) => string): { readonly text: string; readonly commaLine: number } {
  const entries = Array.from({ length }, (_, i) => ({
    syscall: UPSTREAM_HANDLERS[i % 49],
    declaration: '',
    description: '',
    code: '',
    ...(i >= 49 ? { bug_type: labelOf(i), bug_num: '1' } : {}),
  }));
  const text = JSON.stringify(entries, null, 4).replace(/("bug_num": "1")\n/, '$1,\n');
  return { text, commaLine: text.split('\n').findIndex((l) => l.endsWith('"1",')) + 1 };
}
