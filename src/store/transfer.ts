/** Export a stored run to a run file, and import one back, through any repository. */
import { type RunFile, type TaskRef, exportRun, formatValidationErrors, parseRunFile, type ValidationError } from '../core/eval/files/run-file.ts';
import type { PromptRecord } from '../core/eval/run/run-types.ts';
import type { Repository } from './repository.ts';

/** The run file of a stored run, with every prompt its attempts (and their bases) use. */
export async function exportStoredRun(repo: Repository, runId: string, tasks: readonly TaskRef[], exportedAt = new Date().toISOString()): Promise<RunFile> {
  const run = await repo.getRun(runId);
  if (!run) throw new Error(`no run "${runId}"`);
  const attempts = await repo.listAttempts(runId);
  const prompts = new Map<string, PromptRecord>();
  const want = [...new Set(attempts.map((a) => a.promptHash))];
  while (want.length > 0) {
    const h = want.pop()!;
    if (prompts.has(h)) continue;
    const p = await repo.getPrompt(h);
    if (!p) throw new Error(`prompt ${h} of run "${runId}" is missing from the store`);
    prompts.set(h, p);
    if (p.base) want.push(p.base);
  }
  return exportRun({ run, tasks, prompts: [...prompts.values()], attempts, exportedAt });
}

export type ImportResult =
  | { readonly ok: true; readonly runId: string; readonly attempts: number }
  | { readonly ok: false; readonly errors: readonly ValidationError[]; readonly message: string };

/**
 * Validates the text of a run file and stores the run. Nothing is written
 * unless the whole file is valid and its run id is new.
 */
export async function importRunFile(repo: Repository, text: string): Promise<ImportResult> {
  const parsed = parseRunFile(text);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, message: `Not a valid run file:\n${formatValidationErrors(parsed.errors)}` };
  const f = parsed.file;
  try {
    await repo.importBundle({ run: f.run, prompts: f.prompts, attempts: f.attempts });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, errors: [{ path: '$.run.id', message }], message };
  }
  return { ok: true, runId: f.run.id, attempts: f.attempts.length };
}
