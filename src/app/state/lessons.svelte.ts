/**
 * Learn: which lesson is open, the learner's answer (saved as they type),
 * grading by the verifier, and progress, all kept in IndexedDB.
 */
import type { Diagnostic } from '../../core/span.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { CancelledError } from '../../worker/pool.ts';
import { lessonProgress } from '../lib/db.ts';
import { LESSONS, type Lesson, lesson as findLesson } from '../lessons/lessons.ts';
import type { VerifierService } from './verifier.svelte.ts';

export type Grade =
  | { readonly kind: 'idle' }
  | { readonly kind: 'grading' }
  | { readonly kind: 'passed'; readonly verdict: Verdict }
  /** `against` says which implementation gave the verdict that failed the answer. */
  | { readonly kind: 'failed'; readonly verdict: Verdict; readonly against: 'kernel' | 'buggy'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

const LANE = 'lesson';

export class LessonsState {
  current = $state.raw<Lesson>(LESSONS[0]);
  answer = $state(LESSONS[0].exercise.starter);
  diagnostics = $state.raw<readonly Diagnostic[]>([]);
  grade = $state<Grade>({ kind: 'idle' });
  passed = $state<Record<string, boolean>>({});
  showHint = $state(false);
  loaded = $state(false);
  private saveTimer?: ReturnType<typeof setTimeout>;
  private checkTimer?: ReturnType<typeof setTimeout>;

  readonly lessons = LESSONS;
  readonly doneCount = $derived(LESSONS.filter((l) => this.passed[l.id]).length);

  constructor(private readonly verifier: VerifierService) {}

  async loadProgress(): Promise<void> {
    const all = await lessonProgress.all();
    this.passed = Object.fromEntries(all.map((p) => [p.lesson, p.passed]));
  }

  async open(id: string): Promise<void> {
    const l = findLesson(id) ?? LESSONS[0];
    this.loaded = false;
    this.current = l;
    this.grade = { kind: 'idle' };
    this.showHint = false;
    const saved = await lessonProgress.get(l.id);
    if (this.current !== l) return;
    this.answer = saved?.spec ?? l.exercise.starter;
    this.loaded = true;
    this.scheduleCheck();
  }

  edit(text: string): void {
    if (text === this.answer) return;
    this.answer = text;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(this.passed[this.current.id] ?? false), 400);
    this.scheduleCheck();
  }

  private scheduleCheck(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(async () => {
      try {
        this.diagnostics = await this.verifier.check(this.answer, this.current.exercise.handler);
      } catch {
        this.diagnostics = [];
      }
    }, 200);
  }

  private save(passed: boolean) {
    return lessonProgress.put({ lesson: this.current.id, passed, spec: this.answer, updatedAt: Date.now() });
  }

  reset(): void {
    this.edit(this.current.exercise.starter);
    this.grade = { kind: 'idle' };
  }

  /** Grades the answer: verified against the kernel, and refuted against the injected bug when there is one. */
  async check(): Promise<void> {
    const l = this.current;
    const ex = l.exercise;
    this.grade = { kind: 'grading' };
    try {
      await this.verifier.warm();
      if (this.verifier.status.kind === 'no-isolation' || this.verifier.status.kind === 'failed') throw new Error(this.verifier.status.message);
      const onKernel = await this.verifier.pool.verify({ handler: ex.handler, spec: this.answer, timeoutMs: 60_000 }, { lane: LANE });
      if (onKernel.status !== 'verified') {
        this.grade = { kind: 'failed', verdict: onKernel, against: 'kernel', message: 'Not yet: the kernel does not refine this spec.' };
        return;
      }
      if (ex.injectedBug) {
        const onBug = await this.verifier.pool.verify(
          { handler: ex.handler, spec: this.answer, implSource: ex.injectedBug.implSource, timeoutMs: 60_000 },
          { lane: LANE },
        );
        if (onBug.status !== 'refuted') {
          this.grade = { kind: 'failed', verdict: onBug, against: 'buggy', message: 'Verified against the kernel, but the buggy kernel is not caught.' };
          return;
        }
      }
      this.grade = { kind: 'passed', verdict: onKernel };
      this.passed = { ...this.passed, [l.id]: true };
      await this.save(true);
    } catch (e) {
      if (e instanceof CancelledError) return;
      this.grade = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }
}
