/**
 * Re-verifying a published run, the same in the Results page and in
 * `osvlab publish --check` (docs/publish.md). Opening a run file checks its
 * hash and every answer's against the manifest (an answer that differs is
 * flagged altered before anything is graded) and computes the row's figures
 * from the stored grades; re-verifying grades every answer again with this
 * verifier (session/regrade.ts) and says of each cell whether it is
 * reproduced or changed, and by which answers.
 */
import { canonicalJson, sha256HexOfBytes } from '../../hash.ts';
import { PROVENANCE } from '../../version.ts';
import { type RunFile, formatValidationErrors, parseRunFile } from '../files/run-file.ts';
import { type RegradeReport, describeGrade, regradeRun, summaryOf } from '../session/regrade.ts';
import type { SessionPorts } from '../session/ports.ts';
import { type AnswerChange, type FigureId, type FigureVerdict, type Figures, figureTitle, figureVerdicts, figureIdsOf, figuresOf, rowFacts } from './figures.ts';
import { type AlteredAnswer, type Manifest, findAlteredAnswers } from './manifest.ts';
import { INDEX_PATH, type IndexRun, type SiteIndex } from './site.ts';

/** A published run read and checked against the manifest, before any grading. */
export interface OpenedRun {
  readonly entry: IndexRun;
  readonly file: RunFile;
  /** The run file's SHA-256, and the one the manifest names for it (undefined: none). */
  readonly digest: { readonly actual: string; readonly expected: string | undefined };
  /** Answers whose hash is not the manifest's. */
  readonly altered: readonly AlteredAnswer[];
  /** Answers the manifest names that the run file lacks (attempt ids). */
  readonly missing: readonly string[];
  /** The figures its row has (figureIdsOf). */
  readonly figureIds: readonly FigureId[];
  /** The figures of the stored grades. */
  readonly figures: Figures;
}

export type Opened = { readonly ok: true; readonly run: OpenedRun } | { readonly ok: false; readonly entry: IndexRun; readonly message: string };

/** Reads run `entry` from the bytes of its file and checks them against manifest `m`. */
export async function openPublishedRun(entry: IndexRun, bytes: Uint8Array, m: Manifest): Promise<Opened> {
  const actual = await sha256HexOfBytes(bytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, entry, message: `${entry.file} is not UTF-8 text` };
  }
  const parsed = parseRunFile(text);
  if (!parsed.ok) return { ok: false, entry, message: `${entry.file} is not a valid run file:\n${formatValidationErrors(parsed.errors)}` };
  const file = parsed.file;
  if (file.run.id !== entry.id) return { ok: false, entry, message: `${entry.file} holds run "${file.run.id}", but the index says it holds run "${entry.id}"` };
  const outside = outsideConfig(file);
  if (outside) return { ok: false, entry, message: `${entry.file} holds answers its run's config does not ask for (${outside}): a published row's figures are of the run as configured` };
  const { altered, missing } = await findAlteredAnswers(m, entry.id, file.attempts);
  const claimed = Object.hasOwn(m.files, entry.file) ? m.files[entry.file] : undefined;
  return {
    ok: true,
    run: { entry, file, digest: { actual, expected: claimed?.sha256 }, altered, missing, figureIds: figureIdsOf(file.run), figures: figuresOf(file.run, file.attempts, file.tasks) },
  };
}

/**
 * The first of a run file's answers that its config does not ask for, in
 * words, or undefined: a sample at or past the config's n, a repair round
 * past its repair rounds, a task it does not list. Extra passing samples
 * (rehashed into the manifest) would otherwise raise pass@1 while the row
 * still says n.
 */
function outsideConfig(file: RunFile): string | undefined {
  const { n, repairRounds, tasks } = file.run.config;
  const listed = new Set(tasks);
  const bad = file.attempts.filter((a) => !listed.has(a.taskId) || a.sample < 0 || a.sample >= n || a.round < 0 || a.round > repairRounds);
  if (bad.length === 0) return undefined;
  const a = bad[0];
  const why = !listed.has(a.taskId) ? `task ${a.taskId} is not among its tasks` : a.sample < 0 || a.sample >= n ? `sample ${a.sample + 1} of ${a.taskId}, with n ${n}` : `repair round ${a.round} of ${a.taskId}, with ${repairRounds} repair rounds`;
  return `${why}${bad.length > 1 ? `, and ${bad.length - 1} more` : ''}`;
}

/** What the site as a whole says against its manifest. */
export interface SiteReverification {
  /** Whether the index is byte for byte the one the manifest hashed. */
  readonly indexMatches: boolean;
  /** Runs the manifest has answers of that the index does not list (a row taken out). */
  readonly missingRuns: readonly string[];
}

/** Checks the index (its bytes, parsed) against manifest `m`. */
export async function reverifySite(indexBytes: Uint8Array, index: SiteIndex, m: Manifest): Promise<SiteReverification> {
  const listed = new Set(index.runs.map((r) => r.id));
  const claimed = Object.hasOwn(m.files, INDEX_PATH) ? m.files[INDEX_PATH].sha256 : undefined;
  return { indexMatches: (await sha256HexOfBytes(indexBytes)) === claimed, missingRuns: Object.keys(m.answers).filter((id) => !listed.has(id)).sort() };
}

/** The site's problems in words, one line each (none when it matches its manifest). */
export function siteReverificationLines(s: SiteReverification): string[] {
  return [
    ...(s.indexMatches ? [] : [`the index (${INDEX_PATH}) is not byte for byte the one published: its SHA-256 is not the manifest's`]),
    ...s.missingRuns.map((id) => `missing run ${id}: the manifest has its answers, the index does not list it`),
  ];
}

export type RowStatus = 'reproduced' | 'changed';

/** What re-verifying one published run found. */
export interface RowVerdict {
  readonly runId: string;
  /** Reproduced when every cell is, no answer is altered or missing, and no grade changed anywhere. */
  readonly status: RowStatus;
  readonly verdicts: readonly FigureVerdict[];
  /** Grades that changed in what no cell reads (bug-following, the variant matrix). */
  readonly unread: readonly AnswerChange[];
  readonly altered: readonly AlteredAnswer[];
  readonly missing: readonly string[];
  /** Whether the run file is byte for byte the one the manifest hashed. */
  readonly fileMatches: boolean;
  /** Answers graded. */
  readonly answers: number;
  readonly verifier: { readonly before: string; readonly after: string };
  /** The figures of this verifier's grades. */
  readonly derived: Figures;
  readonly ms: number;
}

/** Each answer that changed grade or is altered, by attempt id. */
function changesOf(report: RegradeReport, opened: OpenedRun): Map<string, AnswerChange> {
  const altered = new Set(opened.altered.map((a) => a.attemptId));
  const stored = new Map(opened.file.attempts.map((a) => [a.id, a]));
  const out = new Map<string, AnswerChange>();
  for (const a of report.attempts) {
    const s = stored.get(a.id);
    const before = s?.grade ? summaryOf(s.grade) : undefined;
    const after = summaryOf(a.grade!);
    const isAltered = altered.has(a.id);
    if (!isAltered && before && canonicalJson(before) === canonicalJson(after)) continue;
    out.set(a.id, { attemptId: a.id, taskId: a.taskId, sample: a.sample, round: a.round, before, after, beforeVerifier: report.verifier.before, afterVerifier: report.verifier.after, altered: isAltered });
  }
  return out;
}

/**
 * Grades every answer of `opened` again with `ports.grader` and compares,
 * cell by cell. Aborting `signal` cancels it (regradeRun throws).
 */
export async function reverifyPublishedRun(
  opened: OpenedRun,
  ports: Pick<SessionPorts, 'tasks' | 'grader' | 'clock'>,
  opts: { readonly onProgress?: (done: number, total: number) => void; readonly signal?: AbortSignal } = {},
): Promise<RowVerdict> {
  const { run, attempts, tasks } = opened.file;
  const report = await regradeRun(run, attempts, ports, opts);
  const changes = changesOf(report, opened);
  const { verdicts, unread, derived } = figureVerdicts({ run, tasks, stored: attempts, regraded: report.attempts, changes });
  const changed = verdicts.some((c) => c.status === 'changed') || unread.length > 0 || opened.altered.length > 0 || opened.missing.length > 0;
  return {
    runId: run.id,
    status: changed ? 'changed' : 'reproduced',
    verdicts,
    unread,
    altered: opened.altered,
    missing: opened.missing,
    fileMatches: opened.digest.actual === opened.digest.expected,
    answers: report.attempts.length,
    verifier: { before: run.provenance.verifier, after: PROVENANCE.verifier },
    derived,
    ms: report.ms,
  };
}

/** "gpt-4o, prompt standard, 5 shots, feedback counterexample, 0 repairs" (and ", names synonym #1" when renamed): what a row was. */
export function rowLabel(opened: OpenedRun): string {
  const f = rowFacts(opened.file.run);
  const study = opened.entry.study ? ` [${opened.entry.study.name}: ${opened.entry.study.label}]` : '';
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const names = f.names === 'hv6' ? '' : `, names ${f.names}`;
  const named = f.name !== f.model ? `${f.name} (${f.model})` : f.model;
  return `${named}, ${f.provider} at ${f.host}, prompt ${f.prompt}${names}, ${plural(f.shots, 'shot')}, feedback ${f.feedback}, ${plural(f.repairRounds, 'repair')}, n ${f.n}, ${plural(f.tasks, 'task')}${study}`;
}

/** An answer in words: "sys_kill-v0 sample 0 round 0". */
export function answerName(a: { readonly taskId: string; readonly sample: number; readonly round: number }): string {
  return `${a.taskId} sample ${a.sample} round ${a.round}`;
}

/** A changed answer in words, with both verifier digests: "pass (v-1) -> syntax (v-2), altered". */
export function changeText(c: AnswerChange): string {
  const before = c.before ? describeGrade(c.before) : 'no stored grade';
  return `${before} (${c.beforeVerifier}) -> ${describeGrade(c.after)} (${c.afterVerifier})${c.altered ? ', answer altered' : ''}`;
}

/** An altered answer in words. */
export function alteredText(a: AlteredAnswer): string {
  return a.reason === 'not-in-manifest' ? `${answerName(a)}: not in the manifest` : `${answerName(a)}: its SHA-256 ${a.actual.slice(0, 12)}... is not the manifest's ${a.expected!.slice(0, 12)}...`;
}

/**
 * The verdicts of a row as the terminal prints them: the run and its
 * verdict, then one line per cell (reproduced, or changed with the figures
 * before and after and each answer that makes it so), the altered and
 * missing answers, the grades no cell reads, and a file that is not the one
 * the manifest hashed.
 */
export function rowVerdictLines(opened: OpenedRun, v: RowVerdict): string[] {
  const run = opened.file.run;
  const lines = [`run ${run.id} (${rowLabel(opened)}): ${v.status}, ${v.answers} answers graded in ${(v.ms / 1000).toFixed(1)} s`];
  for (const c of v.verdicts) {
    const title = figureTitle(c.figure, run);
    if (c.status === 'reproduced') lines.push(`  ${title}: reproduced, ${c.derived}`);
    else {
      lines.push(`  ${title}: changed, published ${c.published}, this verifier ${c.derived}`);
      for (const a of c.answers) lines.push(`    ${answerName(a)}: ${changeText(a)}`);
    }
  }
  for (const a of v.altered) lines.push(`  altered answer ${alteredText(a)}`);
  for (const id of v.missing) lines.push(`  missing answer ${id}: the manifest names it, the run file lacks it`);
  for (const a of v.unread) lines.push(`  changed grade ${answerName(a)}: ${changeText(a)} (in no column)`);
  if (!v.fileMatches) lines.push(`  the run file is not byte for byte the one published: its SHA-256 ${opened.digest.actual.slice(0, 12)}... is not the manifest's ${opened.digest.expected?.slice(0, 12) ?? '(none)'}...`);
  return lines;
}
