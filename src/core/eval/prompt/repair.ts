/**
 * The repair round: the conversation so far, the model's failed answer, and
 * what the verifier says about it, in one of three feedback modes
 * (docs/research.md):
 *
 * - `counterexample` (the default): the full diagnosis, i.e. the failing
 *   obligations, the arguments and state cells of the counterexample, the
 *   spec line, and the spec's warnings;
 * - `verdict`: the grade's category and the names of the failing
 *   obligations, no values;
 * - `none`: only that the specification is not correct.
 *
 * A syntax failure always gets its coded diagnostic, whatever the mode: an
 * answer the verifier cannot read has no verdict to withhold. In a renamed
 * run the message is renamed forward like the prompt (docs/rename.md), so
 * it names the fields and handlers the model was shown. The prompt's
 * text keys the response cache, so the counterexample wording must not
 * change (test/eval/prompt has its golden file).
 */
import type { ChatMessage } from '../../llm/types.ts';
import type { GradeResult } from '../grade/grade-types.ts';
import type { FeedbackMode } from '../run/run-types.ts';

/** What a repair message needs of a failed answer's grade. */
export type FailedGrade = Pick<GradeResult, 'category' | 'diagnosis' | 'verdict'>;

const HEAD = 'The verifier did not accept this specification.';
const FIX = 'Correct the specification so that it matches the functional description exactly, keeping what was already right.';
const CEX_HINT = 'A counterexample names the arguments and state cells where your specification and the kernel disagree: check the condition and every field the call changes there.';
const ANSWER = 'Answer again with one ```python block holding the complete module.';

/** What each failing category means, in the `verdict` mode's words. */
const CATEGORY_TEXT: Readonly<Record<string, string>> = {
  semantic: 'it evaluates, but it does not match the kernel (semantic)',
  timeout: 'the verifier ran out of time on it (timeout)',
  unknown: 'the solver could not decide it (unknown)',
};

/** The names of the obligations that did not hold: failed ones, else those left open (timeout, unknown). */
function failingObligations(grade: FailedGrade): readonly string[] {
  const v = grade.verdict;
  if (!v || v.status === 'verified' || v.status === 'spec-error') return [];
  if (v.status === 'refuted') return v.failed;
  return v.obligations.filter((o) => o.status !== 'proved').map((o) => o.name);
}

/** The user message of a repair round for `grade` in `mode`. */
export function repairMessage(grade: FailedGrade, mode: FeedbackMode): string {
  if (mode === 'counterexample' || grade.category === 'syntax') return diagnosisMessage(grade.diagnosis, mode === 'counterexample');
  if (mode === 'none') return `The specification is not correct; try again. ${ANSWER}`;
  const names = failingObligations(grade);
  const what = CATEGORY_TEXT[grade.category] ?? `its grade is ${grade.category}`;
  return [`${HEAD.slice(0, -1)}: ${what}.${names.length ? ` Failing obligations: ${names.join(', ')}.` : ''}`, '', `${FIX} ${ANSWER}`].join('\n');
}

/** The verifier's diagnosis as a repair message; `hint` adds how to read a counterexample. */
function diagnosisMessage(diagnosis: string, hint: boolean): string {
  return [`${HEAD} Its diagnosis:`, '', diagnosis.trim(), '', [FIX, ...(hint ? [CEX_HINT] : []), ANSWER].join(' ')].join('\n');
}

/**
 * The next round of a conversation after a failed answer, with the
 * verifier's full diagnosis (the `counterexample` mode): the original
 * messages, the model's answer, and the diagnosis with an instruction to
 * fix it.
 */
export function buildRepairPrompt(original: readonly ChatMessage[], answer: string, diagnosis: string): ChatMessage[] {
  return continued(original, answer, diagnosisMessage(diagnosis, true));
}

/** The next round after a failed answer, telling the model what `mode` lets it know of `grade`. */
export function repairPrompt(original: readonly ChatMessage[], answer: string, grade: FailedGrade, mode: FeedbackMode): ChatMessage[] {
  return continued(original, answer, repairMessage(grade, mode));
}

/**
 * The run loop's repair prompt builder for a feedback mode: the loop passes
 * the failed answer's diagnosis and the grade it came from; `rename` turns
 * the new message into the run's renaming.
 */
export function repairPromptBuilder(
  mode: FeedbackMode,
  rename: (message: string) => string = (m) => m,
): (original: readonly ChatMessage[], answer: string, diagnosis: string, grade: FailedGrade) => ChatMessage[] {
  return (original, answer, _diagnosis, grade) => continued(original, answer, rename(repairMessage(grade, mode)));
}

function continued(original: readonly ChatMessage[], answer: string, message: string): ChatMessage[] {
  return [...original, { role: 'assistant', content: answer }, { role: 'user', content: message }];
}
