/**
 * The benchmark tasks, loaded on demand from the generated bundle
 * tasks/hv6/tasks.json (`npm run tasks` writes it; `npm run bundle`
 * rebuilds it from tasks/hv6/tasks/*.json). A dynamic import: Vite puts the
 * bundle in a chunk of its own, fetched only when tasks are first needed,
 * and Node reads the same file, so the CLI and the browser see the same
 * tasks.
 */
import type { Task } from './task.ts';

export interface TasksBundle {
  readonly format: 1;
  /** The kernel the tasks were generated from. */
  readonly kernelHash: string;
  readonly tasks: readonly Task[];
}

let loading: Promise<TasksBundle> | undefined;

/** The task bundle (loaded once). */
function loadTasksBundle(): Promise<TasksBundle> {
  loading ??= import('../../../tasks/hv6/tasks.json').then((m) => m.default as unknown as TasksBundle);
  return loading;
}

/** All tasks, in handler order, then v0..v4. */
export async function loadTasks(): Promise<readonly Task[]> {
  return (await loadTasksBundle()).tasks;
}

/** The task with this id, or undefined. */
export async function findTask(id: string): Promise<Task | undefined> {
  return (await loadTasks()).find((t) => t.id === id);
}
