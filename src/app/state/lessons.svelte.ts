/**
 * Learn: the course (lesson list, the open lesson and exercise, progress per
 * exercise) and teacher-link exercises. The exercise being worked on is an
 * ExerciseSession (lessons/session.svelte.ts); everything is saved in the
 * course's IndexedDB store, so nothing is lost on reload.
 */
import { COURSE, type LessonEntry, findLesson } from '../lessons/catalog.ts';
import type { Lesson } from '../lessons/lesson.ts';
import { exerciseProgress } from '../lessons/progress-db.ts';
import type { ExerciseProgress } from '../lib/storage.ts';
import { ExerciseSession } from '../lessons/session.svelte.ts';
import { type TeacherExercise, asExercise, exerciseId, readTeacherLink } from '../lessons/teacher-link.ts';
import type { VerifierService } from './verifier.svelte.ts';

export type LessonView =
  | { readonly kind: 'loading' }
  | { readonly kind: 'lesson'; readonly entry: LessonEntry; readonly lesson: Lesson; readonly index: number }
  | { readonly kind: 'shared'; readonly exercise: TeacherExercise; readonly id: string }
  | { readonly kind: 'error'; readonly message: string; readonly code?: string };

/** What the lesson list shows of an exercise's progress. */
export interface Passing {
  readonly passed: boolean;
  readonly attempts: number;
  readonly passedWith?: 'own' | 'solution';
}

function passing(p: ExerciseProgress): Passing {
  return { passed: p.passed, attempts: p.attempts, passedWith: p.passed ? (p.passedWith ?? 'own') : undefined };
}

/** Progress key of a course exercise. */
export const courseKey = (lesson: string, exercise: string) => `${lesson}/${exercise}`;
/** Progress key of a teacher exercise. */
const sharedKey = (id: string) => `t/${id}`;

export class LessonsState {
  readonly course = COURSE;
  view = $state.raw<LessonView>({ kind: 'loading' });
  session = $state.raw<ExerciseSession | undefined>();
  /** Per exercise key: passed (and how) and attempts, for the lesson list. */
  progress = $state<Record<string, Passing>>({});
  readonly totalExercises = COURSE.reduce((n, e) => n + e.exercises.length, 0);
  readonly doneCount = $derived(COURSE.reduce((n, e) => n + e.exercises.filter((x) => this.progress[courseKey(e.id, x)]?.passed).length, 0));
  /** Passed only with the solution put in. */
  readonly withSolutionCount = $derived(
    COURSE.reduce((n, e) => n + e.exercises.filter((x) => this.progress[courseKey(e.id, x)]?.passedWith === 'solution').length, 0),
  );
  /** Some exercise of the course has been passed or tried. */
  readonly started = $derived(Object.entries(this.progress).some(([k, p]) => !k.startsWith('t/') && (p.passed || p.attempts > 0)));
  /** The first exercise not passed yet, with its lesson: where the learner left off. */
  readonly resumeAt = $derived.by(() => {
    for (const [i, e] of COURSE.entries()) {
      const at = e.exercises.findIndex((x) => !this.progress[courseKey(e.id, x)]?.passed);
      if (at >= 0) return { lesson: e, position: i + 1, exercise: e.exercises[at], index: at };
    }
    return undefined;
  });
  private opening = 0;

  constructor(private readonly verifier: VerifierService) {}

  async loadProgress(): Promise<void> {
    const all = await exerciseProgress.all().catch(() => []);
    this.progress = Object.fromEntries(all.map((p) => [p.key, passing(p)]));
  }

  lessonDone(e: LessonEntry): number {
    return e.exercises.filter((x) => this.progress[courseKey(e.id, x)]?.passed).length;
  }

  private saved = (p: ExerciseProgress) => {
    this.progress = { ...this.progress, [p.key]: passing(p) };
  };

  private swap(s: ExerciseSession | undefined): void {
    this.session?.dispose();
    this.session = s;
    if (s) void s.load();
  }

  /** Opens a lesson (unknown ids open the first) at an exercise (by id; default the first). */
  async openLesson(id: string | undefined, exercise?: string): Promise<void> {
    const n = ++this.opening;
    const entry = (id && findLesson(id)) || COURSE[0];
    if (this.view.kind === 'lesson' && this.view.entry === entry) {
      this.showExercise(exercise);
      return;
    }
    this.view = { kind: 'loading' };
    try {
      const lesson = await entry.load();
      if (n !== this.opening) return;
      this.view = { kind: 'lesson', entry, lesson, index: 0 };
      this.showExercise(exercise);
    } catch (e) {
      if (n === this.opening) this.view = { kind: 'error', message: `This lesson could not be loaded: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  private showExercise(exercise: string | undefined): void {
    const v = this.view;
    if (v.kind !== 'lesson') return;
    const found = v.lesson.exercises.findIndex((x) => x.id === exercise);
    const index = found >= 0 ? found : 0;
    const ex = v.lesson.exercises[index];
    const key = courseKey(v.entry.id, ex.id);
    if (this.session?.key === key) return;
    this.view = { ...v, index };
    this.swap(new ExerciseSession(key, ex, this.verifier, this.saved));
  }

  /** Opens a teacher link's exercise from its fragment payload. */
  async openShared(payload: string): Promise<void> {
    const n = ++this.opening;
    this.view = { kind: 'loading' };
    this.swap(undefined);
    try {
      const t = await readTeacherLink(payload);
      const id = await exerciseId(t);
      if (n !== this.opening) return;
      this.view = { kind: 'shared', exercise: t, id };
      this.swap(new ExerciseSession(sharedKey(id), asExercise(t), this.verifier, this.saved));
    } catch (e) {
      if (n !== this.opening) return;
      const code = (e as { code?: string }).code;
      this.view = { kind: 'error', message: e instanceof Error ? e.message : String(e), code };
    }
  }

  /** Leaves exercises (the teacher view has none). */
  close(): void {
    ++this.opening;
    this.swap(undefined);
    this.view = { kind: 'loading' };
  }
}
