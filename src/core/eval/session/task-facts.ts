/**
 * What the metrics need of a task a run names, when this build may not have
 * it: a run from another version, a handler-only answer, or an entry of an
 * OSVBench results file made on upstream's benchmark (ids `HANDLER@osvbench-I`,
 * src/core/eval/files/osvbench.ts).
 */
import type { TaskRef } from '../files/run-file.ts';
import type { Task } from '../../tasks/task.ts';

/** The handler a task id names: `sys_dup-v3` and `sys_dup@osvbench-52` are sys_dup's. */
export function handlerOfTaskId(id: string): string {
  const at = id.indexOf('@');
  return (at >= 0 ? id.slice(0, at) : id).replace(/-v\d+$/, '');
}

/** The facts of task `id`: this build's task when it has it, else its handler with no bugs known. */
export function taskFactsOf(id: string, find: (id: string) => Task | undefined): TaskRef {
  const t = find(id);
  if (t) return { id: t.id, handler: t.handler, bug_classes: t.bug_classes, bug_count: t.bug_count, hash: t.hash };
  return { id, handler: handlerOfTaskId(id), bug_classes: [], bug_count: 0, hash: '' };
}
