/**
 * A class's attempts at each exercise grouped into behaviours, for the
 * teacher view: answers that mean the same (core/verify/equivalence.ts, in
 * the verifier worker) are one group, with its count, who is in it, and one
 * state where it differs from the reference (the handler's oracle spec).
 * Each answer is compared with the reference first, then with the first
 * answer of each group so far; an answer that does not run, or whose
 * comparison is undecided, is a group of its own (never merged on a guess).
 */
import type { DiffRequest, DiffVerdict, DiffWitness } from '../../core/verify/equivalence.ts';
import type { ImportedAttempt } from '../lib/storage.ts';

export interface Behaviour {
  /** The same meaning as the reference. */
  readonly asReference: boolean;
  /** Learners' names (or '(no name)'), in import order. */
  readonly learners: readonly string[];
  /** Where the group's first answer and the reference differ (A: the reference, B: the answer). */
  readonly witness?: DiffWitness;
  /** Why the group has no witness: the answer's error, or an undecided comparison. */
  readonly note?: string;
}

export interface ExerciseBehaviours {
  readonly exercise: string;
  readonly handler: string;
  /** Largest first; of equal size, the reference's behaviour first. */
  readonly groups: readonly Behaviour[];
}

interface Group {
  answer: string;
  asReference: boolean;
  learners: string[];
  witness?: DiffWitness;
  note?: string;
  /** Compared only by its text (it does not run, or was undecided). */
  textOnly: boolean;
}

export class BehaviourGroups {
  result = $state.raw<readonly ExerciseBehaviours[]>([]);
  running = $state(false);
  error = $state('');

  /** `run` compares two specs in the verifier worker; `reference` gives a handler's oracle spec. */
  constructor(
    private readonly run: (req: DiffRequest) => Promise<DiffVerdict>,
    private readonly reference: (handler: string) => string | undefined,
  ) {}

  /** Groups `imports` per exercise (by title and handler). */
  async group(imports: readonly ImportedAttempt[]): Promise<void> {
    this.running = true;
    this.error = '';
    try {
      const byExercise = new Map<string, ImportedAttempt[]>();
      for (const a of imports) {
        const key = `${a.file.exerciseId}`;
        byExercise.set(key, [...(byExercise.get(key) ?? []), a]);
      }
      const out: ExerciseBehaviours[] = [];
      for (const list of byExercise.values()) out.push(await this.groupOne(list));
      this.result = out;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.running = false;
    }
  }

  private async groupOne(list: readonly ImportedAttempt[]): Promise<ExerciseBehaviours> {
    const { handler, title } = list[0].file.exercise;
    const ref = this.reference(handler);
    const groups: Group[] = [];
    for (const a of list) {
      const who = a.file.learner || '(no name)';
      const answer = a.file.answer;
      const same = groups.find((g) => g.answer === answer);
      if (same) {
        same.learners.push(who);
        continue;
      }
      if (ref === undefined) {
        groups.push({ answer, asReference: false, learners: [who], note: 'no reference spec to compare with', textOnly: true });
        continue;
      }
      const v = await this.run({ handler, a: ref, b: answer, ghost: false });
      if (v.status === 'equivalent') {
        const home = groups.find((g) => g.asReference);
        if (home) home.learners.push(who);
        else groups.push({ answer, asReference: true, learners: [who], textOnly: false });
        continue;
      }
      if (v.status !== 'different') {
        const note = v.status === 'spec-error' ? `the answer has an error at line ${v.error.span.line}: ${v.error.code} ${v.error.message}` : `undecided (${v.status})`;
        groups.push({ answer, asReference: false, learners: [who], note, textOnly: true });
        continue;
      }
      let home: Group | undefined;
      for (const g of groups) {
        if (g.asReference || g.textOnly) continue;
        const w = await this.run({ handler, a: g.answer, b: answer, ghost: false });
        if (w.status === 'equivalent') {
          home = g;
          break;
        }
      }
      if (home) home.learners.push(who);
      else groups.push({ answer, asReference: false, learners: [who], witness: v.witness, textOnly: false });
    }
    // Largest first; of equal size, the reference's behaviour first.
    const sorted = groups.sort((x, y) => y.learners.length - x.learners.length || Number(y.asReference) - Number(x.asReference));
    return {
      exercise: title,
      handler,
      groups: sorted.map((g) => ({ asReference: g.asReference, learners: g.learners, ...(g.witness ? { witness: g.witness } : {}), ...(g.note ? { note: g.note } : {}) })),
    };
  }
}
