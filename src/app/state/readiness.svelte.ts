/**
 * What the page has loaded and what it is doing, as attributes of the root
 * element, so whoever waits for the page (a browser test, a script, an
 * assistive tool) waits on a state rather than for a time (docs/app.md,
 * "Ready states"):
 *
 * - `data-z3`: the verifier's engine (`idle`, `loading`, `ready`, `failed`,
 *   `unavailable`, `no-isolation`);
 * - `data-tasks`: the task bundle (`idle`: not asked for, `loading`, `ready`,
 *   `failed`);
 * - `data-run`: the Evaluate page's run (`idle`, `running`, or the status it
 *   finished with: `done`, `incomplete`, `failed`, `cancelled`), and
 *   `data-run-id` the run's id (a second run is told from the first by it).
 */
import type { RunPhase } from './evaluate.svelte.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { verifier } from './verifier.svelte.ts';

/** The Evaluate page's run, once its state has loaded (route-states.svelte.ts); until then no run is going. */
let runSource = $state.raw<{ readonly phase: RunPhase } | undefined>(undefined);

/** Gives the ready states the Evaluate page's run to show (called once, when its state is made). */
export function showRun(source: { readonly phase: RunPhase }): void {
  runSource = source;
}

/** Keeps the root element's ready states current; call once from the shell's script. */
export function exposeReadiness(root: HTMLElement = document.documentElement): void {
  $effect(() => {
    root.dataset.z3 = verifier.status.kind;
  });
  $effect(() => {
    root.dataset.tasks = taskCatalog.state;
  });
  $effect(() => {
    const phase: RunPhase = runSource?.phase ?? { kind: 'idle' };
    root.dataset.run = phase.kind === 'finished' ? phase.status : phase.kind;
    root.dataset.runId = phase.kind === 'idle' ? '' : phase.runId;
  });
}
