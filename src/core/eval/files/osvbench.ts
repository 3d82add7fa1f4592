/**
 * OSVBench's own file formats (docs/osvbench.md):
 *
 * - its results file, one JSON object keyed by task index ("0" .. "244"),
 *   each value an object with one key, the syscall's name, holding the list
 *   of answers (samples) the model gave for that task;
 * - its benchmark file (`benchmark.json`): a list of
 *   `{syscall, declaration, description, code, bug_type, bug_num}`, where
 *   `bug_type` lists the task's bug classes in words, comma-separated, and
 *   `bug_num` is the number of injected bugs as a string; both are absent
 *   for a correct implementation (that is how upstream tells them apart).
 *
 * Task index i is OSVLab's i-th task in `loadTasks()` order, the order
 * `osvlab tasks --format osvbench` writes, so a results file made by
 * OSVBench's harness on that file maps back to our tasks one to one.
 */
import { findHandler } from '../../kernel/handlers.ts';
import type { BugClass, Task } from '../../tasks/task.ts';

/** One answer of a results file. */
export interface OsvbenchAnswer {
  /** The task index (the results file's key). */
  readonly index: number;
  /** The syscall name the file gives (it may be an hv6 alias of the handler). */
  readonly syscall: string;
  /** 0-based position in the index's list of answers. */
  readonly sample: number;
  readonly task: Task;
  readonly response: string;
  /** 1-based line of the index's key in the file. */
  readonly line: number;
}

/** A part of an input file that could not be used, with a stable code. */
export interface InputProblem {
  readonly code: string;
  /** 1-based line in the file (0 when the file as a whole is at fault). */
  readonly line: number;
  readonly message: string;
}

export interface OsvbenchResults {
  readonly answers: OsvbenchAnswer[];
  readonly problems: InputProblem[];
}

/** Strips a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Whether `text` is (meant to be) an OSVBench results file rather than JSONL:
 * one JSON object whose keys are all task indexes, or, when it does not
 * parse, a file whose first non-blank line is a lone `{` (a pretty-printed
 * object, which JSONL never is).
 */
export function looksLikeOsvbenchResults(text: string): boolean {
  const t = stripBom(text);
  try {
    const v: unknown = JSON.parse(t);
    if (!isPlainObject(v)) return false;
    const keys = Object.keys(v);
    return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
  } catch {
    const first = t.split('\n').find((l) => l.trim() !== '');
    return first !== undefined && first.trim() === '{';
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Where JSON.parse stopped, from its message ("... at position N" or "line L column C"). */
function jsonErrorLine(text: string, message: string): number {
  const lc = /line (\d+) column/.exec(message);
  if (lc) return Number(lc[1]);
  const pos = /position (\d+)/.exec(message);
  return pos ? lineAt(text, Number(pos[1])) : 0;
}

/**
 * The answers of an OSVBench results file, each mapped to OSVLab's task at
 * its index. Bad entries are reported (with their line) and skipped; the
 * good ones are kept.
 */
export function parseOsvbenchResults(text: string, tasks: readonly Task[]): OsvbenchResults {
  const t = stripBom(text);
  const problems: InputProblem[] = [];
  const answers: OsvbenchAnswer[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(t);
  } catch (e) {
    const message = (e as Error).message;
    problems.push({ code: 'GRADE001', line: jsonErrorLine(t, message), message: `the results file is not valid JSON (${message})` });
    return { answers, problems };
  }
  if (!isPlainObject(doc)) {
    problems.push({ code: 'GRADE002', line: 1, message: 'an OSVBench results file is one JSON object keyed by task index' });
    return { answers, problems };
  }
  // Key positions, for line numbers: the first `"KEY":` at the object's top level is good enough here.
  const keyLine = new Map<string, number>();
  const keyRe = /"(\d+)"\s*:/g;
  for (let m = keyRe.exec(t); m; m = keyRe.exec(t)) if (!keyLine.has(m[1])) keyLine.set(m[1], lineAt(t, m.index));

  const keys = Object.keys(doc).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  for (const key of keys) {
    const line = keyLine.get(key) ?? 0;
    const bad = (code: string, message: string) => problems.push({ code, line, message: `task index ${JSON.stringify(key)}: ${message}` });
    if (!/^\d+$/.test(key) || Number(key) >= tasks.length) {
      bad('GRADE007', `not a task index (OSVLab has tasks 0 .. ${tasks.length - 1})`);
      continue;
    }
    const index = Number(key);
    const entry = doc[key];
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) {
      bad('GRADE008', 'must be an object with exactly one key, the syscall name, holding a list of answers');
      continue;
    }
    const [syscall] = Object.keys(entry);
    const task = tasks[index];
    const h = findHandler(syscall);
    if (!h || h.name !== task.handler) {
      bad('GRADE009', `names "${syscall}", but task ${index} is ${task.id} (handler ${task.handler}) in OSVLab's order (osvlab tasks --format osvbench)`);
      continue;
    }
    const samples = entry[syscall];
    if (!Array.isArray(samples)) {
      bad('GRADE010', `the answers of "${syscall}" must be a list of strings`);
      continue;
    }
    samples.forEach((s, sample) => {
      if (typeof s !== 'string') {
        bad('GRADE010', `answer ${sample} of "${syscall}" is not a string`);
        return;
      }
      answers.push({ index, syscall, sample, task, response: s, line });
    });
  }
  return { answers, problems };
}

/** One task in OSVBench's benchmark.json shape. */
export interface OsvbenchTask {
  readonly syscall: string;
  readonly declaration: string;
  readonly description: string;
  readonly code: string;
  readonly bug_type?: string;
  readonly bug_num?: string;
}

/** OSVBench's words for our bug classes (its statistics match on these). */
const BUG_WORDS: Readonly<Record<BugClass, string>> = {
  'incorrect-pointer': 'incorrect pointer',
  'incorrect-privilege': 'incorrect privilege',
  'memory-leak': 'memory leak',
  'buffer-overflow': 'buffer overflow',
  'bounds-checking': 'bounds checking',
};

/**
 * Our tasks as OSVBench's benchmark.json, in task-index order. The
 * description and code carry the section labels upstream's prompt builder
 * expects at their start; the text after them is ours.
 */
export function toOsvbenchBenchmark(tasks: readonly Task[]): OsvbenchTask[] {
  return tasks.map((t) => ({
    syscall: t.handler,
    declaration: t.declaration,
    description: `\n[Functional Description]:\n${t.description.trim()}\n`,
    code: `[Code Implementation]:\nThe implementation of \`${t.handler}\` (it may contain bugs):\n\`\`\`c\n${t.code.trimEnd()}\n\`\`\`\n`,
    ...(t.bug_count > 0 ? { bug_type: t.bug_classes.map((c) => BUG_WORDS[c]).join(', '), bug_num: String(t.bug_count) } : {}),
  }));
}
