/**
 * The teacher view's state: the exercise being written (kept in
 * localStorage), the link made from it, and the learners' attempt files
 * imported into the course db, each of which can be graded again here.
 */
import { APP_VERSION } from '../lib/version.ts';
import { KERNEL_VERSION } from '../lib/content.ts';
import type { VerifierService } from '../state/verifier.svelte.ts';
import { type AttemptFile, attemptId, parseAttemptFile } from './attempt-file.ts';
import { gradeSpec } from './exercise.ts';
import { type ImportedAttempt, importedAttempts } from './progress-db.ts';
import { poolVerify } from './session.svelte.ts';
import { HEADER } from './spec-text.ts';
import { CourseFileError, type TeacherExercise, asExercise, parseTeacherExercise, teacherRoute } from './teacher-link.ts';

const DRAFT_KEY = 'osvlab.teacher.draft';

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
  solution: string;
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
  };
}

export type Regrade = { readonly kind: 'running' } | { readonly kind: 'done'; readonly passed: boolean; readonly message: string } | { readonly kind: 'error'; readonly message: string };

export class TeacherState {
  draft = $state<TeacherDraft>(blank());
  link = $state('');
  linkError = $state('');
  imports = $state.raw<readonly ImportedAttempt[]>([]);
  importErrors = $state.raw<readonly string[]>([]);
  importedCount = $state(0);
  regrades = $state<Record<string, Regrade>>({});

  constructor(private readonly verifier: VerifierService) {
    try {
      const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(DRAFT_KEY) : null;
      if (saved) this.draft = { ...blank(), ...(JSON.parse(saved) as Partial<TeacherDraft>) };
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

  resetDraft(): void {
    this.draft = blank();
    this.saveDraft();
  }

  /** The exercise the draft describes, validated as a learner's page will validate it. */
  exercise(): TeacherExercise {
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
      hints: d.hints.split('\n').map((h) => h.trim()).filter(Boolean),
      solution: d.solution.trim() ? d.solution : undefined,
      app: APP_VERSION,
      kernel: KERNEL_VERSION,
    });
  }

  async makeLink(location: Location = window.location): Promise<void> {
    this.linkError = '';
    this.link = '';
    try {
      this.link = `${location.origin}${location.pathname}#/${await teacherRoute(this.exercise())}`;
    } catch (e) {
      this.linkError = e instanceof Error ? e.message : String(e);
    }
  }

  async loadImports(): Promise<void> {
    this.imports = await importedAttempts.all().catch(() => []);
  }

  /** Imports attempt files; each bad file gets a line in importErrors, the good ones are kept. */
  async importFiles(files: readonly { name: string; text(): Promise<string> }[]): Promise<void> {
    const errors: string[] = [];
    let n = 0;
    for (const f of files) {
      try {
        const file: AttemptFile = await parseAttemptFile(await f.text());
        await importedAttempts.put({ id: await attemptId(file), importedAt: Date.now(), file });
        n++;
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

  /** Grades an imported answer again here, with this page's verifier. */
  async regrade(a: ImportedAttempt): Promise<void> {
    this.regrades = { ...this.regrades, [a.id]: { kind: 'running' } };
    try {
      const g = await gradeSpec(asExercise(a.file.exercise), a.file.answer, poolVerify(this.verifier));
      this.regrades = { ...this.regrades, [a.id]: { kind: 'done', passed: g.passed, message: g.message } };
    } catch (e) {
      this.regrades = { ...this.regrades, [a.id]: { kind: 'error', message: e instanceof Error ? e.message : String(e) } };
    }
  }
}
