/**
 * The grade closure of a run: how an answer of a run with this config is
 * graded, the same in the page and the CLI. The answer is read as the run
 * says (`extract`), graded with the run's time limit and strict setting,
 * and against all five variants of its handler only when the run asked for
 * the matrix. In a renamed run (docs/rename.md) the spec read from the
 * answer is renamed back to hv6's names first, so the verifier grades it
 * unchanged; the grade's `extracted` is that text, beside the answer as the
 * model wrote it.
 */
import type { Task } from '../../tasks/task.ts';
import type { RenameChoice } from '../../rename/choice.ts';
import { answerForGrading, extractSpec } from '../grade/answer.ts';
import { type GradeResult, internalGrade } from '../grade/grade-types.ts';
import type { RunConfig } from '../run/run-types.ts';
import { gradingOf } from './config.ts';
import type { Grader } from './ports.ts';

export type GradeAnswer = (task: Task, response: string) => Promise<GradeResult>;

/**
 * The grade closure of a run with `config` over `grader`; `tasks` gives each
 * handler's variants. With `signal`, aborting it cancels the gradings still
 * queued or running.
 */
export function gradeClosure(config: Pick<RunConfig, 'grading' | 'extract' | 'rename'>, grader: Grader, tasks: readonly Task[], signal?: AbortSignal): GradeAnswer {
  const policy = gradingOf(config.grading);
  const rename = config.rename;
  return async (task, response) => {
    const read = answerForGrading(response, config.extract);
    const text = rename ? await renamedBack(read, rename) : read;
    const variants = policy.matrix ? tasks.filter((t) => t.handler === task.handler) : undefined;
    return grader(task, text, { timeoutMs: policy.timeoutMs, strict: policy.strict, ...(variants ? { variants } : {}), ...(signal ? { signal } : {}) });
  };
}

/**
 * The spec of a renamed answer in hv6's names, fenced again for the grader
 * (a fence longer than any run of backticks in it); an answer without code
 * as it is, for the grader to find none. The lens is loaded only for a
 * renamed run.
 */
async function renamedBack(answer: string, choice: RenameChoice): Promise<string> {
  const spec = extractSpec(answer);
  if (spec === null) return answer;
  const { lensFor } = await import('../../rename/lens.ts');
  const code = lensFor(choice).inverse.codeText(spec, 'python');
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}python\n${code}${fence}\n`;
}

/** `grade`, with a throw turned into an `internal` grade (the grader's failure, never a lost answer). */
export function neverThrows(grade: GradeAnswer): GradeAnswer {
  return async (task, response) => {
    try {
      return await grade(task, response);
    } catch (e) {
      return internalGrade(response, e instanceof Error ? e.message : String(e));
    }
  };
}
