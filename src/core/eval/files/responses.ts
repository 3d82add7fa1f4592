/**
 * A file of answers to grade: JSONL (each line `{"task_id": ..., "response":
 * ...}` or `{"handler": ..., "response": ...}`) or OSVBench's results file,
 * told apart by content. One bad line never spoils the others: every good
 * line is kept, every bad one reported with its line number and a stable code
 * (docs/osvbench.md lists them).
 */
import { findHandler } from '../../kernel/handlers.ts';
import { type InputProblem, looksLikeOsvbenchResults, parseOsvbenchResults, stripBom } from './osvbench.ts';
import type { Task } from '../../tasks/task.ts';

/** One answer to grade. */
export interface AnswerItem {
  /** 1-based line in the file (for OSVBench files, the line of the task index). */
  readonly line: number;
  readonly task: Task;
  readonly response: string;
  /** Sample number within the task (OSVBench: position in the list; JSONL: order of appearance). */
  readonly sample: number;
  /** OSVBench files: the task index and the syscall name as given. */
  readonly index?: number;
  readonly syscall?: string;
}

export interface AnswerFile {
  readonly format: 'jsonl' | 'osvbench';
  readonly items: AnswerItem[];
  readonly problems: InputProblem[];
}

/** The stand-in task of a handler-only line: the correct implementation (with `id` when given). */
export type HandlerTask = (handler: string, id?: string) => Task;

/**
 * The hv6 name of a handler a file names: itself, or for answers written in
 * a renaming (docs/rename.md) the name renamed back.
 */
export type HandlerName = (named: string) => string;

/** Parses an answer file of either format. `tasks` in loadTasks() order. */
export function parseAnswerFile(text: string, tasks: readonly Task[], handlerTask: HandlerTask, handlerName: HandlerName = (n) => n): AnswerFile {
  if (looksLikeOsvbenchResults(text)) {
    const r = parseOsvbenchResults(text, tasks, handlerTask, handlerName);
    return { format: 'osvbench', items: r.answers.map((a) => ({ line: a.line, task: a.task, response: a.response, sample: a.sample, index: a.index, syscall: a.syscall })), problems: r.problems };
  }
  return { format: 'jsonl', ...parseJsonlAnswers(text, tasks, handlerTask, handlerName) };
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v;
}

/** The JSONL format, line by line. */
function parseJsonlAnswers(text: string, tasks: readonly Task[], handlerTask: HandlerTask, handlerName: HandlerName): { items: AnswerItem[]; problems: InputProblem[] } {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const items: AnswerItem[] = [];
  const problems: InputProblem[] = [];
  const samples = new Map<string, number>();
  stripBom(text)
    .split('\n')
    .forEach((raw, i) => {
      const line = i + 1;
      const bad = (code: string, message: string) => problems.push({ code, line, message });
      if (!raw.trim()) return;
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch (e) {
        return bad('GRADE001', `not valid JSON (${(e as Error).message})`);
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('GRADE002', `must be a JSON object, got ${describe(v)}`);
      const o = v as { task_id?: unknown; handler?: unknown; response?: unknown };
      if (typeof o.response !== 'string') return bad('GRADE003', `"response" must be a string${'response' in o ? `, got ${describe(o.response)}` : ' (it is missing)'}`);
      let task: Task | undefined;
      if (typeof o.task_id === 'string') {
        task = byId.get(o.task_id);
        if (!task) return bad('GRADE005', `unknown task_id '${o.task_id}'`);
        // Both given: they must name one handler, or which task the answer is for is a guess.
        if (o.handler !== undefined) {
          const h = typeof o.handler === 'string' ? findHandler(o.handler) : undefined;
          if (h?.name !== task.handler) {
            return bad('GRADE012', `"handler" ${JSON.stringify(o.handler)} disagrees with task_id '${o.task_id}', a task of ${task.handler}: give one of them, or make them agree`);
          }
        }
      } else if (typeof o.handler === 'string') {
        const h = findHandler(handlerName(o.handler));
        if (!h) return bad('GRADE006', `unknown handler '${o.handler}'`);
        task = byId.get(`${h.name}-v0`) ?? handlerTask(h.name);
      } else {
        return bad('GRADE004', 'needs a string "task_id" or "handler"');
      }
      const sample = samples.get(task.id) ?? 0;
      samples.set(task.id, sample + 1);
      items.push({ line, task, response: o.response, sample });
    });
  return { items, problems };
}
