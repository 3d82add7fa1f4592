/**
 * A published run's row on the Results page and in `osvlab publish --check`
 * (docs/publish.md): the columns that say what the run was (model, prompt
 * variant, shots, feedback, repair rounds, samples, the verifier and app it
 * was graded with), and its figures, the numbers a paper cites: the cells
 * of the row on the page (called figures in the code, where a study's cell
 * is a run):
 *
 *   pass1   pass@1 of the first answers, with its 95% interval (a bootstrap
 *           over tasks; the Wilson score interval under FEW_TASKS tasks,
 *           where a bootstrap collapses to a point)
 *   passk   pass@k for the largest k of PASS_KS a run of n samples has (n >= 3)
 *   split   the first answers by outcome (pass, syntax, semantic, ...)
 *   strict  passing first answers whose lemma checks hold (runs graded strict)
 *   repair  pass@1 after the last repair round, with its interval (runs with repairs)
 *
 * Each cell reads some of a run's answers and something of each one's grade
 * (its `key`): pass@1 reads whether a first answer passes, the split its
 * outcome. A cell is reproduced when every answer it reads has the same key
 * under this verifier's grade as under the stored one and none of them is
 * altered; then its figure is the same too. A changed cell lists exactly the
 * answers that make it so.
 */
import type { GradeCategory } from '../grade/grade-types.ts';
import type { AttemptRecord, RunRecord } from '../run/run-types.ts';
import { DEFAULT_FEEDBACK, DEFAULT_PROMPT, gradingOf } from '../session/config.ts';
import type { GradeSummary } from '../session/regrade.ts';
import { bootstrapMeanCi } from '../stats/bootstrap.ts';
import { PASS_KS, passAtK } from '../stats/metrics.ts';
import { OUTCOMES, type TaskFacts, UNCHARGED, attemptOutcome, outcomeOf } from '../stats/outcome.ts';
import { repairCurve } from '../stats/repair-curve.ts';
import { pct, pctInterval } from '../stats/table.ts';
import { FEW_TASKS, wilsonCi } from '../stats/wilson.ts';
import { namesText } from '../../rename/choice.ts';

export type FigureId = 'pass1' | 'passk' | 'split' | 'strict' | 'repair';

/** The figures in the order of the table's columns. */
export const FIGURE_IDS: readonly FigureId[] = ['pass1', 'passk', 'split', 'strict', 'repair'];

/** What a row says about how its run was made. */
export interface RowFacts {
  /** The run's name (`run --name`, the page's Name field), or its model when it has none. */
  readonly name: string;
  readonly provider: string;
  /** The host of the endpoint the run's requests went to (its base URL's), or the base URL itself when it is no URL. */
  readonly host: string;
  readonly model: string;
  readonly prompt: string;
  /** The names the model was shown (docs/rename.md): `hv6`, or a renaming such as `synonym #1`. */
  readonly names: string;
  readonly shots: number;
  readonly feedback: string;
  readonly repairRounds: number;
  /** Samples per task. */
  readonly n: number;
  readonly tasks: number;
  /** The task set in words: every id up to three, else the first two and how many more. */
  readonly taskSet: string;
  /** The verifier and app the run's grades were made with (its provenance). */
  readonly verifier: string;
  readonly app: string;
}

export function rowFacts(run: RunRecord): RowFacts {
  const c = run.config;
  return {
    name: run.name || c.model,
    provider: c.provider,
    host: hostOf(c.baseUrl),
    model: c.model,
    prompt: c.prompt ?? DEFAULT_PROMPT,
    names: namesText(c.rename),
    shots: c.shots,
    feedback: c.feedback ?? DEFAULT_FEEDBACK,
    repairRounds: c.repairRounds,
    n: c.n,
    tasks: c.tasks.length,
    taskSet: taskSetText(c.tasks),
    verifier: run.provenance.verifier,
    app: run.provenance.app,
  };
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** A task list in words: "sys_dup-v0, sys_kill-v0, sys_close-v0", or "sys_dup-v0, sys_kill-v0 and 243 more". */
function taskSetText(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  if (ids.length <= 3) return ids.join(', ');
  return `${ids.slice(0, 2).join(', ')} and ${ids.length - 2} more`;
}

/** The k of the pass@k cell of a run with `n` samples per task: the largest of PASS_KS above 1 that fits, if any. */
export function passKOf(n: number): number | undefined {
  return [...PASS_KS].reverse().find((k) => k > 1 && k <= n);
}

/** The cells a run's row has: pass@k with enough samples, strict when graded strict, after repair with repair rounds. */
export function figureIdsOf(run: RunRecord): FigureId[] {
  const c = run.config;
  return FIGURE_IDS.filter((id) => (id === 'passk' ? passKOf(c.n) !== undefined : id === 'strict' ? gradingOf(c.grading).strict : id === 'repair' ? c.repairRounds > 0 : true));
}

/** How a share's 95% interval was made: a bootstrap over tasks, or the Wilson score interval (fewer than FEW_TASKS tasks). */
export type IntervalMethod = 'bootstrap' | 'wilson';

/** A share with its 95% interval; `value` null when nothing was counted. */
export interface Share {
  readonly value: number | null;
  readonly ci: readonly [number, number] | null;
  /** The method of `ci` (absent: bootstrap, as every figure made before the Wilson interval). */
  readonly method?: IntervalMethod;
}

/**
 * `value` over `tasks` with `bootstrap`'s interval, or the Wilson score
 * interval when there are fewer than FEW_TASKS tasks: a bootstrap over 5
 * tasks that all pass is [100%, 100%], which would read as certainty.
 */
function shareOf(value: number, tasks: number, bootstrap: readonly [number, number] | null): Share {
  return tasks < FEW_TASKS ? { value, ci: wilsonCi(value, tasks), method: 'wilson' } : { value, ci: bootstrap };
}

export type SplitKey = GradeCategory | 'unanswered';

/** A row's figures, from its answers and their grades. */
export interface Figures {
  readonly pass1: Share;
  readonly passk?: Share & { readonly k: number };
  /** First answers by outcome. */
  readonly split: Readonly<Record<SplitKey, number>>;
  readonly strict?: { readonly passes: number; readonly of: number };
  readonly repair?: Share & { readonly rounds: number };
}

const RESAMPLES = 2000;

/** The attempts of the run's own tasks (stray ones count nowhere, as in metrics.ts). */
function ownAttempts(run: RunRecord, attempts: readonly AttemptRecord[]): AttemptRecord[] {
  const ids = new Set(run.config.tasks);
  return attempts.filter((a) => a.runId === run.id && ids.has(a.taskId));
}

/** pass@k over the tasks with at least k counted first answers, and its bootstrap interval over tasks. */
function passAtKShare(run: RunRecord, first: readonly AttemptRecord[], k: number): Share {
  const per = new Map<string, { n: number; c: number }>();
  for (const a of first) {
    const o = outcomeOf(a);
    if (!o) continue;
    const t = per.get(a.taskId) ?? { n: 0, c: 0 };
    t.n++;
    if (o === 'pass') t.c++;
    per.set(a.taskId, t);
  }
  const counted = [...per.values()];
  // As metrics.ts: pass@k needs k samples of every task that has any.
  if (counted.length === 0 || counted.some((t) => t.n < k)) return { value: null, ci: null };
  const values = counted.map((t) => passAtK(t.n, t.c, k));
  const value = values.reduce((s, x) => s + x, 0) / values.length;
  return shareOf(value, values.length, values.length < FEW_TASKS ? null : bootstrapMeanCi(values, RESAMPLES, `osvlab-publish/${run.id}/pass@${k}`));
}

/** The figures of `run` with `attempts` (its stored grades, or this verifier's). */
export function figuresOf(run: RunRecord, attempts: readonly AttemptRecord[], tasks: readonly TaskFacts[]): Figures {
  const mine = ownAttempts(run, attempts);
  const first = mine.filter((a) => a.round === 0);
  const shown = new Set(figureIdsOf(run));
  const rounds = run.config.repairRounds;
  const curve = repairCurve(tasks, mine, { rounds, resamples: RESAMPLES, seed: `osvlab-publish/${run.id}` });
  const share = (round: number): Share => {
    const p = curve.points[round];
    return p && p.tasks > 0 ? shareOf(p.pass1, p.tasks, p.ci95) : { value: null, ci: null };
  };
  const split = Object.fromEntries([...OUTCOMES, ...UNCHARGED].map((o) => [o, 0])) as Record<SplitKey, number>;
  let passes = 0;
  let strictPasses = 0;
  for (const a of first) {
    const o = attemptOutcome(a);
    if (o !== undefined) split[o]++;
    if (o === 'pass') {
      passes++;
      if (a.grade?.strict === true) strictPasses++;
    }
  }
  const k = passKOf(run.config.n);
  return {
    pass1: share(0),
    ...(shown.has('passk') && k ? { passk: { k, ...passAtKShare(run, first, k) } } : {}),
    split,
    ...(shown.has('strict') ? { strict: { passes: strictPasses, of: passes } } : {}),
    ...(shown.has('repair') ? { repair: { rounds, ...share(rounds) } } : {}),
  };
}

/** The cell's name as a column header: "pass@1", "pass@5", "after 3 repairs". */
export function figureTitle(id: FigureId, run: RunRecord): string {
  switch (id) {
    case 'pass1':
      return 'pass@1';
    case 'passk':
      return `pass@${passKOf(run.config.n) ?? 'k'}`;
    case 'split':
      return 'first answers';
    case 'strict':
      return 'lemma passes';
    case 'repair':
      return `after ${run.config.repairRounds} ${run.config.repairRounds === 1 ? 'repair' : 'repairs'}`;
  }
}

/** What an empty cell shows (the page draws it as an en dash). */
export const NO_FIGURE = '-';

const shareParts = (s: Share | undefined): { main: string; detail?: string } =>
  !s || s.value === null ? { main: NO_FIGURE } : { main: pct(s.value), detail: `${pctInterval(s.ci)}${s.method === 'wilson' ? ' Wilson' : ''}` };

/** The cell's figure in two parts, the figure and its interval where it has one (the page sets them on two lines). */
export function figureParts(f: Figures, id: FigureId): { readonly main: string; readonly detail?: string } {
  switch (id) {
    case 'pass1':
      return shareParts(f.pass1);
    case 'passk':
      return shareParts(f.passk);
    case 'split': {
      const parts = (Object.entries(f.split) as [SplitKey, number][]).filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n}`);
      return { main: parts.length ? parts.join(', ') : 'none' };
    }
    case 'strict':
      // No passing first answer: nothing was checked strictly, which "0 of 0" would hide.
      return { main: f.strict && f.strict.of > 0 ? `${f.strict.passes} of ${f.strict.of}` : NO_FIGURE };
    case 'repair':
      return shareParts(f.repair);
  }
}

/** The cell's figure in words, the same in the page and the terminal: "41.2% [35.1%, 47.3%]". */
function figureText(f: Figures, id: FigureId): string {
  const p = figureParts(f, id);
  return p.detail ? `${p.main} ${p.detail}` : p.main;
}

/** The cell's figure as one number, for sorting (pass@1 for the split, which has no single value); null when there is none. */
export function figureValue(f: Figures, id: FigureId): number | null {
  switch (id) {
    case 'pass1':
    case 'split':
      return f.pass1.value;
    case 'passk':
      return f.passk?.value ?? null;
    case 'strict':
      return f.strict ? f.strict.passes : null;
    case 'repair':
      return f.repair?.value ?? null;
  }
}

/** What a cell reads: which answers (first answers, or every round), and what of each one's grade. */
const READS: Readonly<Record<FigureId, { readonly firstOnly: boolean; key(a: AttemptRecord): string }>> = {
  pass1: { firstOnly: true, key: passKey },
  passk: { firstOnly: true, key: passKey },
  split: { firstOnly: true, key: (a) => attemptOutcome(a) ?? 'none' },
  strict: { firstOnly: true, key: (a) => (outcomeOf(a) === 'pass' ? (a.grade?.strict === true ? 'strict' : 'pass') : 'other') },
  repair: { firstOnly: false, key: passKey },
};

/** An answer a cell reads, with what the cell reads of its grade. */
export interface AnswerRead {
  readonly attempt: AttemptRecord;
  /** pass / fail / none (not counted) for the pass@ cells; the outcome for the split; strict / pass / other for strict. */
  readonly reads: string;
}

/** The answers behind a cell: every answer of the run's tasks the cell reads (first answers, or every round for after repair), in task, sample, round order. */
export function answersBehind(run: RunRecord, attempts: readonly AttemptRecord[], figure: FigureId): AnswerRead[] {
  const rule = READS[figure];
  return ownAttempts(run, attempts)
    .filter((a) => !rule.firstOnly || a.round === 0)
    .sort((x, y) => (x.taskId < y.taskId ? -1 : x.taskId > y.taskId ? 1 : x.sample - y.sample || x.round - y.round))
    .map((attempt) => ({ attempt, reads: rule.key(attempt) }));
}

/** Counted as a pass, counted as a failure, or not counted (unfinished, unanswered, internal). */
function passKey(a: AttemptRecord): string {
  const o = outcomeOf(a);
  return o === undefined ? 'none' : o === 'pass' ? 'pass' : 'fail';
}

/** An answer whose grade under this verifier differs from the stored one, or whose text was altered. */
export interface AnswerChange {
  readonly attemptId: string;
  readonly taskId: string;
  readonly sample: number;
  readonly round: number;
  /** The stored grade (undefined: stored without one) and this verifier's. */
  readonly before: GradeSummary | undefined;
  readonly after: GradeSummary;
  /** The verifier of the stored grade (the run's provenance) and this one. */
  readonly beforeVerifier: string;
  readonly afterVerifier: string;
  /** The answer's text is not what the manifest hashed. */
  readonly altered: boolean;
}

export type FigureStatus = 'reproduced' | 'changed';

export interface FigureVerdict {
  readonly figure: FigureId;
  readonly status: FigureStatus;
  /** The figure from the stored grades, and from this verifier's. */
  readonly published: string;
  readonly derived: string;
  /** The answers that make it changed, by attempt id. */
  readonly answers: readonly AnswerChange[];
}

export interface FigureInput {
  readonly run: RunRecord;
  readonly tasks: readonly TaskFacts[];
  /** The stored attempts, and the same attempts with this verifier's grades. */
  readonly stored: readonly AttemptRecord[];
  readonly regraded: readonly AttemptRecord[];
  /** Every answer whose grade changed or that is altered. */
  readonly changes: ReadonlyMap<string, AnswerChange>;
}

/**
 * Each cell of the row, reproduced or changed, with the answers that make it
 * changed; the changes no cell reads (bug-following, the variant matrix);
 * and the figures of this verifier's grades.
 */
export function figureVerdicts(input: FigureInput): { readonly verdicts: FigureVerdict[]; readonly unread: AnswerChange[]; readonly derived: Figures } {
  const { run } = input;
  const after = new Map(input.regraded.map((a) => [a.id, a]));
  const stored = ownAttempts(run, input.stored);
  const regraded = stored.map((a) => after.get(a.id) ?? a);
  const published = figuresOf(run, stored, input.tasks);
  const derived = figuresOf(run, regraded, input.tasks);
  const read = new Set<string>();
  const verdicts = figureIdsOf(run).map((figure): FigureVerdict => {
    const rule = READS[figure];
    const answers: AnswerChange[] = [];
    for (const a of stored) {
      const change = input.changes.get(a.id);
      if (!change || (rule.firstOnly && a.round !== 0)) continue;
      if (change.altered || rule.key(a) !== rule.key(after.get(a.id) ?? a)) {
        answers.push(change);
        read.add(a.id);
      }
    }
    answers.sort((x, y) => (x.attemptId < y.attemptId ? -1 : x.attemptId > y.attemptId ? 1 : 0));
    return { figure, status: answers.length ? 'changed' : 'reproduced', published: figureText(published, figure), derived: figureText(derived, figure), answers };
  });
  const unread = [...input.changes.values()].filter((c) => !read.has(c.attemptId)).sort((x, y) => (x.attemptId < y.attemptId ? -1 : 1));
  return { verdicts, unread, derived };
}
