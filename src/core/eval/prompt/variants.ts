/**
 * Prompt variants: what a run's prompt adds to the benchmark prompt
 * (prompt.ts). A variant is data: sections placed after the worked examples
 * and before the task, numbered with the rest. `standard` adds nothing and is
 * the prompt every run used before variants existed; a new variant is a new
 * entry of `VARIANTS`, not new code. The variant a run uses is part
 * of its config, so runs of different variants never share a run id; their
 * first requests differ, so they never share cached answers either.
 * See docs/research.md.
 */

/** One section a variant adds: its heading (without the number) and its Markdown body. */
export interface VariantSection {
  readonly heading: string;
  readonly body: string;
}

export interface PromptVariant {
  /** Stable id, stored with the run (`--prompt ID`). */
  readonly id: string;
  /** A few words for menus and tables. */
  readonly label: string;
  /** One sentence: what the variant changes. */
  readonly summary: string;
  /** Sections placed after the worked examples, before the task. */
  readonly sections: readonly VariantSection[];
}

const GUIDE = `Before you write the answer, read the implementation of your task with this checklist, one point at a time, and compare each point with the functional description (where they disagree, the description wins).

1. **The arguments and their widths.** Write down each argument with its sort and width from the task's signature. Wherever the C code compares, widens or narrows an argument, do the same in the specification: \`z3.ULT\`/\`z3.ULE\` for an unsigned comparison, plain \`<\`/\`<=\` for a signed one, \`z3.ZeroExt\`, \`z3.SignExt\` or \`z3.Extract\` where the widths differ.
2. **Each early return is a conjunct.** Every test that makes the handler return an error before it changes anything (\`if (...) return -E...;\`, also inside a helper it calls) becomes one conjunct of \`cond\`: the negation of the test. List them in the order the code makes them, which is the order of its error codes; the verifier only needs their conjunction, but in that order a missing check is easy to spot.
3. **Each write to a field.** For every assignment to a kernel table on the success path, write the same field of \`new\` at the same index. Take the value from \`old\`, unless the code reads back something it has already written in this call, then take it from \`new\`.
4. **Reference counts.** Whenever the code hands an object to an owner or takes it back (a page, a descriptor, a child, a device, a port, a vector, a file slot), move the owner's \`Refcnt\` by exactly one with \`+= 1\` or \`-= 1\`, indexed by that object; a file's \`refcnt\` is indexed by the \`(pid, fd)\` slot that refers to it.
5. **Ranges as lambdas.** A loop, or a \`memset\` or \`memcpy\`, that changes many indices at once (a whole page, every slot of a process) is one update of the whole field, a lambda with one parameter per index and then \`oldfn\`, the field's previous contents: \`new.table.field = lambda i, j, oldfn: z3.If(IN_RANGE, NEW_VALUE, oldfn(i, j))\`.
6. **What the return value means.** The call succeeds exactly when it returns 0, so \`cond\` is false on every path that returns an error and true on the one that returns 0. Identifiers the call creates (a pid, a descriptor, a page number) are chosen by the caller and passed as arguments: their validity and whether they are free are conditions too.
7. **What stays unchanged.** Every field the code does not write keeps its old value: do not write it. Record a TLB or IOTLB flush only where the code flushes. End with \`return cond, util.If(cond, new, old)\`.`;

/** Every variant this build knows, in menu order. */
export const VARIANTS: readonly PromptVariant[] = [
  { id: 'standard', label: 'standard', summary: 'The benchmark prompt as it is.', sections: [] },
  {
    id: 'guide',
    label: 'guide',
    summary: 'The benchmark prompt plus a checklist for turning the shown C into a specification.',
    sections: [{ heading: 'A checklist for reading the code', body: GUIDE }],
  },
];

/** Their ids: what a run's `config.prompt` may name. */
export const PROMPT_VARIANTS: readonly string[] = VARIANTS.map((v) => v.id);

/** The variant of runs that do not name one. */
export const DEFAULT_PROMPT_VARIANT = 'standard';

/** Thrown for a variant id no entry has; the message lists the known ones. */
export class UnknownVariantError extends Error {
  readonly code = 'PROMPT001';
  constructor(readonly id: string) {
    super(`unknown prompt variant "${id}"; known: ${PROMPT_VARIANTS.join(', ')}`);
  }
}

/** The variant with this id; throws `UnknownVariantError` for any other id. */
export function promptVariant(id: string = DEFAULT_PROMPT_VARIANT): PromptVariant {
  const v = VARIANTS.find((x) => x.id === id);
  if (!v) throw new UnknownVariantError(id);
  return v;
}
