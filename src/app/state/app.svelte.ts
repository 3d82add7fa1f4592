/** The app's long-lived state objects, shared by pages so work survives navigation. */
import { DiagnosticsState } from './diagnostics.svelte.ts';
import { EvaluateState } from './evaluate.svelte.ts';
import { LessonsState } from './lessons.svelte.ts';
import { PlaygroundState } from './playground.svelte.ts';
import { RunsState } from './runs.svelte.ts';
import { sendApproval } from './send-approval.svelte.ts';
import { StudyState } from './study.svelte.ts';
import { TasksState } from './tasks.svelte.ts';
import { verifier } from './verifier.svelte.ts';

export const playground = new PlaygroundState(verifier);
export const diagnostics = new DiagnosticsState(verifier);
export const lessons = new LessonsState(verifier);
export const tasks = new TasksState();
export const runs = new RunsState();
export const evaluate = new EvaluateState(verifier);
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
