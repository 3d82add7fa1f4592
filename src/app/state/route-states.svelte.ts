/**
 * The long-lived states of the routes other than the playground (About,
 * Learn, Tasks, Evaluate and its studies, Runs), shared by their pages so
 * work survives navigation. Only those pages import this module, so it loads
 * with the first of them that opens, never before the playground's first
 * verdict.
 */
import { showRun } from './readiness.svelte.ts';
import { DiagnosticsState } from './diagnostics.svelte.ts';
import { EvaluateState } from './evaluate.svelte.ts';
import { LessonsState } from './lessons.svelte.ts';
import { RunsState } from './runs.svelte.ts';
import { sendApproval } from './send-approval.svelte.ts';
import { StudyState } from './study.svelte.ts';
import { TasksState } from './tasks.svelte.ts';
import { verifier } from './verifier.svelte.ts';

export const diagnostics = new DiagnosticsState(verifier);
export const lessons = new LessonsState(verifier);
export const tasks = new TasksState();
export const runs = new RunsState();
export const evaluate = new EvaluateState(verifier);
showRun(evaluate);
/**
 * Studies take the key the Evaluate page holds for a provider and the origin
 * of a cell's base URL (typed there, or remembered on this device), and its
 * base URL for the provider it is set to, where the file gives none. Hosts
 * the file names are asked about as a resumed run's are.
 */
export const study = new StudyState(
  (kind, baseUrl) => evaluate.settings.keyFor(kind, baseUrl),
  (kind) => (kind === evaluate.settings.provider ? evaluate.settings.baseUrl : undefined),
  (what, to) => sendApproval.confirm(what, to, (origin) => evaluate.trusted(origin)),
);
