/**
 * A learner's attempt at a teacher exercise, as a JSON file the learner
 * downloads and the teacher imports: which exercise (its id, title and
 * handler), the learner's answer and the grades the learner's browser
 * computed. Never the answer key: no solution and no hidden checks, so the
 * teacher grades it again against the exercise as they made it (kept on
 * their page, or opened from its link). Version 1 files carried the whole
 * exercise; they are still read. Imported files are untrusted and validated
 * field by field.
 */
import { CourseFileError, LIMITS, type TeacherExercise, exerciseId, parseTeacherExercise } from './teacher-link.ts';
import { sha256Hex } from '../../core/hash.ts';
import { findHandler } from '../../core/kernel/handlers.ts';

const ATTEMPT_FORMAT = 'osvlab-attempt';
/** A file of several attempts, as the teacher view exports them. */
const ATTEMPTS_FORMAT = 'osvlab-attempts';

export interface AttemptCheck {
  readonly label: string;
  readonly status: 'passed' | 'failed' | 'not-run';
}

/** What an attempt file says about its exercise: enough to show it and to find it again, nothing that answers it. */
export interface AttemptExercise {
  readonly title: string;
  readonly handler: string;
}

export interface AttemptFile {
  readonly format: typeof ATTEMPT_FORMAT;
  readonly v: 2;
  /** The exercise's content id (teacher-link.ts `exerciseId`). */
  readonly exerciseId: string;
  readonly exercise: AttemptExercise;
  /** The name the learner typed (may be empty). */
  readonly learner: string;
  readonly answer: string;
  readonly passed: boolean;
  /** The answer was the solution put in by "Put it in the editor". */
  readonly withSolution: boolean;
  readonly message: string;
  readonly checks: readonly AttemptCheck[];
  readonly attempts: number;
  readonly hintsOpened: number;
  /** When the attempt was graded (ms since 1970). */
  readonly gradedAt: number;
  readonly app: string;
}

/** An attempt read from a file; a version 1 file also brings its whole exercise. */
export interface ReadAttempt {
  readonly file: AttemptFile;
  readonly exercise?: TeacherExercise;
}

/** Files larger than this are refused before parsing. */
const MAX_ATTEMPT_BYTES = 512 * 1024;

const STATUSES = new Set(['passed', 'failed', 'not-run']);

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

/** Parses and validates a file's text: one attempt, or a teacher's export of several; throws CourseFileError naming the problem. */
export async function parseAttemptFile(textIn: string): Promise<ReadAttempt[]> {
  // Refused before parsing: nothing this page reads is larger than a teacher's export of many attempts.
  if (textIn.length > MAX_ATTEMPT_BYTES * 16) {
    throw new CourseFileError('file-format', `The file is larger than ${(MAX_ATTEMPT_BYTES * 16) / 1024} KB; split the attempts over several files.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(textIn);
  } catch {
    if (textIn.length > MAX_ATTEMPT_BYTES) throw new CourseFileError('file-format', `The file is larger than ${MAX_ATTEMPT_BYTES / 1024} KB and not JSON.`);
    throw new CourseFileError('file-json', 'The file is not JSON.');
  }
  const o = value as Record<string, unknown> | null;
  if (o && typeof o === 'object' && !Array.isArray(o) && o.format === ATTEMPTS_FORMAT) {
    if (o.v !== 1 || !Array.isArray(o.attempts)) throw new CourseFileError('file-format', 'The file of attempts has no list of attempts this page reads.');
    if (o.attempts.length > 500) throw new CourseFileError('file-format', 'The file holds more than 500 attempts.');
    return Promise.all(o.attempts.map((a) => parseAttempt(a)));
  }
  // Only a teacher's export (decided by what the file is, not by text found in it) may be larger than one attempt.
  if (textIn.length > MAX_ATTEMPT_BYTES) {
    throw new CourseFileError('file-format', `The file is larger than ${MAX_ATTEMPT_BYTES / 1024} KB; an attempt is much smaller.`);
  }
  return [await parseAttempt(value)];
}

/** One attempt, version 1 or 2. */
async function parseAttempt(value: unknown): Promise<ReadAttempt> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CourseFileError('file-format', 'The file is not an OSVLab attempt.');
  const o = value as Record<string, unknown>;
  if (o.format !== ATTEMPT_FORMAT) throw new CourseFileError('file-format', 'The file is not an OSVLab attempt (its "format" is not "osvlab-attempt").');
  if (o.v !== 1 && o.v !== 2) throw new CourseFileError('file-format', `The attempt has format version ${String(o.v)}; this page reads versions 1 and 2.`);
  let exercise: TeacherExercise | undefined;
  let id: string;
  let about: AttemptExercise;
  if (o.v === 1) {
    // Version 1 carried the exercise: its id is recomputed, so a file cannot claim another exercise's.
    exercise = parseTeacherExercise(o.exercise);
    id = await exerciseId(exercise);
    about = { title: exercise.title, handler: exercise.handler };
  } else {
    if (typeof o.exerciseId !== 'string' || !/^[0-9a-f]{24}$/.test(o.exerciseId)) throw new CourseFileError('field', 'The attempt does not name its exercise.');
    const e = (o.exercise ?? {}) as Record<string, unknown>;
    const handler = typeof e.handler === 'string' ? findHandler(e.handler)?.name : undefined;
    if (!handler) throw new CourseFileError('field', 'The attempt names no known handler.');
    id = o.exerciseId;
    about = { title: typeof e.title === 'string' ? e.title.slice(0, LIMITS.title) : `Exercise on ${handler}`, handler };
  }
  if (typeof o.answer !== 'string') throw new CourseFileError('field', 'The attempt has no answer.');
  if (o.answer.length > LIMITS.spec) throw new CourseFileError('field', `The answer is longer than ${LIMITS.spec} characters.`);
  if (typeof o.passed !== 'boolean') throw new CourseFileError('field', 'The attempt does not say whether it passed.');
  const checks = Array.isArray(o.checks)
    ? o.checks.slice(0, 20).map((c) => {
        const r = (c ?? {}) as Record<string, unknown>;
        return { label: String(r.label ?? '').slice(0, 300), status: STATUSES.has(r.status as string) ? (r.status as AttemptCheck['status']) : 'not-run' };
      })
    : [];
  const file: AttemptFile = {
    format: ATTEMPT_FORMAT,
    v: 2,
    exerciseId: id,
    exercise: about,
    learner: typeof o.learner === 'string' ? o.learner.slice(0, 120) : '',
    answer: o.answer,
    passed: o.passed,
    withSolution: o.withSolution === true,
    message: typeof o.message === 'string' ? o.message.slice(0, 1000) : '',
    checks,
    attempts: count(o.attempts),
    hintsOpened: count(o.hintsOpened),
    gradedAt: count(o.gradedAt),
    app: String(o.app ?? '?').slice(0, 40),
  };
  return exercise ? { file, exercise } : { file };
}

/** A stable id for an imported file's content (the same file imported twice is one row). */
export async function attemptId(a: AttemptFile): Promise<string> {
  return (await sha256Hex(JSON.stringify([a.exerciseId, a.learner, a.answer, a.gradedAt]))).slice(0, 24);
}

/** A file name for the download: `attempt-<exercise>-<learner>.json`. */
export function attemptFileName(a: AttemptFile): string {
  const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `attempt-${slug(a.exercise.title) || a.exerciseId}${a.learner ? '-' + slug(a.learner) : ''}.json`;
}

/** The file a learner downloads after grading a teacher exercise: the work and the grades, not the answer key. */
export function buildAttempt(a: {
  exercise: TeacherExercise;
  exerciseId: string;
  learner: string;
  answer: string;
  passed: boolean;
  withSolution: boolean;
  message: string;
  checks: readonly AttemptCheck[];
  attempts: number;
  hintsOpened: number;
  app: string;
}): AttemptFile {
  return {
    format: ATTEMPT_FORMAT,
    v: 2,
    exerciseId: a.exerciseId,
    exercise: { title: a.exercise.title, handler: a.exercise.handler },
    learner: a.learner.trim().slice(0, 120),
    answer: a.answer,
    passed: a.passed,
    withSolution: a.withSolution,
    message: a.message,
    checks: a.checks.map((c) => ({ label: c.label, status: c.status })),
    attempts: a.attempts,
    hintsOpened: a.hintsOpened,
    gradedAt: Date.now(),
    app: a.app,
  };
}

/** The teacher view's export: every imported attempt in one file, which imports again. */
export function attemptsExport(files: readonly AttemptFile[]): { format: typeof ATTEMPTS_FORMAT; v: 1; attempts: readonly AttemptFile[] } {
  return { format: ATTEMPTS_FORMAT, v: 1, attempts: files };
}
