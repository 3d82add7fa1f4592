/**
 * The order vitest starts the test files in (vitest.config.ts): the slowest
 * first, so that on CI's two workers no long file starts near the end and
 * runs alone while the other worker idles (longest-first keeps the two
 * workers' totals close).
 *
 * Vitest orders by the durations it cached on an earlier run, and without
 * that cache (a fresh clone, as CI is) by file size, largest first; the
 * browser smoke files are four lines each, so the slowest of all
 * (smoke-webkit, over 10 minutes on a loaded machine) started last. The
 * files named below, measured in one full run (`npx vitest run
 * --reporter=json`), start first, in this order; every other file follows
 * in vitest's own order. Refresh the list when a file's time changes a lot.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOWEST_FIRST: readonly string[] = [
  'test/e2e/smoke-webkit.test.ts',
  'test/cli/run-files.test.ts',
  'test/e2e/same-run.test.ts',
  'test/e2e/playground.test.ts',
  'test/cli/run.test.ts',
  'test/e2e/smoke-firefox.test.ts',
  'test/cli/grade.test.ts',
  'test/e2e/playground-edges.test.ts',
  'test/e2e/publish.test.ts',
  'test/cli/run-lock.test.ts',
  'test/e2e/learner.test.ts',
  'test/e2e/evaluate.test.ts',
  'test/e2e/teacher.test.ts',
  'test/e2e/learn.test.ts',
  'test/e2e/learn-teacher.test.ts',
  'test/z3/memory.test.ts',
  'test/cli/key-hosts.test.ts',
];

/** `file`'s place in SLOWEST_FIRST (a path relative to `root`), or the end. */
export function slowRank(root: string, file: string): number {
  const rel = file.startsWith(root) ? file.slice(root.length).replace(/^[/\\]+/, '').replaceAll('\\', '/') : file;
  const i = SLOWEST_FIRST.indexOf(rel);
  return i < 0 ? SLOWEST_FIRST.length : i;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const theirs = await super.sort(files);
    const root = this.ctx.config.root;
    // Array.prototype.sort is stable: the files not named keep vitest's order.
    return [...theirs].sort((a, b) => slowRank(root, a.moduleId) - slowRank(root, b.moduleId));
  }
}
