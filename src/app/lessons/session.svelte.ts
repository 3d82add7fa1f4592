/**
 * One exercise being worked on: the answer (saved as it is typed), live
 * diagnostics, grading by the verifier pool, hints opened one at a time, and
 * the solution that opens after the first graded attempt. Used by course
 * lessons and teacher links alike; everything is saved in the course db.
 */
import { findTask } from '../../core/tasks/load.ts';
import type { Diagnostic } from '../../core/diagnostic.ts';
import type { DiffRequest, DiffVerdict } from '../../core/verify/equivalence.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { CancelledError } from '../../worker/web-pool.ts';
import { implSourceOf, oracleSpec } from '../lib/content.ts';
import type { VerifierService } from '../state/verifier.svelte.ts';
import { type Exercise, type ExerciseGrade, type VerifyFn, gradeExercise, starterOf } from './exercise.ts';
import { exerciseProgress } from './progress-db.ts';
import type { ExerciseProgress, GradedAttempt } from '../lib/storage.ts';

export type GradeState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'grading' }
  | { readonly kind: 'done'; readonly grade: ExerciseGrade }
  | { readonly kind: 'error'; readonly message: string };

export type ExerciseVerification =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'done'; readonly verdict: Verdict }
  | { readonly kind: 'error'; readonly message: string };

const LANE = 'lesson';

/**
 * Grading's verify function on the app's verifier service (its policy, the
 * playground's: a verdict that takes no query does not wait for Z3);
 * variants come from the task bundle. Requests in `lane` supersede each
 * other (the learner's newest check wins); with `null` they queue.
 */
export function poolVerify(verifier: VerifierService, lane: string | null = LANE): VerifyFn {
  return async (req) => {
    let implSource: string | undefined;
    if (req.variant) {
      const task = await findTask(req.variant);
      if (!task) throw new Error(`There is no implementation ${req.variant} in this version of OSVLab.`);
      implSource = implSourceOf(task);
    }
    return verifier.verify({ handler: req.handler, spec: req.spec, implSource, strict: req.strict, timeoutMs: req.strict ? 60_000 : 30_000 }, lane ? { lane } : {});
  };
}

export class ExerciseSession {
  answer = $state('');
  diagnostics = $state.raw<readonly Diagnostic[]>([]);
  grade = $state.raw<GradeState>({ kind: 'idle' });
  verification = $state.raw<ExerciseVerification>({ kind: 'idle' });
  attempts = $state(0);
  hintsOpened = $state(0);
  passed = $state(false);
  showSolution = $state(false);
  loaded = $state(false);
  /** The last grade's message, kept across reloads. */
  lastMessage = $state('');
  /** The answer came from the solution ("Put it in the editor") since the last Start over. */
  usedSolution = $state(false);
  /** How the exercise was passed (own answer wins over one that used the solution). */
  passedWith = $state<'own' | 'solution' | undefined>(undefined);
  /** The answer as it was when last graded (the counterexample's line numbers are its lines). */
  gradedAnswer = $state('');
  /** The last graded attempt, kept across reloads: what a teacher's exercise hands in. */
  lastGraded = $state.raw<GradedAttempt | undefined>(undefined);
  /** Where the editor should put its cursor (the spec line a counterexample names); `n` changes on every request. */
  reveal = $state<{ line: number; n: number }>({ line: 0, n: 0 });
  readonly solutionUnlocked = $derived(this.attempts > 0);
  private saveTimer?: ReturnType<typeof setTimeout>;
  private checkTimer?: ReturnType<typeof setTimeout>;
  private disposed = false;

  constructor(
    readonly key: string,
    readonly exercise: Exercise,
    private readonly verifier: VerifierService,
    private readonly onSaved: (p: ExerciseProgress) => void = () => {},
  ) {}

  async load(): Promise<void> {
    const saved = await exerciseProgress.get(this.key).catch(() => undefined);
    if (this.disposed) return;
    this.answer = saved?.answer ?? starterOf(this.exercise);
    this.passed = saved?.passed ?? false;
    this.attempts = saved?.attempts ?? 0;
    this.hintsOpened = Math.min(saved?.hintsOpened ?? 0, this.exercise.hints.length);
    this.lastMessage = saved?.lastMessage ?? '';
    this.usedSolution = saved?.usedSolution ?? false;
    this.passedWith = saved?.passedWith ?? (saved?.passed ? 'own' : undefined);
    this.lastGraded = saved?.lastGraded;
    this.loaded = true;
    this.scheduleLint();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.checkTimer);
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      void this.save();
    }
  }

  edit(text: string): void {
    if (text === this.answer) return;
    this.answer = text;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, 300);
    this.scheduleLint();
  }

  private scheduleLint(): void {
    if (this.exercise.kind !== 'spec') return;
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(async () => {
      try {
        const d = await this.verifier.check(this.answer, this.exercise.handler);
        if (!this.disposed) this.diagnostics = d;
      } catch {
        this.diagnostics = [];
      }
    }, 200);
  }

  private snapshot(): ExerciseProgress {
    return {
      key: this.key,
      answer: this.answer,
      passed: this.passed,
      attempts: this.attempts,
      hintsOpened: this.hintsOpened,
      lastMessage: this.lastMessage,
      usedSolution: this.usedSolution,
      ...(this.passedWith ? { passedWith: this.passedWith } : {}),
      ...(this.lastGraded ? { lastGraded: this.lastGraded } : {}),
      updatedAt: Date.now(),
    };
  }

  private async save(): Promise<void> {
    const p = this.snapshot();
    await exerciseProgress.put(p);
    this.onSaved(p);
  }

  openHint(): void {
    if (this.hintsOpened >= this.exercise.hints.length) return;
    this.hintsOpened++;
    void this.save();
  }

  /** The answer differs from the starter: Start over would replace work (the page asks first). */
  get changed(): boolean {
    return this.answer !== starterOf(this.exercise);
  }

  /** Puts the starter back (one undoable edit in the editor; Ctrl+Z brings the answer back). */
  reset(): void {
    this.usedSolution = false;
    this.edit(starterOf(this.exercise));
    this.grade = { kind: 'idle' };
    this.verification = { kind: 'idle' };
    void this.save();
  }

  /** Moves the editor's cursor to a line of the answer. */
  goToLine(line: number): void {
    this.reveal = { line, n: this.reveal.n + 1 };
  }

  toggleSolution(): void {
    if (this.solutionUnlocked) this.showSolution = !this.showSolution;
  }

  /** Copies the solution into the answer (a spec exercise), as a paste would. */
  useSolution(): void {
    if (!this.solutionUnlocked || this.exercise.solution === undefined) return;
    this.usedSolution = true;
    this.edit(this.exercise.solution);
  }

  /**
   * What Compare calls the reference: the exercise's solution, or the
   * kernel's reference spec where the answer is verified on the correct
   * kernel; none for a field exercise or a buggy target with no solution.
   */
  get reference(): string | undefined {
    const ex = this.exercise;
    if (ex.kind !== 'spec') return undefined;
    return ex.solution ?? (ex.verifyOn === undefined ? oracleSpec(ex.handler) : undefined);
  }

  /**
   * The reference is hidden while the learner cannot read the solution:
   * Compare then says only whether they differ, never a state (which would
   * show what the reference does).
   */
  get referenceHidden(): boolean {
    return !(this.solutionUnlocked && this.exercise.solution !== undefined);
  }

  /** Compares two specs by meaning in the verifier pool (Compare). */
  diff(req: DiffRequest): Promise<DiffVerdict> {
    return this.verifier.diff(req);
  }

  /** Field exercises: runs the given spec so the learner can read the counterexample. */
  async runSpec(): Promise<void> {
    if (this.exercise.kind !== 'field') return;
    const ex = this.exercise;
    this.verification = { kind: 'running' };
    try {
      const verdict = await poolVerify(this.verifier)({ handler: ex.handler, spec: ex.spec, variant: ex.impl, strict: ex.strict });
      if (!this.disposed) this.verification = { kind: 'done', verdict };
    } catch (e) {
      if (e instanceof CancelledError) return;
      this.verification = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Grades the answer with the real verifier; every graded check counts as an attempt. */
  async gradeAnswer(): Promise<ExerciseGrade | undefined> {
    if (this.exercise.kind === 'field' && !this.answer) {
      this.grade = { kind: 'error', message: 'Choose a field first.' };
      return undefined;
    }
    this.grade = { kind: 'grading' };
    this.gradedAnswer = this.answer;
    try {
      const graded = await gradeExercise(this.exercise, this.answer, poolVerify(this.verifier));
      const withSolution = graded.passed && this.usedSolution;
      const g = withSolution ? { ...graded, message: 'Passed with the solution put in: every check holds. Start over to write it on your own.' } : graded;
      if (this.disposed) return g;
      this.grade = { kind: 'done', grade: g };
      this.attempts++;
      this.lastMessage = g.message;
      this.lastGraded = {
        answer: this.gradedAnswer,
        passed: g.passed,
        withSolution: this.usedSolution,
        message: g.message,
        checks: g.checks.map((c) => ({ label: c.label, status: c.status })),
      };
      if (g.passed) {
        this.passed = true;
        this.passedWith = withSolution && this.passedWith !== 'own' ? 'solution' : 'own';
      }
      await this.save();
      return g;
    } catch (e) {
      if (e instanceof CancelledError) return undefined;
      this.grade = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
      return undefined;
    }
  }
}
