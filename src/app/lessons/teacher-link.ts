/**
 * Teacher links: an exercise a teacher writes (handler, implementation,
 * starter spec, checks, hints, optional solution) carried whole in the URL
 * fragment, `#/learn/x/<payload>`, compressed like share links
 * (lib/share.ts). No server sees it. Anything read from a link is validated
 * field by field; a bad link is a CourseFileError, never a crash.
 */
import { findHandler } from '../../core/kernel/handlers.ts';
import { sha256Hex } from '../../core/hash.ts';
import { ShareLinkError, decodeJson, encodeJson } from '../lib/share.ts';
import type { SpecExercise } from './exercise.ts';

/** The route prefix of a teacher link (after `#/`). */
export const TEACHER_LINK_ROUTE = 'learn/x/';

export const LIMITS = { title: 200, prompt: 8000, spec: 64_000, hints: 10, hint: 2000, variants: 8 } as const;

/** What a teacher link carries. Plain text everywhere (never HTML). */
export interface TeacherExercise {
  readonly v: 1;
  readonly kind: 'osvlab-exercise';
  readonly title: string;
  readonly prompt: string;
  readonly handler: string;
  /** Task id of the implementation the answer must verify against; absent: the correct kernel. */
  readonly variant?: string;
  readonly starter: string;
  /** Task ids the answer must be refuted against. */
  readonly refuteOn: readonly string[];
  readonly strict: boolean;
  /** Do not name refuteOn/strict to the learner. */
  readonly hideChecks: boolean;
  /**
   * Show the learner what the buggy implementations change (their C), even
   * with hidden checks. Absent in older links: shown unless the checks are hidden.
   */
  readonly showBugs?: boolean;
  readonly hints: readonly string[];
  readonly solution?: string;
  /** App version and kernel fingerprint the link was made with. */
  readonly app: string;
  readonly kernel: string;
}

export type CourseErrorCode = 'link-damaged' | 'link-format' | 'file-json' | 'file-format' | 'field';

/** A link or file that cannot be used: a stable code and a message for people. */
export class CourseFileError extends Error {
  override name = 'CourseFileError';
  constructor(
    readonly code: CourseErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function text(o: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new CourseFileError('field', `The exercise has no ${key}.`);
    return undefined;
  }
  if (typeof v !== 'string') throw new CourseFileError('field', `The exercise's ${key} is not text.`);
  if (v.length > max) throw new CourseFileError('field', `The exercise's ${key} is longer than ${max} characters.`);
  return v;
}

/** A task id of `handler`'s variants: `<handler>-v0` .. `-v4` (tasks/README.md). */
function variantId(handler: string, v: unknown, what: string): string {
  if (typeof v !== 'string' || !new RegExp(`^${handler}-v[0-4]$`).test(v)) {
    throw new CourseFileError('field', `${what} must be a variant of ${handler} (${handler}-v0 to ${handler}-v4), not ${JSON.stringify(v)}.`);
  }
  return v;
}

/** Checks an untrusted value field by field and returns a clean TeacherExercise. */
export function parseTeacherExercise(value: unknown): TeacherExercise {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CourseFileError('link-format', 'This is not an OSVLab exercise.');
  const o = value as Record<string, unknown>;
  if (o.kind !== 'osvlab-exercise') throw new CourseFileError('link-format', 'This is not an OSVLab exercise.');
  if (o.v !== 1) throw new CourseFileError('link-format', `This exercise was made by a newer OSVLab (format ${String(o.v)}); this page reads format 1.`);
  const handler = text(o, 'handler', 64, true)!;
  const h = findHandler(handler);
  if (!h) throw new CourseFileError('field', `The exercise names an unknown handler, ${JSON.stringify(handler)}.`);
  const variant = o.variant === undefined || o.variant === '' ? undefined : variantId(h.name, o.variant, 'The implementation');
  if (o.refuteOn !== undefined && !Array.isArray(o.refuteOn)) throw new CourseFileError('field', 'The exercise\u2019s refuteOn is not a list.');
  const refuteOn = ((o.refuteOn as unknown[] | undefined) ?? []).map((v) => variantId(h.name, v, 'Each "must be refuted on" entry'));
  if (refuteOn.length > LIMITS.variants) throw new CourseFileError('field', `At most ${LIMITS.variants} "must be refuted on" checks.`);
  if (o.hints !== undefined && !Array.isArray(o.hints)) throw new CourseFileError('field', 'The exercise\u2019s hints are not a list.');
  const hints = ((o.hints as unknown[] | undefined) ?? []).map((x, i) => {
    if (typeof x !== 'string') throw new CourseFileError('field', `Hint ${i + 1} is not text.`);
    if (x.length > LIMITS.hint) throw new CourseFileError('field', `Hint ${i + 1} is longer than ${LIMITS.hint} characters.`);
    return x;
  });
  if (hints.length > LIMITS.hints) throw new CourseFileError('field', `At most ${LIMITS.hints} hints.`);
  return {
    v: 1,
    kind: 'osvlab-exercise',
    title: text(o, 'title', LIMITS.title, false) ?? `Exercise on ${h.name}`,
    prompt: text(o, 'prompt', LIMITS.prompt, false) ?? '',
    handler: h.name,
    variant,
    starter: text(o, 'starter', LIMITS.spec, true)!,
    refuteOn,
    strict: o.strict === true,
    hideChecks: o.hideChecks === true,
    ...(typeof o.showBugs === 'boolean' ? { showBugs: o.showBugs } : {}),
    hints: hints.filter((x) => x.trim() !== ''),
    solution: text(o, 'solution', LIMITS.spec, false),
    app: String(o.app ?? '?').slice(0, 40),
    kernel: String(o.kernel ?? '?').slice(0, 80),
  };
}

/** The grading view of a teacher exercise. */
export function asExercise(t: TeacherExercise): SpecExercise {
  return {
    kind: 'spec',
    id: 'teacher',
    title: t.title,
    handler: t.handler,
    prompt: t.prompt,
    hints: t.hints,
    starter: t.starter,
    solution: t.solution,
    verifyOn: t.variant,
    refuteOn: t.refuteOn,
    strict: t.strict,
    hideChecks: t.hideChecks,
    showBugs: t.showBugs ?? !t.hideChecks,
  };
}

/** A stable id for a teacher exercise (its content, not where it was opened), for progress and attempts. */
export async function exerciseId(t: TeacherExercise): Promise<string> {
  const { app: _a, kernel: _k, ...content } = t;
  return (await sha256Hex(JSON.stringify(content))).slice(0, 24);
}

/** The fragment route (without `#/`) of a teacher link. */
export async function teacherRoute(t: TeacherExercise): Promise<string> {
  return TEACHER_LINK_ROUTE + (await encodeJson(t));
}

/** Reads a teacher link's payload; throws CourseFileError. */
export async function readTeacherLink(payload: string): Promise<TeacherExercise> {
  if (!payload || payload.length > 200_000) throw new CourseFileError('link-damaged', 'This exercise link is empty or far too long.');
  let value: unknown;
  try {
    // An exercise (its texts within LIMITS) is well under 1 MiB inflated; a link that is more is refused as it inflates.
    value = await decodeJson(payload, 1024 * 1024);
  } catch (e) {
    if (e instanceof ShareLinkError && e.code === 'LINK001') throw new CourseFileError('link-damaged', `${e.message} Ask for the link again.`);
    throw new CourseFileError('link-damaged', e instanceof ShareLinkError ? 'This exercise link is damaged: it could not be decompressed. Ask for the link again.' : String(e));
  }
  return parseTeacherExercise(value);
}
