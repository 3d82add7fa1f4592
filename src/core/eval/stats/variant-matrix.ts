/**
 * The variant matrix of a run graded with it (`--matrix`, the Evaluate
 * page's checkbox): each first answer's verdict on every implementation
 * variant of its handler. A spec that catches the bugs verifies the correct
 * implementation and is refuted by each buggy one; one that a buggy variant
 * also satisfies misses that variant's bug. `osvlab report` prints the
 * counts, the Runs page the counts and the table (docs/design.md).
 */
import type { VerdictStatus } from '../../verify/verdict.ts';
import type { AttemptRecord } from '../run/run-types.ts';

export interface MatrixRow {
  readonly taskId: string;
  readonly sample: number;
  /** Every variant of the handler, in id order, with the answer's verdict on it. */
  readonly cells: readonly { readonly variant: string; readonly correct: boolean; readonly status: VerdictStatus }[];
}

export interface MatrixSummary {
  /** First answers graded with the matrix. */
  readonly answers: number;
  /** Of these, those that verify every correct variant. */
  readonly correct: number;
  /** Of those, the ones refuted by every buggy variant (they catch every bug). */
  readonly catchAll: number;
  /** Of those, the ones some buggy variant satisfies too (they miss a bug). */
  readonly missSome: number;
  readonly rows: readonly MatrixRow[];
}

/** The matrix of `attempts`' graded first answers; `isCorrect` tells a correct variant (no bugs) by its task id. */
export function variantMatrix(attempts: readonly AttemptRecord[], isCorrect: (taskId: string) => boolean): MatrixSummary {
  const rows: MatrixRow[] = [];
  for (const a of attempts) {
    const m = a.round === 0 ? a.grade?.matrix : undefined;
    if (!m) continue;
    const cells = Object.keys(m)
      .sort()
      .map((variant) => ({ variant, correct: isCorrect(variant), status: m[variant] }));
    rows.push({ taskId: a.taskId, sample: a.sample, cells });
  }
  rows.sort((x, y) => (x.taskId < y.taskId ? -1 : x.taskId > y.taskId ? 1 : x.sample - y.sample));
  const correct = rows.filter((r) => r.cells.some((c) => c.correct) && r.cells.every((c) => !c.correct || c.status === 'verified'));
  const catchAll = correct.filter((r) => r.cells.every((c) => c.correct || c.status === 'refuted')).length;
  const missSome = correct.filter((r) => r.cells.some((c) => !c.correct && c.status === 'verified')).length;
  return { answers: rows.length, correct: correct.length, catchAll, missSome, rows };
}

/** The counts in words, as `report` prints them and the Runs page shows them. */
export function matrixText(m: MatrixSummary): string {
  if (m.answers === 0) return 'no first answer was checked on the variants yet';
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return `${n(m.answers, 'first answer', 'first answers')} checked on every variant of its handler: ${m.correct} verif${m.correct === 1 ? 'ies' : 'y'} the correct implementation; of these, ${n(m.catchAll, 'is', 'are')} refuted by every buggy variant and ${n(m.missSome, 'also verifies', 'also verify')} a buggy one (missing its bug)`;
}
