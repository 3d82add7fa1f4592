/**
 * The grade closure of a run: how an answer of a run with this config is
 * graded, the same in the page and the CLI. The answer is read as the run
 * says (`extract`), graded with the run's time limit and strict setting,
 * and against all five variants of its handler only when the run asked for
 * the matrix.
 */
import type { Task } from '../../tasks/task.ts';
import { answerForGrading } from '../grade/answer.ts';
import { type GradeResult, internalGrade } from '../grade/grade-types.ts';
import type { RunConfig } from '../run/run-types.ts';
import { gradingOf } from './config.ts';
import type { Grader } from './ports.ts';

export type GradeAnswer = (task: Task, response: string) => Promise<GradeResult>;

/** The grade closure of a run with `config` over `grader`; `tasks` gives each handler's variants. */
export function gradeClosure(config: Pick<RunConfig, 'grading' | 'extract'>, grader: Grader, tasks: readonly Task[]): GradeAnswer {
  const policy = gradingOf(config);
  return async (task, response) => {
    const text = answerForGrading(response, config.extract);
    const variants = policy.matrix ? tasks.filter((t) => t.handler === task.handler) : undefined;
    return grader(task, text, { timeoutMs: policy.timeoutMs, strict: policy.strict, ...(variants ? { variants } : {}) });
  };
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
