/**
 * Why an answer failed, in one line, from its grade's diagnosis (grade.ts
 * writes it for the repair prompt): the error's code, position and message
 * for a spec error ("SPEC014 at line 1, column 1: no entry function for
 * sys_map_pml4: define 'sys_map_pml4'"), the failing obligations for a
 * refutation, the diagnosis's first line otherwise. The pages show it beside
 * the outcome, so a failure says why without opening the playground.
 */

const SPEC_ERROR = 'The spec could not be evaluated: error ';
const REFUTED = /^The spec does not match the kernel's behaviour\. Failing obligations: (.*)\.$/;

/** The reason of a failed grade in one line; undefined for a pass or a grade without a diagnosis. */
export function failureReason(grade: { readonly category: string; readonly diagnosis?: string }): string | undefined {
  if (grade.category === 'pass') return undefined;
  const first = (grade.diagnosis ?? '').split('\n', 1)[0].trim();
  if (!first) return undefined;
  if (first.startsWith(SPEC_ERROR)) return first.slice(SPEC_ERROR.length);
  const refuted = REFUTED.exec(first);
  if (refuted) return `failed: ${refuted[1]}`;
  return first;
}
