/**
 * The benchmark tasks for the app, loaded on demand: the task bundle is a
 * chunk of its own (core/bench/tasks.ts), so the first page never waits for
 * it. Pages that show tasks call `load()` and read `tasks` reactively.
 */
import type { Task } from '../../core/bench/task.ts';

type TasksModule = { loadTasks(): Promise<readonly Task[]> };
// Found with a glob so the app builds before the task bundle module exists.
const modules = import.meta.glob<TasksModule>('/src/core/bench/tasks.ts');

class TaskCatalog {
  tasks = $state.raw<readonly Task[]>([]);
  loaded = $state(false);
  error = $state('');
  private loading?: Promise<void>;
  private byId = new Map<string, Task>();

  /** Loads the tasks once; resolves when they are in `tasks` (empty if the bundle is missing). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      const mod = await Object.values(modules)[0]?.();
      try {
        const tasks = mod ? await mod.loadTasks() : [];
        this.byId = new Map(tasks.map((t) => [t.id, t]));
        this.tasks = tasks;
      } catch (e) {
        this.error = e instanceof Error ? e.message : String(e);
      }
      this.loaded = true;
    })();
    return this.loading;
  }

  find(id: string): Task | undefined {
    return this.byId.get(id);
  }
}

export const taskCatalog = new TaskCatalog();
