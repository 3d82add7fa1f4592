/**
 * The grade closure of a run: how an answer of a run with this config is
 * graded, the same in the page and the CLI. This is where an answer is
 * read: its spec is extracted once, as the run says (`extract`), and in a
 * renamed run (docs/rename.md) renamed back to hv6's names, so the verifier
 * grades it unchanged; the grader is sent that spec, never the answer. The
 * grade's `extracted` is that text, beside the answer as the model wrote
 * it. The spec is graded with the run's time limit and strict setting, and
 * against all five variants of its handler only when the run asked for the
 * matrix.
 */
import type { Task } from '../../tasks/task.ts';
import { loadNameFilter, mayNeedNameFilter } from '../../dialect/unicode-names.ts';
import type { RenameChoice } from '../../rename/choice.ts';
import { extractSpec, specText } from '../grade/answer.ts';
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
    const read = extractSpec(response, config.extract);
    const spec = rename && read !== null ? await renamedBack(read, rename) : read;
    const variants = policy.matrix ? tasks.filter((t) => t.handler === task.handler) : undefined;
    return grader(task, spec, { timeoutMs: policy.timeoutMs, strict: policy.strict, ...(variants ? { variants } : {}), ...(signal ? { signal } : {}) });
  };
}

/**
 * A renamed answer's spec in hv6's names. The lens is loaded only for a renamed run, and the Unicode names only for
 * a spec with a `\N{...}` escape, which the lens lexes (docs/design.md, "The worker's first code").
 */
async function renamedBack(spec: string, choice: RenameChoice): Promise<string> {
  if (mayNeedNameFilter(spec)) await loadNameFilter();
  const { lensFor } = await import('../../rename/lens.ts');
  return specText(lensFor(choice).inverse.codeText(spec, 'python'));
}

/** `grade`, with a throw turned into an `internal` grade (the grader's failure, never a lost answer). */
export function neverThrows(grade: GradeAnswer): GradeAnswer {
  return async (task, response) => {
    try {
      return await grade(task, response);
    } catch (e) {
      return internalGrade(extractSpec(response), e instanceof Error ? e.message : String(e));
    }
  };
}
