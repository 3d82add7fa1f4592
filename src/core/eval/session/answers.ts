/**
 * A session that grades answers obtained elsewhere (a JSONL file, an
 * OSVBench results file): `osvlab grade` and the Runs page's import. The
 * run's records are stored before the first grade (every answer, ungraded),
 * then each grade as it comes, so a stopped session loses nothing; opening
 * the same file on the same store again keeps every grade it has and grades
 * only the rest, writing nothing for what it kept (a resume never grows the
 * store).
 */
import { PROVENANCE } from '../../version.ts';
import type { GradeResult, GradingSettings } from '../grade/grade-types.ts';
import type { AnswerFile, AnswerItem } from '../files/responses.ts';
import { answersRun, answersRunId } from '../run/answers-run.ts';
import type { AttemptRecord, RunRecord, RunSource } from '../run/run-types.ts';
import { type ShardSpec, ownsChain } from '../run/shard.ts';
import { canonicalJson } from '../../hash.ts';
import { type RenameChoice, renameChoiceError } from '../../rename/choice.ts';
import { gradingOf, recordedGrading } from './config.ts';
import { gradeClosure, neverThrows } from './grading.ts';
import { SessionError, type SessionPorts } from './ports.ts';
import { assertSameShard } from './session.ts';

export interface AnswersChoice {
  readonly file: AnswerFile;
  /** Where the answers came from (the file's name, not its path). */
  readonly source: RunSource;
  readonly model: string;
  readonly name?: string;
  readonly grading?: Partial<GradingSettings>;
  /** Grade only this part of the file (split by (task, sample) as a run's chains are). */
  readonly shard?: ShardSpec;
  /** The renaming the answers are written in: each is renamed back before grading (docs/rename.md). */
  readonly rename?: RenameChoice;
}

export interface GradedItem {
  readonly item: AnswerItem;
  readonly grade: GradeResult;
  /** The grade was in the store already (an earlier session of the same run). */
  readonly kept: boolean;
}

export interface AnswersOutcome {
  readonly run: RunRecord;
  /** This session's answers (the shard's, or all), in file order; fewer than the session's size when it was stopped. */
  readonly results: readonly GradedItem[];
  /** The session was stopped before every answer was graded (the run is `cancelled`, and resumable). */
  readonly stopped: boolean;
}

/** The answers session: open it, then `grade()` (its grades are stored as they come). */
export class AnswersSession {
  private constructor(
    readonly run: RunRecord,
    private readonly owned: readonly AnswerItem[],
    private readonly kept: ReadonlyMap<string, GradeResult>,
    /** The ungraded attempt of every answer of the file, by task|sample. */
    private readonly fresh: ReadonlyMap<string, AttemptRecord>,
    private readonly ports: SessionPorts,
  ) {}

  /** Opens the run of these answers in the store: new (every answer stored ungraded) or continued. */
  static async open(choice: AnswersChoice, ports: SessionPorts, where = 'the store'): Promise<AnswersSession> {
    const now = (ports.clock ?? Date.now)();
    const policy = gradingOf(choice.grading);
    const grading = recordedGrading(choice.grading);
    const badRename = choice.rename && renameChoiceError(choice.rename);
    if (badRename) throw new SessionError('SESSION003', badRename);
    const id = await answersRunId(choice.file.items, choice.rename);
    const describe = (answers: readonly { item: AnswerItem; grade?: GradeResult }[]) =>
      answersRun({ id, name: choice.name, model: choice.model, source: choice.source, tasks: ports.tasks, answers, grading, ...(choice.rename ? { rename: choice.rename } : {}), provenance: PROVENANCE, now });
    // The split follows the whole file's run (its task order and samples per
    // task); every shard records that run, so merge sees one run.
    const whole = await describe(choice.file.items.map((item) => ({ item })));
    const order = new Map(whole.run.config.tasks.map((t, i) => [t, i]));
    const owned = choice.file.items.filter((item) => ownsChain(choice.shard, order.get(item.task.id)!, item.sample, whole.run.config.tasks.length, whole.run.config.n));
    const run: RunRecord = { ...whole.run, status: 'running', ...(choice.shard ? { shard: choice.shard } : {}) };
    const kept = new Map<string, GradeResult>();
    const existing = await ports.store.getRun(id);
    if (existing) {
      assertSameShard(existing, choice.shard, where);
      if (canonicalJson(gradingOf(existing.config.grading)) !== canonicalJson(policy)) {
        throw new SessionError('SESSION002', `${where} holds these answers graded with other settings (${JSON.stringify(gradingOf(existing.config.grading))})`);
      }
      for (const a of await ports.store.listAttempts(id)) if (a.grade && a.grade.category !== 'internal') kept.set(`${a.taskId}|${a.sample}`, a.grade);
      return new AnswersSession(existing, owned, kept, freshOf(whole.attempts), ports);
    }
    // run.json first: a directory with attempts but no run record is not a run.
    await ports.store.putRun(run);
    const ownedIds = new Set(owned.map((i) => `${i.task.id}|${i.sample}`));
    for (const p of whole.prompts) await ports.store.putPrompt(p);
    for (const a of whole.attempts) if (ownedIds.has(`${a.taskId}|${a.sample}`)) await ports.store.putAttempt(a);
    return new AnswersSession(run, owned, kept, freshOf(whole.attempts), ports);
  }

  get id(): string {
    return this.run.id;
  }

  /** How many answers this session grades (kept ones included). */
  get size(): number {
    return this.owned.length;
  }

  /**
   * Grades every answer not graded yet, `concurrency` at once (the grader's
   * pool limits the real parallelism), storing each grade as it comes, then
   * the run's final status. `onGraded` is told of each answer, kept ones too.
   * Once `signal` fires, no further answer is graded and a grade the stop
   * cut short (`internal`: the signal cancelled it in the grader) is not
   * stored, so the answer stays ungraded for the next session; the run is
   * `cancelled` and `stopped` says so.
   */
  async gradeAll(opts: { readonly onGraded?: (r: GradedItem, done: number, total: number) => void; readonly signal?: AbortSignal } = {}): Promise<AnswersOutcome> {
    const { store } = this.ports;
    const clock = this.ports.clock ?? Date.now;
    const grade = neverThrows(gradeClosure(this.run.config, this.ports.grader, this.ports.tasks, opts.signal));
    const attempts = new Map((await store.listAttempts(this.id)).map((a) => [`${a.taskId}|${a.sample}`, a]));
    const stopped = () => opts.signal?.aborted === true;
    const results: GradedItem[] = [];
    let done = 0;
    await Promise.all(
      this.owned.map(async (item) => {
        const key = `${item.task.id}|${item.sample}`;
        const had = this.kept.get(key);
        if (!had && stopped()) return;
        const result: GradedItem = had ? { item, grade: had, kept: true } : { item, grade: await grade(item.task, item.response), kept: false };
        if (!result.kept) {
          if (stopped() && result.grade.category === 'internal') return;
          const a = attempts.get(key) ?? this.fresh.get(key)!;
          await store.putAttempt({ ...a, grade: result.grade, gradedAt: clock() });
        }
        results.push(result);
        opts.onGraded?.(result, ++done, this.owned.length);
      }),
    );
    results.sort((a, b) => a.item.line - b.item.line || (a.item.index ?? 0) - (b.item.index ?? 0) || a.item.sample - b.item.sample);
    const complete = results.length === this.owned.length && results.every((r) => r.grade.category !== 'internal');
    const status = stopped() && results.length < this.owned.length ? 'cancelled' : complete ? 'done' : 'incomplete';
    const run: RunRecord = { ...this.run, status, updatedAt: clock() };
    await store.putRun(run);
    return { run, results, stopped: status === 'cancelled' };
  }
}

function freshOf(attempts: readonly AttemptRecord[]): Map<string, AttemptRecord> {
  return new Map(attempts.map((a) => [`${a.taskId}|${a.sample}`, a]));
}
