/**
 * A lesson of the course, read from its Markdown file under course/
 * (docs/course.md, "Lesson files"): a front matter with the lesson's id,
 * title and summary and the metadata of its exercises, the lesson's prose,
 * then one `# Exercise <id>` section per exercise with its prompt, its spec
 * texts as fenced code and its hints. `parseLesson` reads and validates a
 * file; anything malformed is a LessonFileError that names the file, the
 * line and the column.
 */
import type { Diagnostic } from '../../core/diagnostic.ts';
import { findHandler } from '../../core/kernel/handlers.ts';
import type { Span } from '../../core/span.ts';
import type { Exercise, FieldExercise, SpecExercise } from './exercise.ts';
import { oracle, spec } from './spec-text.ts';

/** What the lesson list shows of a lesson: its front matter, without reading the rest. */
export interface LessonHead {
  readonly id: string;
  readonly title: string;
  /** One line for the lesson list. */
  readonly summary: string;
  /** The exercise ids, in order. */
  readonly exercises: readonly string[];
}

export interface Lesson extends Omit<LessonHead, 'exercises'> {
  /** The prose, Markdown (lib/markdown.ts renders it). */
  readonly body: string;
  readonly exercises: readonly Exercise[];
}

/** A lesson file of the course: its head, read at once, and the whole lesson, read on first use. */
export interface CourseLesson {
  readonly file: string;
  readonly head: LessonHead;
  /** Reads the whole file (once); throws LessonFileError. */
  lesson(): Lesson;
}

/** The problems a lesson file can have, each with a stable code. */
export const LESSON_CODES = {
  /** No front matter, or one that does not end. */
  frontMatter: 'LESSON001',
  /** A front matter line that is not `key: value` at a known place. */
  syntax: 'LESSON002',
  /** A key the lesson or an exercise does not have. */
  unknownKey: 'LESSON003',
  /** A required key or part is missing. */
  missing: 'LESSON004',
  /** A value that is not allowed (kind, handler, variant, choice, ...). */
  value: 'LESSON005',
  /** The same key, exercise, section or code block twice. */
  duplicate: 'LESSON006',
  /** The exercise sections do not match the front matter's exercises. */
  sections: 'LESSON007',
  /** Something in an exercise section that is not prompt, code or hints. */
  content: 'LESSON008',
} as const;

export type LessonCode = (typeof LESSON_CODES)[keyof typeof LESSON_CODES];

/** A malformed lesson file: where, and what is wrong. */
export class LessonFileError extends Error {
  override name = 'LessonFileError';
  constructor(
    readonly code: LessonCode,
    readonly file: string,
    readonly span: Span,
    readonly reason: string,
  ) {
    super(`${file}:${span.line}:${span.column}: ${code} ${reason}`);
  }

  toDiagnostic(): Diagnostic {
    return { code: this.code, severity: 'error', message: this.reason, span: this.span, file: this.file };
  }
}

const LESSON_KEYS = ['id', 'title', 'summary', 'exercises'] as const;
const SPEC_KEYS = ['id', 'kind', 'title', 'handler', 'verify-on', 'refute-on', 'strict', 'starter', 'solution'] as const;
const FIELD_KEYS = ['id', 'kind', 'title', 'handler', 'impl', 'strict', 'spec', 'choices', 'solution'] as const;
/** In `refute-on`: the correct kernel rather than a variant. */
const KERNEL = 'kernel';
/** As a spec exercise's `starter` or `solution`, or a field exercise's `spec`: the handler's reference spec (tasks/hv6/specs). */
const ORACLE = 'oracle';
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EXERCISE_HEADING = /^# Exercise (.*)$/;
const HINTS_HEADING = /^## Hints\s*$/;
const FENCE_OPEN = /^```(\S*)(?:\s+(\S+))?\s*$/;
const HINT_ITEM = /^(\d+)\.\s+(.*)$/;

interface Line {
  readonly text: string;
  /** 1-based. */
  readonly n: number;
  readonly offset: number;
}

interface Field {
  readonly value: string;
  readonly line: Line;
}

/** An exercise's front matter entry: its keys, in the order written. */
type Entry = Map<string, Field>;

/** The front matter of a lesson file, checked, and where it ends. */
interface Head {
  readonly head: LessonHead;
  readonly entries: readonly Entry[];
  readonly lines: readonly Line[];
  /** Index of the closing "---". */
  readonly close: number;
  readonly fail: Fail;
}

function readHead(file: string, text: string): Head {
  const lines = splitLines(text);
  const fail = (code: LessonCode, line: Line, reason: string, column = 1): never => {
    throw new LessonFileError(code, file, spanOf(line, column), reason);
  };
  if (lines[0]?.text !== '---') fail(LESSON_CODES.frontMatter, lines[0], 'a lesson file starts with a front matter: a line "---", `key: value` lines, and "---"');
  const close = lines.findIndex((l, i) => i > 0 && l.text === '---');
  if (close < 0) fail(LESSON_CODES.frontMatter, lines[0], 'the front matter has no closing "---" line');
  const { lesson, exercises: entries } = readFrontMatter(lines.slice(1, close), fail);
  const required = (key: string): Field => lesson.get(key) ?? fail(LESSON_CODES.missing, lines[0], `the lesson has no "${key}"`);
  const id = required('id');
  if (!ID.test(id.value)) fail(LESSON_CODES.value, id.line, `the lesson id "${id.value}" is not lower-case words joined by "-"`);
  if (!entries.length) fail(LESSON_CODES.missing, lines[0], 'the lesson has no exercises (an "exercises:" list in the front matter)');
  const head = { id: id.value, title: required('title').value, summary: required('summary').value, exercises: entries.map((e) => e.get('id')!.value) };
  return { head, entries, lines, close, fail };
}

/** Reads one lesson file; `file` names it in errors. Throws LessonFileError. */
export function parseLesson(file: string, text: string): Lesson {
  const { head, entries, lines, close, fail } = readHead(file, text);
  // The prose, then one section per exercise, in the front matter's order.
  const rest = lines.slice(close + 1);
  const starts = rest.flatMap((l, i) => (EXERCISE_HEADING.test(l.text) ? [i] : []));
  const body = trimBlank(rest.slice(0, starts[0] ?? rest.length).map((l) => l.text)).join('\n');
  if (!body) fail(LESSON_CODES.missing, lines[close], 'the lesson has no prose after the front matter');
  const exercises = entries.map((entry, k) => {
    const eid = entry.get('id')!;
    const at = starts[k];
    if (at === undefined) fail(LESSON_CODES.sections, eid.line, `exercise "${eid.value}" has no "# Exercise ${eid.value}" section`);
    const heading = rest[at];
    const named = EXERCISE_HEADING.exec(heading.text)![1].trim();
    if (named !== eid.value) {
      fail(LESSON_CODES.sections, heading, `this section is "${named}", but exercise ${k + 1} of the front matter is "${eid.value}" (sections follow the front matter's order)`, 12);
    }
    const section = readSection(rest.slice(at + 1, starts[k + 1] ?? rest.length), heading, fail);
    return exerciseOf(entry, section, heading, fail);
  });
  if (starts.length > entries.length) {
    const extra = rest[starts[entries.length]];
    fail(LESSON_CODES.sections, extra, `the section "${EXERCISE_HEADING.exec(extra.text)![1].trim()}" has no exercise in the front matter`);
  }
  return { id: head.id, title: head.title, summary: head.summary, body, exercises };
}

/**
 * The course from its lesson files (path → text), in the order of their
 * names: every front matter is read and checked now (lesson ids must be
 * unique), each whole file when its lesson is first asked for. Throws
 * LessonFileError.
 */
export function readCourse(files: Readonly<Record<string, string>>): CourseLesson[] {
  const seen = new Map<string, string>();
  return Object.keys(files)
    .sort()
    .map((file) => {
      const { head, lines } = readHead(file, files[file]);
      const other = seen.get(head.id);
      if (other !== undefined) {
        const line = lines.find((l) => l.text.startsWith('id:'))!;
        throw new LessonFileError(LESSON_CODES.duplicate, file, spanOf(line, 5), `the lesson id "${head.id}" is also the id of ${other}`);
      }
      seen.set(head.id, file);
      let read: Lesson | undefined;
      return { file, head, lesson: () => (read ??= parseLesson(file, files[file])) };
    });
}

type Fail = (code: LessonCode, line: Line, reason: string, column?: number) => never;

/** The front matter: the lesson's keys and the `exercises:` list of entries. */
function readFrontMatter(lines: readonly Line[], fail: Fail): { lesson: Map<string, Field>; exercises: Entry[] } {
  const lesson = new Map<string, Field>();
  const exercises: Entry[] = [];
  let inList = false;
  for (const line of lines) {
    if (line.text.trim() === '' || line.text.trimStart().startsWith('#')) continue;
    const item = /^ {2}- (.*)$/.exec(line.text);
    const nested = /^ {4}(\S.*)$/.exec(line.text);
    if (!line.text.startsWith(' ')) {
      const [key, value] = keyValue(line, line.text, 1, fail);
      if (!(LESSON_KEYS as readonly string[]).includes(key)) fail(LESSON_CODES.unknownKey, line, `the lesson has no key "${key}" (it has ${LESSON_KEYS.join(', ')})`);
      if (lesson.has(key)) fail(LESSON_CODES.duplicate, line, `"${key}" is given twice`);
      if (key === 'exercises') {
        if (value !== '') fail(LESSON_CODES.syntax, line, '"exercises:" is followed by its list on the next lines ("  - id: ..."), not by a value');
        inList = true;
      } else {
        if (value === '') fail(LESSON_CODES.value, line, `"${key}" is empty`);
        inList = false;
      }
      lesson.set(key, { value, line });
    } else if (inList && item) {
      const entry: Entry = new Map();
      exercises.push(entry);
      setEntry(entry, line, item[1], 5, fail);
    } else if (inList && nested && exercises.length) {
      setEntry(exercises[exercises.length - 1], line, nested[1], 5, fail);
    } else {
      fail(LESSON_CODES.syntax, line, inList ? 'an exercise starts with "  - id: ..." and its other keys are indented by four spaces' : 'an indented line outside the "exercises:" list');
    }
  }
  for (const entry of exercises) {
    const first = entry.values().next().value!;
    if (!entry.has('id')) fail(LESSON_CODES.missing, first.line, 'this exercise has no "id"');
  }
  const seen = new Set<string>();
  for (const entry of exercises) {
    const id = entry.get('id')!;
    if (seen.has(id.value)) fail(LESSON_CODES.duplicate, id.line, `two exercises have the id "${id.value}"`);
    seen.add(id.value);
  }
  return { lesson, exercises };
}

function setEntry(entry: Entry, line: Line, text: string, column: number, fail: Fail): void {
  const [key, value] = keyValue(line, text, column, fail);
  if (entry.has(key)) fail(LESSON_CODES.duplicate, line, `"${key}" is given twice for this exercise`, column);
  entry.set(key, { value, line });
}

function keyValue(line: Line, text: string, column: number, fail: Fail): [string, string] {
  const m = /^([a-z][a-z-]*):(?:\s+(.*))?$/.exec(text);
  if (!m) fail(LESSON_CODES.syntax, line, 'expected `key: value`', column);
  return [m![1], (m![2] ?? '').trim()];
}

/** What an exercise section holds. */
interface Section {
  readonly prompt: string;
  /** Fenced code by its role (`starter`, `solution`, `spec`). */
  readonly code: ReadonlyMap<string, { readonly text: string; readonly line: Line }>;
  readonly hints: readonly string[];
}

const CODE_ROLES = ['starter', 'solution', 'spec'] as const;

/** An exercise section: prompt (Markdown), then fenced code blocks (```python starter), then `## Hints` and a numbered list. */
function readSection(lines: readonly Line[], heading: Line, fail: Fail): Section {
  const prompt: string[] = [];
  const code = new Map<string, { text: string; line: Line }>();
  const hints: string[] = [];
  let i = 0;
  let inHints = false;
  while (i < lines.length) {
    const line = lines[i];
    const fence = FENCE_OPEN.exec(line.text);
    if (line.text.startsWith('```')) {
      if (inHints) fail(LESSON_CODES.content, line, 'code after "## Hints": the hints come last');
      const role = fence?.[2];
      if (!fence || fence[1] !== 'python' || !role || !(CODE_ROLES as readonly string[]).includes(role)) {
        fail(LESSON_CODES.content, line, `a code block of an exercise is \`\`\`python followed by its role (${CODE_ROLES.join(', ')})`);
      }
      if (code.has(role!)) fail(LESSON_CODES.duplicate, line, `a second "${role}" code block`);
      const end = lines.findIndex((l, k) => k > i && l.text === '```');
      if (end < 0) fail(LESSON_CODES.content, line, 'this code block has no closing ``` line');
      code.set(role!, { text: lines.slice(i + 1, end).map((l) => l.text).join('\n'), line });
      i = end + 1;
      continue;
    }
    if (HINTS_HEADING.test(line.text)) {
      if (inHints) fail(LESSON_CODES.duplicate, line, 'a second "## Hints"');
      inHints = true;
      i++;
      continue;
    }
    if (inHints) {
      const item = HINT_ITEM.exec(line.text);
      if (item) hints.push(item[2].trim());
      else if (/^\s+\S/.test(line.text) && hints.length) hints[hints.length - 1] += ' ' + line.text.trim();
      else if (line.text.trim() !== '') fail(LESSON_CODES.content, line, 'under "## Hints", each hint is a numbered item ("1. ...")');
    } else {
      if (code.size && line.text.trim() !== '') fail(LESSON_CODES.content, line, 'prompt text after a code block: the prompt comes first');
      if (/^#/.test(line.text)) fail(LESSON_CODES.content, line, 'an exercise section has no headings but "## Hints"');
      prompt.push(line.text);
    }
    i++;
  }
  const text = trimBlank(prompt).join('\n');
  if (!text) fail(LESSON_CODES.missing, heading, 'this exercise has no prompt (what to do, after its heading)');
  if (!hints.length) fail(LESSON_CODES.missing, heading, 'this exercise has no hints ("## Hints" and a numbered list)');
  return { prompt: text, code, hints };
}

/** The exercise an entry and its section describe, checked. */
function exerciseOf(entry: Entry, section: Section, heading: Line, fail: Fail): Exercise {
  const id = entry.get('id')!;
  const get = (key: string) => entry.get(key);
  const need = (key: string): Field => get(key) ?? fail(LESSON_CODES.missing, id.line, `exercise "${id.value}" has no "${key}"`);
  const kind = need('kind');
  if (kind.value !== 'spec' && kind.value !== 'field') fail(LESSON_CODES.value, kind.line, `"kind" is spec or field, not "${kind.value}"`);
  const keys: readonly string[] = kind.value === 'spec' ? SPEC_KEYS : FIELD_KEYS;
  for (const [key, f] of entry) {
    if (!keys.includes(key)) fail(LESSON_CODES.unknownKey, f.line, `a ${kind.value} exercise has no key "${key}" (it has ${keys.join(', ')})`);
  }
  const handler = need('handler');
  if (!findHandler(handler.value)) fail(LESSON_CODES.value, handler.line, `there is no handler "${handler.value}"`);
  /** A task id of one of the handler's variants (tasks/README.md). */
  const variant = (f: Field, v: string): string => {
    if (!new RegExp(`^${handler.value}-v[0-4]$`).test(v)) fail(LESSON_CODES.value, f.line, `"${v}" is not a variant of ${handler.value} (${handler.value}-v0 to -v4)`);
    return v;
  };
  const list = (f: Field) => f.value.split(',').map((s) => s.trim());
  const strictField = get('strict');
  if (strictField && strictField.value !== 'true' && strictField.value !== 'false') fail(LESSON_CODES.value, strictField.line, '"strict" is true or false');
  const strict = strictField?.value === 'true' ? { strict: true } : {};
  const code = (role: string) => section.code.get(role);
  /** The spec text of `role`: its code block, or the reference spec where the front matter says `<role>: oracle`. */
  const specText = (role: string): string | undefined => {
    const named = get(role);
    const block = code(role);
    if (!named) return block && spec(block.text);
    if (named.value !== ORACLE) fail(LESSON_CODES.value, named.line, `"${role}" is "${ORACLE}" (the handler's reference spec); write any other ${role} as a "${role}" code block`);
    if (block) fail(LESSON_CODES.duplicate, block.line, `a "${role}" code block and "${role}: ${ORACLE}": choose one`);
    try {
      return oracle(handler.value);
    } catch {
      return fail(LESSON_CODES.value, named.line, `${handler.value} has no reference spec to be the ${role}`);
    }
  };
  const base = { id: id.value, title: need('title').value, handler: handler.value, prompt: section.prompt, hints: section.hints };

  if (kind.value === 'spec') {
    for (const role of ['spec']) if (code(role)) fail(LESSON_CODES.content, code(role)!.line, `a spec exercise has no "${role}" code block (it has starter and solution)`);
    const starter = specText('starter') ?? fail(LESSON_CODES.missing, heading, `exercise "${id.value}" has no "starter" code block`);
    const solution = specText('solution');
    const verifyOn = get('verify-on');
    const refuteOn = get('refute-on');
    const ex: SpecExercise = {
      kind: 'spec',
      ...base,
      starter,
      ...(solution !== undefined ? { solution } : {}),
      ...(verifyOn ? { verifyOn: variant(verifyOn, verifyOn.value) } : {}),
      ...(refuteOn ? { refuteOn: list(refuteOn).map((v) => (v === KERNEL ? '' : variant(refuteOn, v))) } : {}),
      ...strict,
    };
    return ex;
  }
  for (const role of ['starter', 'solution']) if (code(role)) fail(LESSON_CODES.content, code(role)!.line, `a field exercise has no "${role}" code block (it has spec)`);
  const run = specText('spec') ?? fail(LESSON_CODES.missing, heading, `exercise "${id.value}" has no "spec" code block or "spec: oracle" (the spec that is run)`);
  const choices = list(need('choices'));
  const solution = need('solution');
  if (!choices.includes(solution.value)) fail(LESSON_CODES.value, solution.line, `the solution "${solution.value}" is not one of the choices (${choices.join(', ')})`);
  const impl = get('impl');
  const ex: FieldExercise = {
    kind: 'field',
    ...base,
    spec: run,
    ...(impl ? { impl: variant(impl, impl.value) } : {}),
    ...strict,
    choices,
    solution: solution.value,
  };
  return ex;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let offset = 0;
  text.split('\n').forEach((raw, i) => {
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    out.push({ text: t, n: i + 1, offset });
    offset += raw.length + 1;
  });
  return out;
}

function spanOf(line: Line | undefined, column: number): Span {
  const l = line ?? { text: '', n: 1, offset: 0 };
  const c = Math.min(column, l.text.length + 1);
  return { line: l.n, column: c, endLine: l.n, endColumn: l.text.length + 1, offset: l.offset + c - 1, endOffset: l.offset + l.text.length };
}

/** Drops blank lines at both ends. */
function trimBlank(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
  return lines.slice(a, b);
}
