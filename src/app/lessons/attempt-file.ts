/**
 * A learner's attempt at a teacher exercise, as a JSON file the learner
 * downloads and the teacher imports: the exercise itself, the answer, and the
 * result the learner's browser computed (the teacher view can grade it again).
 * Imported files are untrusted and validated field by field.
 */
import { CourseFileError, LIMITS, type TeacherExercise, exerciseId, parseTeacherExercise } from './teacher-link.ts';
import { sha256Hex } from '../../core/hash.ts';

const ATTEMPT_FORMAT = 'osvlab-attempt';

export interface AttemptCheck {
  readonly label: string;
  readonly status: 'passed' | 'failed' | 'not-run';
}

export interface AttemptFile {
  readonly format: typeof ATTEMPT_FORMAT;
  readonly v: 1;
  readonly exerciseId: string;
  readonly exercise: TeacherExercise;
  /** The name the learner typed (may be empty). */
  readonly learner: string;
  readonly answer: string;
  readonly passed: boolean;
  readonly message: string;
  readonly checks: readonly AttemptCheck[];
  readonly attempts: number;
  readonly hintsOpened: number;
  /** When the attempt was graded (ms since 1970). */
  readonly gradedAt: number;
  readonly app: string;
}

/** Files larger than this are refused before parsing. */
const MAX_ATTEMPT_BYTES = 512 * 1024;

const STATUSES = new Set(['passed', 'failed', 'not-run']);

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

/** Parses and validates an attempt file's text; throws CourseFileError with a message naming the problem. */
export async function parseAttemptFile(textIn: string): Promise<AttemptFile> {
  if (textIn.length > MAX_ATTEMPT_BYTES) throw new CourseFileError('file-format', `The file is larger than ${MAX_ATTEMPT_BYTES / 1024} KB; an attempt is much smaller.`);
  let value: unknown;
  try {
    value = JSON.parse(textIn);
  } catch {
    throw new CourseFileError('file-json', 'The file is not JSON.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CourseFileError('file-format', 'The file is not an OSVLab attempt.');
  const o = value as Record<string, unknown>;
  if (o.format !== ATTEMPT_FORMAT) throw new CourseFileError('file-format', 'The file is not an OSVLab attempt (its "format" is not "osvlab-attempt").');
  if (o.v !== 1) throw new CourseFileError('file-format', `The attempt has format version ${String(o.v)}; this page reads version 1.`);
  const exercise = parseTeacherExercise(o.exercise);
  if (typeof o.answer !== 'string') throw new CourseFileError('field', 'The attempt has no answer.');
  if (o.answer.length > LIMITS.spec) throw new CourseFileError('field', `The answer is longer than ${LIMITS.spec} characters.`);
  if (typeof o.passed !== 'boolean') throw new CourseFileError('field', 'The attempt does not say whether it passed.');
  const checks = Array.isArray(o.checks)
    ? o.checks.slice(0, 20).map((c) => {
        const r = (c ?? {}) as Record<string, unknown>;
        return { label: String(r.label ?? '').slice(0, 300), status: STATUSES.has(r.status as string) ? (r.status as AttemptCheck['status']) : 'not-run' };
      })
    : [];
  return {
    format: ATTEMPT_FORMAT,
    v: 1,
    // Recomputed, so a file cannot claim another exercise's id.
    exerciseId: await exerciseId(exercise),
    exercise,
    learner: typeof o.learner === 'string' ? o.learner.slice(0, 120) : '',
    answer: o.answer,
    passed: o.passed,
    message: typeof o.message === 'string' ? o.message.slice(0, 1000) : '',
    checks,
    attempts: count(o.attempts),
    hintsOpened: count(o.hintsOpened),
    gradedAt: count(o.gradedAt),
    app: String(o.app ?? '?').slice(0, 40),
  };
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

/** The file a learner downloads after grading a teacher exercise. */
export function buildAttempt(a: {
  exercise: TeacherExercise;
  exerciseId: string;
  learner: string;
  answer: string;
  passed: boolean;
  message: string;
  checks: readonly AttemptCheck[];
  attempts: number;
  hintsOpened: number;
  app: string;
}): AttemptFile {
  return {
    format: ATTEMPT_FORMAT,
    v: 1,
    exerciseId: a.exerciseId,
    exercise: a.exercise,
    learner: a.learner.trim().slice(0, 120),
    answer: a.answer,
    passed: a.passed,
    message: a.message,
    checks: a.checks.map((c) => ({ label: c.label, status: c.status })),
    attempts: a.attempts,
    hintsOpened: a.hintsOpened,
    gradedAt: Date.now(),
    app: a.app,
  };
}
