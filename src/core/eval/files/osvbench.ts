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
 * An entry names its syscall, and a grade depends only on the handler and
 * the answer (it is graded against the correct implementation), so every
 * entry is graded against the handler it names, whatever its index. When
 * index i names the handler of OSVLab's i-th task (in `loadTasks()` order,
 * which `osvlab tasks --format osvbench` writes), the entry is that task's;
 * otherwise, and for every entry of a file in upstream's order (task i is
 * handler i mod 49 of UPSTREAM_HANDLERS), it is a stand-in task
 * `HANDLER@osvbench-I` of the correct implementation (no bug-following: the
 * code the model saw is not ours).
 */
import { findHandler } from '../../kernel/handlers.ts';
import type { BugClass, Task } from '../../tasks/task.ts';

/** The handler order of upstream's benchmark.json: its task i is handler i mod 49 (tasks 0-48 are the correct implementations). */
export const UPSTREAM_HANDLERS: readonly string[] = [
  'sys_map_page_desc', 'sys_map_proc', 'sys_map_dev', 'sys_map_file', 'sys_alloc_pd', 'sys_alloc_pt', 'sys_alloc_frame',
  'sys_copy_frame', 'sys_protect_frame', 'sys_free_pd', 'sys_free_pt', 'sys_free_frame', 'sys_reclaim_page', 'sys_set_runnable',
  'switch_proc', 'sys_kill', 'sys_reap', 'sys_reparent', 'recv_proc', 'call_proc', 'sys_create', 'sys_close', 'sys_dup',
  'sys_lseek', 'sys_map_pcipage', 'sys_alloc_iommu_root', 'sys_alloc_iommu_pdpt', 'sys_alloc_iommu_pd', 'sys_alloc_iommu_pt',
  'sys_alloc_iommu_frame', 'sys_map_iommu_frame', 'sys_reclaim_iommu_frame', 'sys_reclaim_iommu_root', 'sys_alloc_vector',
  'sys_reclaim_vector', 'sys_alloc_intremap', 'sys_reclaim_intremap', 'sys_ack_intr', 'sys_alloc_port', 'sys_reclaim_port',
  'sys_alloc_pdpt', 'sys_free_pdpt', 'clone_proc', 'send_proc', 'reply_wait_proc', 'sys_dup2', 'sys_alloc_io_bitmap', 'extintr',
  'sys_map_pml4',
];

/** The id of the stand-in task of index `index` naming `handler`. */
function standInId(handler: string, index: number): string {
  return `${handler}@osvbench-${index}`;
}

/** Stand-in tasks (the correct implementation of a handler), given an id. */
export type StandIn = (handler: string, id: string) => Task;

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
    // One stray key ("meta", "-1") is a bad entry of a results file, not a sign of JSONL.
    return Object.keys(v).some((k) => /^\d+$/.test(k));
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

/**
 * The keys of the top-level object of `text` (valid JSON), in order, with
 * their lines: one pass that skips strings and nested values. JSON.parse
 * keeps only the last of a key given twice; this sees each.
 */
function topLevelKeys(text: string): { key: string; line: number }[] {
  const keys: { key: string; line: number }[] = [];
  let depth = 0;
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      expectKey = depth === 1 && c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) expectKey = depth === 1;
    else if (c === 0x22) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      if (expectKey) {
        keys.push({ key: JSON.parse(text.slice(start, i + 1)) as string, line });
        expectKey = false;
      }
    }
  }
  return keys;
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
export function parseOsvbenchResults(text: string, tasks: readonly Task[], standIn: StandIn, handlerName: (named: string) => string = (n) => n): OsvbenchResults {
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
  // The line of each top-level key, where the value JSON.parse kept (the last) is; a key given twice is reported.
  const keyLine = new Map<string, number>();
  const seen = new Map<string, number[]>();
  for (const k of topLevelKeys(t)) seen.set(k.key, [...(seen.get(k.key) ?? []), k.line]);
  for (const [key, lines] of seen) {
    keyLine.set(key, lines[lines.length - 1]);
    for (const line of lines.slice(0, -1)) {
      problems.push({ code: 'GRADE013', line, message: `task index ${JSON.stringify(key)} is given again at line ${lines[lines.length - 1]}: as upstream's JSON reader does, the last one is graded and this one is not` });
    }
  }

  const keys = Object.keys(doc).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  const entries: { key: string; line: number; index: number; syscall: string; handler: string; samples: unknown }[] = [];
  for (const key of keys) {
    const line = keyLine.get(key) ?? 0;
    const bad = (code: string, message: string) => problems.push({ code, line, message: `task index ${JSON.stringify(key)}: ${message}` });
    if (!/^\d+$/.test(key) || !Number.isSafeInteger(Number(key))) {
      bad('GRADE007', 'not a task index (a whole number: 0, 1, ...)');
      continue;
    }
    const entry = (doc as Record<string, unknown>)[key];
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) {
      bad('GRADE008', 'must be an object with exactly one key, the syscall name, holding a list of answers');
      continue;
    }
    const [syscall] = Object.keys(entry);
    const h = findHandler(handlerName(syscall));
    if (!h) {
      bad('GRADE011', `names "${syscall}", which is not a handler OSVLab knows (osvlab tasks lists them)`);
      continue;
    }
    entries.push({ key, line, index: Number(key), syscall, handler: h.name, samples: entry[syscall] });
  }
  // Upstream's order when every entry fits it: then no entry is one of our tasks.
  const upstream = entries.length > 0 && entries.every((e) => UPSTREAM_HANDLERS[e.index % UPSTREAM_HANDLERS.length] === e.handler);
  for (const e of entries) {
    const ours = !upstream && e.index < tasks.length && tasks[e.index].handler === e.handler ? tasks[e.index] : undefined;
    const task = ours ?? standIn(e.handler, standInId(e.handler, e.index));
    if (!Array.isArray(e.samples)) {
      problems.push({ code: 'GRADE010', line: e.line, message: `task index ${JSON.stringify(e.key)}: the answers of "${e.syscall}" must be a list of strings` });
      continue;
    }
    e.samples.forEach((s, sample) => {
      if (typeof s !== 'string') {
        problems.push({ code: 'GRADE010', line: e.line, message: `task index ${JSON.stringify(e.key)}: answer ${sample} of "${e.syscall}" is not a string` });
        return;
      }
      answers.push({ index: e.index, syscall: e.syscall, sample, task, response: s, line: e.line });
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
