/**
 * A published site's manifest (docs/publish.md): the SHA-256 of every file
 * under `published/` but itself (the index and each run file), and of every
 * stored answer (an attempt's response text, as UTF-8) by run and attempt.
 * The hashes are what the publisher claims; a reader's page and
 * `osvlab publish --check` compare them with the files they read, and an
 * answer whose hash differs is flagged as altered before it is graded.
 */
import { sha256Hex } from '../../hash.ts';
import { type ValidationError, count, hex64, literal, newerVersion, object, parseJson, record } from '../files/json-validate.ts';
import type { AttemptRecord } from '../run/run-types.ts';

const MANIFEST_FORMAT = 'osvlab-manifest';
const MANIFEST_VERSION = 1;

export interface FileDigest {
  readonly sha256: string;
  readonly bytes: number;
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly formatVersion: number;
  readonly algorithm: 'sha256';
  /** Path from the site's root -> the file's digest and size. */
  readonly files: Readonly<Record<string, FileDigest>>;
  /** Run id -> attempt id -> the SHA-256 of the attempt's answer. */
  readonly answers: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Why an answer is flagged: its hash is not the manifest's, or the manifest has none for it. */
export type AlteredReason = 'hash-differs' | 'not-in-manifest';

export interface AlteredAnswer {
  readonly attemptId: string;
  readonly taskId: string;
  readonly sample: number;
  readonly round: number;
  readonly reason: AlteredReason;
  /** The manifest's hash (absent when it has none) and the answer's. */
  readonly expected?: string;
  readonly actual: string;
}

/** The SHA-256 of every answer of `attempts` (attempts without a response have none), by attempt id. */
export async function answerDigests(attempts: readonly AttemptRecord[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const a of attempts) if (a.response) out[a.id] = await sha256Hex(a.response.text);
  return out;
}

/** The manifest of `files` (path -> digest) and the answers of each run. */
export function manifest(files: Readonly<Record<string, FileDigest>>, answers: Readonly<Record<string, Readonly<Record<string, string>>>>): Manifest {
  return { format: MANIFEST_FORMAT, formatVersion: MANIFEST_VERSION, algorithm: 'sha256', files, answers };
}

const manifestCheck = object({
  format: literal(MANIFEST_FORMAT),
  formatVersion: count(1),
  algorithm: literal('sha256'),
  files: record(object({ sha256: hex64(), bytes: count() })),
  answers: record(record(hex64())),
});

export type ManifestParse = { readonly ok: true; readonly manifest: Manifest } | { readonly ok: false; readonly errors: readonly ValidationError[] };

/** Parses and validates a manifest. */
export function parseManifest(text: string): ManifestParse {
  const json = parseJson(text);
  if (!json.ok) return json;
  const newer = newerVersion(json.value, MANIFEST_VERSION);
  if (newer) return { ok: false, errors: [newer] };
  const errs: ValidationError[] = [];
  manifestCheck(json.value, '$', errs);
  return errs.length ? { ok: false, errors: errs.slice(0, 20) } : { ok: true, manifest: json.value as Manifest };
}

/**
 * The answers of run `runId` whose hash is not the one `m` names (or that it
 * names none for), and the attempts it names that `attempts` lack.
 */
export async function findAlteredAnswers(m: Manifest, runId: string, attempts: readonly AttemptRecord[]): Promise<{ altered: AlteredAnswer[]; missing: string[] }> {
  const claimed = Object.hasOwn(m.answers, runId) ? m.answers[runId] : {};
  const altered: AlteredAnswer[] = [];
  const present = new Set<string>();
  for (const a of attempts) {
    if (!a.response) continue;
    present.add(a.id);
    const actual = await sha256Hex(a.response.text);
    const expected = Object.hasOwn(claimed, a.id) ? claimed[a.id] : undefined;
    if (expected === actual) continue;
    const where = { attemptId: a.id, taskId: a.taskId, sample: a.sample, round: a.round, actual };
    altered.push(expected === undefined ? { ...where, reason: 'not-in-manifest' } : { ...where, reason: 'hash-differs', expected });
  }
  const missing = Object.keys(claimed).filter((id) => !present.has(id)).sort();
  return { altered, missing };
}
