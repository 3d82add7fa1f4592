/**
 * A benchmark task as a shape shows it (docs/shape.md): its shown code
 * permuted and each bug's line following its statement, under the same id
 * and with the hash of the task it shapes (a grade stays tied to the real
 * task, and the verifier runs the real kernel and override, which are not
 * shown and keep their order).
 */
import type { Task } from '../tasks/task.ts';
import type { ShapeChoice } from './choice.ts';
import { shapeCode, shapedLine } from './permute.ts';

/** Shaped tasks, by choice and task (the prompts of a run show each task many times). */
const memo = new Map<string, WeakMap<Task, Task>>();

/** `task` in the shape of `choice`. */
export function shapedTask(task: Task, choice: ShapeChoice): Task {
  const key = `${choice.style}/${choice.seed}`;
  let byTask = memo.get(key);
  if (!byTask) memo.set(key, (byTask = new WeakMap()));
  let out = byTask.get(task);
  if (!out) {
    const shaped = shapeCode(task.code, choice);
    out = { ...task, code: shaped.text, provenance: task.provenance.map((p) => ({ ...p, line: shapedLine(shaped, p.line) })) };
    byTask.set(task, out);
  }
  return out;
}
