/**
 * Setting a run up: the new run record, checked against the loaded tasks,
 * and the task ids a selection ("all", "first:N", "handler:NAME", ids, or
 * a list of these) names. The run loop (runner.ts) takes it from there.
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
 * The task ids a selection names: a comma-separated list of "all",
 * "first:N" (N >= 1), "handler:NAME" and task ids, in any mix
 * ("handler:sys_kill, handler:sys_dup, sys_reap-v2"); a bare name after a
 * handler item is a handler too, so "handler:a,b" means both handlers. The
 * ids come once each, in the order named (a handler's in catalog order).
 * Throws on an unknown id or handler, and on a selection that names no task
 * at all, an empty one included (a run of nothing is a mistake, never what
 * was meant).
 */
export function selectTasks(all: readonly Pick<Task, 'id' | 'handler'>[], selection: string): string[] {
  const ids = selectionIds(all, selection);
  const empty = selection.split(',').every((x) => x.trim() === '');
  if (ids.length === 0) throw new Error(empty ? 'the selection is empty: name the tasks (all, first:N, handler:NAME or task ids)' : `the selection "${selection}" names no task`);
  return ids;
}

function selectionIds(all: readonly Pick<Task, 'id' | 'handler'>[], selection: string): string[] {
  const out = new Set<string>();
  const known = new Set(all.map((t) => t.id));
  let handlers = false;
  for (const raw of selection.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    if (item === 'all') {
      for (const t of all) out.add(t.id);
      continue;
    }
    const first = /^first:(.*)$/.exec(item);
    if (first) {
      if (!/^\d+$/.test(first[1]) || Number(first[1]) < 1) throw new Error(`first:N needs a whole number N of at least 1 (got "${first[1]}")`);
      for (const t of all.slice(0, Number(first[1]))) out.add(t.id);
      continue;
    }
    const h = /^handler:\s*(.*)$/.exec(item);
    if (h) handlers = true;
    if (h || (handlers && !known.has(item))) {
      const name = h ? h[1] : item;
      const of = all.filter((t) => t.handler === name);
      if (of.length === 0) throw new Error(`no tasks for handler "${name}"`);
      for (const t of of) out.add(t.id);
      continue;
    }
    if (!known.has(item)) throw new Error(`unknown task "${item}"`);
    out.add(item);
  }
  return [...out];
}
