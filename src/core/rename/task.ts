/**
 * A benchmark task as a renaming shows it (docs/rename.md): its handler,
 * declaration, description, shown code, the changes its bugs made and its
 * override in the renamed names, under the same id and with the hash of
 * the task it renames (a grade stays tied to the real task).
 */
import type { Task } from '../tasks/task.ts';
import type { RenameChoice } from './choice.ts';
import { lensFor } from './lens.ts';

/** `task` in the names of `choice`. */
export function renamedTask(task: Task, choice: RenameChoice): Task {
  const f = lensFor(choice).forward;
  return {
    ...task,
    handler: f.name(task.handler),
    declaration: f.codeText(task.declaration, 'c'),
    description: f.markdown(task.description),
    code: f.codeText(task.code, 'c'),
    provenance: task.provenance.map((p) => ({ ...p, function: f.name(p.function), description: f.proseText(p.description) })),
    impl_override: f.codeText(task.impl_override, 'c'),
  };
}
