/**
 * The teacher view's state: the exercise being written (kept in
 * localStorage, with the link last made from it), and the learners' attempt
 * files imported into the course db. An attempt is graded here when it is
 * imported (and again when this app's version changes): that grade is the
 * result; what the file says about itself is only the learner's claim.
 */
import { APP_VERSION } from '../lib/version.ts';
import { KERNEL_VERSION } from '../lib/content.ts';
import type { VerifierService } from '../state/verifier.svelte.ts';
import { type AttemptFile, attemptId, attemptsExport, parseAttemptFile } from './attempt-file.ts';
import { gradeAttempt } from './attempt-grade.ts';
import { gradeSpec } from './exercise.ts';
import { authoredExercises, importedAttempts } from './progress-db.ts';
import type { ImportedAttempt } from '../lib/storage.ts';
import { poolVerify } from './session.svelte.ts';
import { HEADER } from './spec-text.ts';
import { CourseFileError, TEACHER_LINK_ROUTE, type TeacherExercise, asExercise, exerciseId, parseTeacherExercise, readTeacherLink, teacherRoute } from './teacher-link.ts';

const DRAFT_KEY = 'osvlab.teacher.draft';
/** The link made from the draft, with the draft it was made from (the link is shown again only for that draft). */
const LINK_KEY = 'osvlab.teacher.link';

export interface TeacherDraft {
  title: string;
  prompt: string;
  handler: string;
  variant: string;
  starter: string;
  refuteOn: string[];
  strict: boolean;
  hideChecks: boolean;
  /** One hint per line. */
  hints: string;
  /** Checked against the exercise when the link is made; in the link only with `shipSolution`. */
  solution: string;
  /** Put the solution in the link (learners see it after a first attempt). */
  shipSolution: boolean;
  /** Show learners what the buggy implementations change, even with hidden checks. */
  showBugs: boolean;
}

function blank(): TeacherDraft {
  return {
    title: 'Catch the bug in sys_alloc_vector',
    prompt: 'Write the spec of sys_alloc_vector. It must be verified against the correct kernel and catch the buggy variant.',
    handler: 'sys_alloc_vector',
    variant: '',
    starter: `${HEADER}\n\ndef sys_alloc_vector(old, vector):\n    cond = z3.BoolVal(True)\n    new = old.copy()\n\n    return cond, util.If(cond, new, old)\n`,
    refuteOn: ['sys_alloc_vector-v2'],
    strict: false,
    hideChecks: false,
    hints: 'A vector can be taken only when it is free.\nThe caller becomes the owner and owns one more vector.',
    solution: '',
    shipSolution: false,
    showBugs: true,
  };
}

export type Regrade =
  | { readonly kind: 'running' }
  | { readonly kind: 'done'; readonly passed: boolean; readonly message: string }
  /** The file's own copy of the exercise differs from the teacher's: never a pass. */
  | { readonly kind: 'flagged'; readonly passed: false; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

export class TeacherState {
  draft = $state<TeacherDraft>(blank());
  link = $state('');
  linkError = $state('');
  /** What "Make the link" is checking, or what it found worth saying. */
  linkNote = $state('');
  checking = $state(false);
  imports = $state.raw<readonly ImportedAttempt[]>([]);
  importErrors = $state.raw<readonly string[]>([]);
  importedCount = $state(0);
  regrades = $state<Record<string, Regrade>>({});

  constructor(private readonly verifier: VerifierService) {
    try {
      const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(DRAFT_KEY) : null;
      if (saved) this.draft = { ...blank(), ...(JSON.parse(saved) as Partial<TeacherDraft>) };
      const made = saved ? localStorage.getItem(LINK_KEY) : null;
      const m = made ? (JSON.parse(made) as { link?: unknown; draft?: unknown }) : undefined;
      if (m && typeof m.link === 'string' && m.draft === JSON.stringify(this.draft)) {
        this.link = m.link;
        this.linkNote = 'The link you made from this draft (the draft has not changed since).';
      }
    } catch {
      // A damaged draft is replaced by the example.
    }
  }

  saveDraft(): void {
    this.link = '';
    try {
      localStorage.setItem(DRAFT_KEY, JSON.stringify(this.draft));
    } catch {
      // Storage full or disabled: the draft lives until the page closes.
    }
  }

  /** Keeps the link beside the draft it was made from. */
  private keepLink(): void {
    try {
      localStorage.setItem(LINK_KEY, JSON.stringify({ link: this.link, draft: JSON.stringify(this.draft) }));
    } catch {
      // Not kept: the draft still is, and the link can be made again.
    }
  }

  resetDraft(): void {
    this.draft = blank();
    this.saveDraft();
  }

  /** The exercise the draft describes, validated as a learner's page will validate it; with the solution when `withSolution`. */
  exercise(withSolution = this.draft.shipSolution): TeacherExercise {
    const d = this.draft;
    return parseTeacherExercise({
      v: 1,
      kind: 'osvlab-exercise',
      title: d.title.trim(),
      prompt: d.prompt.trim(),
      handler: d.handler,
      variant: d.variant || undefined,
      starter: d.starter,
      refuteOn: d.refuteOn,
      strict: d.strict,
      hideChecks: d.hideChecks,
      showBugs: d.showBugs,
      hints: d.hints.split('\n').map((h) => h.trim()).filter(Boolean),
      solution: withSolution && d.solution.trim() ? d.solution : undefined,
      app: APP_VERSION,
      kernel: KERNEL_VERSION,
    });
  }

  /**
   * Checks the exercise with the verifier, then makes its link: the title is
   * there, the solution (when written) passes every check, and the starter
   * does not (or there is nothing to do). The exercise is kept here, so
   * learners' attempts can be graded against it.
   */
  async makeLink(location: Location = window.location): Promise<void> {
    if (this.checking) return;
    this.linkError = '';
    this.linkNote = '';
    this.link = '';
    try {
      if (!this.draft.title.trim()) throw new Error('Give the exercise a title: it is what learners and the attempts list show.');
      const shipped = this.exercise();
      const full = asExercise(this.exercise(true));
      const verify = poolVerify(this.verifier, null);
      this.checking = true;
      if (full.solution !== undefined) {
        this.linkNote = 'Checking that the solution passes every check…';
        const g = await gradeSpec(full, full.solution, verify);
        if (!g.passed) throw new Error(`The solution does not pass its own checks: ${g.message}`);
      }
      this.linkNote = 'Checking that the starter does not pass already…';
      const s = await gradeSpec(full, full.starter, verify);
      if (s.passed) throw new Error('The starter already passes every check: there is nothing for the learner to do.');
      this.linkNote =
        full.solution === undefined
          ? 'No solution written, so nobody has checked that this exercise can be passed.'
          : 'Checked: your solution passes every check, and the starter does not.';
      await authoredExercises.put({ id: await exerciseId(shipped), exercise: shipped, savedAt: Date.now() });
      this.link = `${location.origin}${location.pathname}#/${await teacherRoute(shipped)}`;
      this.keepLink();
    } catch (e) {
      this.linkNote = '';
      this.linkError = e instanceof Error ? e.message : String(e);
    } finally {
      this.checking = false;
    }
  }

  /** Keeps an exercise opened from its link (made elsewhere), so its attempts can be graded here. */
  async addExerciseLink(text: string): Promise<void> {
    this.linkError = '';
    const at = text.indexOf(TEACHER_LINK_ROUTE);
    try {
      const t = await readTeacherLink(at >= 0 ? text.slice(at + TEACHER_LINK_ROUTE.length).trim() : text.trim());
      const id = await exerciseId(t);
      await authoredExercises.put({ id, exercise: t, savedAt: Date.now() });
      this.importErrors = [];
      this.linkNote = `Kept "${t.title}": its attempts can be graded here.`;
      // Its attempts that could not be graded for want of it are graded now.
      await Promise.all(this.imports.filter((a) => a.file.exerciseId === id && this.regrades[a.id]?.kind !== 'done').map((a) => this.regrade(a)));
    } catch (e) {
      this.importErrors = [`The exercise link: ${e instanceof Error ? e.message : String(e)}`];
    }
  }

  /** Reads the imported attempts; those not yet graded by this version of the app are graded now. */
  async loadImports(): Promise<void> {
    this.imports = await importedAttempts.all().catch(() => []);
    const regrades = { ...this.regrades };
    for (const a of this.imports) {
      if (!regrades[a.id] && a.graded?.app === APP_VERSION) {
        regrades[a.id] = a.graded.flagged ? { kind: 'flagged', passed: false, message: a.graded.message } : { kind: 'done', passed: a.graded.passed, message: a.graded.message };
      }
    }
    this.regrades = regrades;
    // Not awaited: the table shows at once, each row's grade as it comes.
    void Promise.all(this.imports.filter((a) => !this.regrades[a.id]).map((a) => this.regrade(a)));
  }

  /** Imports attempt files; each bad file gets a line in importErrors, the good ones are kept. */
  async importFiles(files: readonly { name: string; text(): Promise<string> }[]): Promise<void> {
    const errors: string[] = [];
    let n = 0;
    for (const f of files) {
      try {
        for (const read of await parseAttemptFile(await f.text())) {
          await importedAttempts.put({ id: await attemptId(read.file), importedAt: Date.now(), ...read });
          n++;
        }
      } catch (e) {
        errors.push(`${f.name}: ${e instanceof CourseFileError ? e.message : `could not be read (${e instanceof Error ? e.message : String(e)})`}`);
      }
    }
    this.importErrors = errors;
    this.importedCount = n;
    await this.loadImports();
  }

  async remove(id: string): Promise<void> {
    await importedAttempts.remove(id);
    await this.loadImports();
  }

  /** Every imported attempt, as one file that imports again. */
  exportAll(): ReturnType<typeof attemptsExport> {
    return attemptsExport(this.imports.map((a): AttemptFile => a.file));
  }

  /** Grades every imported answer again (queued on the verifier pool). */
  async regradeAll(): Promise<void> {
    await Promise.all(this.imports.map((a) => this.regrade(a)));
  }

  /**
   * Grades an imported answer again here, with this page's verifier, against
   * the teacher's own exercise (made here or added by its link), never a copy
   * an old file carries. A grading already running for it is left to finish.
   */
  async regrade(a: ImportedAttempt): Promise<void> {
    if (this.regrades[a.id]?.kind === 'running') return;
    this.regrades = { ...this.regrades, [a.id]: { kind: 'running' } };
    try {
      // No lane: gradings queue on the pool instead of superseding each other.
      const lookup = { byId: async (id: string) => (await authoredExercises.get(id))?.exercise, all: async () => (await authoredExercises.all()).map((e) => e.exercise) };
      const g = await gradeAttempt(a.file, a.exercise, lookup, poolVerify(this.verifier, null));
      this.regrades = { ...this.regrades, [a.id]: g };
      await importedAttempts.put({ ...a, graded: { passed: g.passed, message: g.message, app: APP_VERSION, ...(g.kind === 'flagged' ? { flagged: true } : {}) } });
    } catch (e) {
      this.regrades = { ...this.regrades, [a.id]: { kind: 'error', message: e instanceof Error ? e.message : String(e) } };
    }
  }
}
