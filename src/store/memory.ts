/**
 * A run store in memory, for a session whose run is not kept (`osvlab grade`
 * without `--out`, `osvlab regrade` of a file): the same contract as the
 * JSONL and IndexedDB stores, gone with the process.
 */
import type { AttemptRecord, PromptRecord, RunRecord, RunStore } from '../core/eval/run/run-types.ts';

export class MemoryStore implements RunStore {
  private readonly runs = new Map<string, RunRecord>();
  private readonly attempts = new Map<string, AttemptRecord>();
  private readonly prompts = new Map<string, PromptRecord>();

  async putRun(run: RunRecord): Promise<void> {
    this.runs.set(run.id, run);
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.runs.get(id);
  }

  async listRuns(): Promise<RunRecord[]> {
    return [...this.runs.values()];
  }

  async deleteRun(id: string): Promise<void> {
    this.runs.delete(id);
    for (const [k, a] of this.attempts) if (a.runId === id) this.attempts.delete(k);
  }

  async putAttempt(attempt: AttemptRecord): Promise<void> {
    this.attempts.set(attempt.id, attempt);
  }

  async listAttempts(runId: string): Promise<AttemptRecord[]> {
    return [...this.attempts.values()].filter((a) => a.runId === runId);
  }

  async putPrompt(prompt: PromptRecord): Promise<void> {
    this.prompts.set(prompt.hash, prompt);
  }

  async getPrompt(hash: string): Promise<PromptRecord | undefined> {
    return this.prompts.get(hash);
  }

  async close(): Promise<void> {}
}
