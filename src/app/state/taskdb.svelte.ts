/**
 * The benchmark tasks for the app, loaded on demand: the task bundle is a
 * chunk of its own (core/tasks/load.ts), so the first page never waits for
 * it. Pages that show tasks call `load()` and read `tasks` reactively.
 */
import type { Task } from '../../core/tasks/task.ts';

class TaskCatalog {
  tasks = $state.raw<readonly Task[]>([]);
  loaded = $state(false);
  error = $state('');
  /** Where the bundle is: not asked for yet, on its way, in `tasks`, or failed (`error` says why). */
  state = $state<'idle' | 'loading' | 'ready' | 'failed'>('idle');
  private loading?: Promise<void>;
  /** By id, derived from `tasks`: a reader of `find` (a template, a `$derived`) sees the tasks arrive. */
  private readonly byId = $derived(new Map(this.tasks.map((t) => [t.id, t])));

  /** Loads the tasks once; resolves when they are in `tasks` (on failure `error` says why). */
  load(): Promise<void> {
    this.loading ??= (async () => {
      this.state = 'loading';
      try {
        const { loadTasks } = await import('../../core/tasks/load.ts');
        const tasks = await loadTasks();
        this.tasks = tasks;
        this.state = 'ready';
      } catch (e) {
        this.error = e instanceof Error ? e.message : String(e);
        this.state = 'failed';
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
