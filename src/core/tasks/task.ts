/**
 * A benchmark task: one handler with one implementation variant shown to the
 * model (the correct one, or one with injected bugs). Field names follow the
 * task format documented in tasks/README.md.
 */

export const BUG_CLASSES = [
  'incorrect-pointer',
  'incorrect-privilege',
  'memory-leak',
  'buffer-overflow',
  'bounds-checking',
] as const;

export type BugClass = (typeof BUG_CLASSES)[number];

/** One applied mutation: which operator, where. */
export interface Provenance {
  readonly operator: string;
  readonly bugClass: BugClass;
  /** Function the mutation is in. */
  readonly function: string;
  /** 1-based line in the shown code, and a one-line description of the change. */
  readonly line: number;
  readonly description: string;
}

export interface Task {
  /** e.g. "sys_dup-v0" (correct) or "sys_dup-v3" (buggy). */
  readonly id: string;
  readonly handler: string;
  /** The C declaration of the handler, e.g. "int sys_dup(int oldfd, pid_t pid, int newfd);". */
  readonly declaration: string;
  /** The functional description (prose). */
  readonly description: string;
  /** The handler plus the structs, enums, macros, globals and helpers it uses, as shown to the model. */
  readonly code: string;
  /** Empty for the correct variant. */
  readonly bug_classes: readonly BugClass[];
  readonly bug_count: number;
  readonly provenance: readonly Provenance[];
  /** Function definitions that replace the kernel's for this variant (empty for the correct one). */
  readonly impl_override: string;
  /** sha256 of the task's canonical JSON without this field, hex. */
  readonly hash: string;
}
