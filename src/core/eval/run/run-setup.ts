/**
 * Setting a run up: the new run record, checked against the loaded tasks,
 * and the task ids a selection ("all", "first:N", "handler:NAME", ids)
 * names. The run loop (runner.ts) takes it from there.
 */
import type { RunConfig, RunProvenance, RunRecord } from './run-types.ts';
import type { Task } from '../../tasks/task.ts';

/** A new run record (status "created"). */
export function createRun(init: {
  readonly id: string;
  readonly name?: string;
  readonly config: RunConfig;
  readonly provenance: RunProvenance;
  readonly tasks: readonly Pick<Task, 'id' | 'hash'>[];
  readonly now: number;
}): RunRecord {
  const hashes: Record<string, string> = {};
  const byId = new Map(init.tasks.map((t) => [t.id, t]));
  for (const id of init.config.tasks) {
    const t = byId.get(id);
    if (!t) throw new Error(`unknown task "${id}"`);
    hashes[id] = t.hash;
  }
  if (!Number.isInteger(init.config.n) || init.config.n < 1) throw new Error(`n must be a positive integer (got ${init.config.n})`);
  if (!Number.isInteger(init.config.repairRounds) || init.config.repairRounds < 0) throw new Error(`repair rounds must be 0 or more (got ${init.config.repairRounds})`);
  return {
    id: init.id,
    ...(init.name ? { name: init.name } : {}),
    createdAt: init.now,
    updatedAt: init.now,
    config: init.config,
    provenance: init.provenance,
    taskHashes: hashes,
    status: 'created',
  };
}

/**
 * The task ids a selection names: "all", "first:N" (N >= 1), "handler:NAME",
 * or a comma-separated list of task ids. Throws on an unknown id or handler,
 * and on a selection that names no task at all (a run of nothing is a
 * mistake, never what was meant).
 */
export function selectTasks(all: readonly Pick<Task, 'id' | 'handler'>[], selection: string): string[] {
  const ids = selectionIds(all, selection);
  if (ids.length === 0) throw new Error(`the selection "${selection}" names no task`);
  return ids;
}

function selectionIds(all: readonly Pick<Task, 'id' | 'handler'>[], selection: string): string[] {
  const sel = selection.trim();
  if (sel === '' || sel === 'all') return all.map((t) => t.id);
  const first = /^first:(.*)$/.exec(sel);
  if (first) {
    if (!/^\d+$/.test(first[1]) || Number(first[1]) < 1) throw new Error(`first:N needs a whole number N of at least 1 (got "${first[1]}")`);
    return all.slice(0, Number(first[1])).map((t) => t.id);
  }
  if (sel.startsWith('handler:')) {
    const names = sel.slice(8).split(',').map((s) => s.trim());
    const ids = all.filter((t) => names.includes(t.handler)).map((t) => t.id);
    for (const n of names) if (!all.some((t) => t.handler === n)) throw new Error(`no tasks for handler "${n}"`);
    return ids;
  }
  const ids = sel.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const known = new Set(all.map((t) => t.id));
  for (const id of ids) if (!known.has(id)) throw new Error(`unknown task "${id}"`);
  return ids;
}
