/**
 * The course: lessons in order, each loaded on demand (one file per lesson
 * under course/). The exercise ids are listed here so the lesson list can
 * show progress without loading every lesson; test/app/lessons/exercises.test.ts
 * checks they match the lesson files.
 */
import type { Lesson } from './lesson.ts';

export interface LessonEntry {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly exercises: readonly string[];
  readonly load: () => Promise<Lesson>;
}

const l = (m: Promise<{ default: Lesson }>) => m.then((x) => x.default);

export const COURSE: readonly LessonEntry[] = [
  {
    id: 'state-machines',
    title: "What a state-machine spec is",
    summary: "A system call as one step: a condition and a next state.",
    exercises: ['fix-state',  'failure-changes-nothing',  'only-your-child'],
    load: () => l(import('./course/l01-state-machines.ts')),
  },
  {
    id: 'kernel-state',
    title: "Reading the kernel state",
    summary: "Maps, indices, old.current, and reading a counterexample table.",
    exercises: ['which-field',  'whose-descriptor',  'all-three-fields'],
    load: () => l(import('./course/l02-kernel-state.ts')),
  },
  {
    id: 'conditions',
    title: "Conditions and errno order",
    summary: "z3.And, z3.Or, and why the order of checks does not change the proof.",
    exercises: ['missing-check-shows-as',  'add-the-check',  'kill-a-zombie',  'either-state'],
    load: () => l(import('./course/l03-conditions.ts')),
  },
  {
    id: 'bit-vectors',
    title: "Bit-vectors: widths and signs",
    summary: "Signed and unsigned operations, ZeroExt, words and masks.",
    exercises: ['signed-offset',  'widen-the-vector',  'clear-one-bit'],
    load: () => l(import('./course/l04-bit-vectors.ts')),
  },
  {
    id: 'refinement',
    title: "Refinement and counterexamples",
    summary: "What \"verified\" proves, and what a counterexample says.",
    exercises: ['wrong-field-bug',  'missing-count',  'describe-the-bug'],
    load: () => l(import('./course/l05-refinement.ts')),
  },
  {
    id: 'refcnt',
    title: "Refcnt and ownership",
    summary: "Counting what a process owns, and ghost state.",
    exercises: ['give-back-a-port',  'count-up',  'adoption',  'one-more-reference'],
    load: () => l(import('./course/l06-refcnt.ts')),
  },
  {
    id: 'lambdas',
    title: "Whole-map updates with lambdas",
    summary: "Changing a whole region at once, and keeping the rest.",
    exercises: ['write-the-copy',  'direction',  'leave-the-rest'],
    load: () => l(import('./course/l07-lambdas.ts')),
  },
  {
    id: 'invariants',
    title: "Invariants and isolation lemmas",
    summary: "The strict checks: properties of the spec alone.",
    exercises: ['which-lemma',  'name-the-port',  'whose-count'],
    load: () => l(import('./course/l08-invariants.ts')),
  },
  {
    id: 'bug-pointer',
    title: "Bug class: incorrect pointer",
    summary: "The right operation on the wrong object.",
    exercises: ['wrong-field',  'kill-flag',  'child-not-self'],
    load: () => l(import('./course/l09-bug-pointer.ts')),
  },
  {
    id: 'bug-privilege',
    title: "Bug class: incorrect privilege",
    summary: "Ownership checks that are dropped or inverted.",
    exercises: ['steal-a-vector',  'copy-into-a-stranger',  'upside-down'],
    load: () => l(import('./course/l10-bug-privilege.ts')),
  },
  {
    id: 'bug-leak',
    title: "Bug class: memory leak",
    summary: "Counters, releases and resets that go missing.",
    exercises: ['uncounted',  'fresh-offset',  'read-before-clear'],
    load: () => l(import('./course/l11-bug-leak.ts')),
  },
  {
    id: 'bug-overflow',
    title: "Bug class: buffer overflow",
    summary: "One past the end, or the neighbour of the right element.",
    exercises: ['next-door',  'sixty-four',  'neighbour-process'],
    load: () => l(import('./course/l12-bug-overflow.ts')),
  },
  {
    id: 'bug-bounds',
    title: "Bug class: bounds checking",
    summary: "Input checks that are dropped or loosened.",
    exercises: ['parent-still-alive',  'file-zero',  'pid-zero'],
    load: () => l(import('./course/l13-bug-bounds.ts')),
  },
  {
    id: 'full-spec',
    title: "Writing a full spec",
    summary: "From a functional description to a verified spec.",
    exercises: ['alloc-vector',  'reclaim-vector',  'close'],
    load: () => l(import('./course/l14-full-spec.ts')),
  },
];

export function findLesson(id: string): LessonEntry | undefined {
  return COURSE.find((e) => e.id === id);
}
