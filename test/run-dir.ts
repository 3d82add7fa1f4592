/** Reading what a run directory holds, for tests: the one run it has and its attempts. */
import type { AttemptRecord, RunRecord } from '../src/core/eval/run/run-types.ts';
import { JsonlRepository } from '../src/store/jsonl.ts';

/** The run of a one-run directory and its attempts; the directory must exist (it is never created). */
export async function storedRun(dir: string): Promise<{ run: RunRecord; attempts: AttemptRecord[] }> {
  const store = await JsonlRepository.open(dir, { create: false });
  try {
    const [run] = await store.listRuns();
    if (!run) throw new Error(`${dir} holds no run`);
    return { run, attempts: await store.listAttempts(run.id) };
  } finally {
    await store.close();
  }
}
