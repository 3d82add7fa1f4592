/**
 * A run made of answers obtained elsewhere (a JSONL file, OSVBench's results
 * file) and graded here: the same records a benchmark run stores, so
 * `osvlab report` and the Runs page read it like any other run. Each answer
 * is a first answer (round 0) of its task, with its sample number.
 */
import { canonicalJson, sha256Hex } from '../../hash.ts';
import type { GradeResult, GradingSettings } from '../grade/grade-types.ts';
import type { AnswerItem } from '../files/responses.ts';
import { type AttemptRecord, type PromptRecord, type RunProvenance, type RunRecord, type RunSource, attemptId } from './run-types.ts';
import { promptHash } from './runner.ts';
import type { RenameChoice } from '../../rename/choice.ts';
import type { Task } from '../../tasks/task.ts';

export interface GradedAnswer {
  readonly item: AnswerItem;
  /** Absent while the answer is not graded yet. */
  readonly grade?: GradeResult;
}

export interface AnswersRun {
  readonly run: RunRecord;
  readonly prompts: readonly PromptRecord[];
  readonly attempts: readonly AttemptRecord[];
}

/**
 * A run id that depends on the answers only, and on the renaming they are
 * read through (docs/rename.md; none keeps the id answers had before
 * renamings existed): the same file gives the same id.
 */
export async function answersRunId(items: readonly AnswerItem[], rename?: RenameChoice): Promise<string> {
  const answers = items.map((i) => [i.task.id, i.sample, i.response]);
  const h = await sha256Hex(canonicalJson(rename ? { answers, rename } : answers));
  return `answers-${h.slice(0, 12)}`;
}

/**
 * The records of a run made of `answers`. Its status is `done` when every
 * answer has a grade the model can be charged with, else `incomplete`.
 */
export async function answersRun(init: {
  readonly id: string;
  readonly name?: string;
  readonly model: string;
  readonly source: RunSource;
  /** Every task, in loadTasks() order (the run lists those answered, in that order). */
  readonly tasks: readonly Task[];
  readonly answers: readonly GradedAnswer[];
  readonly grading: GradingSettings;
  /** The renaming the answers are written in (absent: hv6's own names). */
  readonly rename?: RenameChoice;
  readonly provenance: RunProvenance;
  readonly now: number;
}): Promise<AnswersRun> {
  const used = new Set(init.answers.map((a) => a.item.task.id));
  const listed = init.tasks.filter((t) => used.has(t.id));
  // Handler-only answers may use a stand-in task that is not in the list.
  for (const a of init.answers) if (!listed.some((t) => t.id === a.item.task.id)) listed.push(a.item.task);
  const n = Math.max(1, ...init.answers.map((a) => a.item.sample + 1));
  const messages = [{ role: 'user' as const, content: `The prompts of these answers are not known: they were graded from ${init.source.file}.` }];
  const prompt: PromptRecord = { hash: await promptHash(undefined, messages), messages };
  const params = {};
  const attempts: AttemptRecord[] = init.answers.map(({ item, grade }) => ({
    id: attemptId(init.id, item.task.id, item.sample, 0),
    runId: init.id,
    taskId: item.task.id,
    sample: item.sample,
    round: 0,
    promptHash: prompt.hash,
    cacheKey: '',
    request: { provider: 'openai-compatible', baseUrl: '', model: init.model, params, sample: item.sample },
    response: { text: item.response, model: init.model, usage: { input: 0, output: 0 }, finishReason: 'stop', latencyMs: 0 },
    cost: 0,
    ...(grade ? { grade, gradedAt: init.now } : {}),
    createdAt: init.now,
  }));
  const complete = attempts.every((a) => a.grade && a.grade.category !== 'internal');
  const run: RunRecord = {
    id: init.id,
    ...(init.name ? { name: init.name } : {}),
    createdAt: init.now,
    updatedAt: init.now,
    config: {
      provider: 'openai-compatible',
      baseUrl: '',
      model: init.model,
      params,
      tasks: listed.map((t) => t.id),
      shots: 0,
      n,
      repairRounds: 0,
      concurrency: 1,
      gradeConcurrency: 1,
      grading: init.grading,
      ...(init.rename ? { rename: init.rename } : {}),
    },
    provenance: init.provenance,
    taskHashes: Object.fromEntries(listed.map((t) => [t.id, t.hash])),
    status: complete ? 'done' : 'incomplete',
    source: init.source,
  };
  return { run, prompts: [prompt], attempts };
}
