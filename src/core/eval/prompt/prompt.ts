/**
 * The benchmark prompt: a system message and one long user message in five
 * parts, like OSVBench's (written here in our own words): what to answer,
 * the verification setting and its assumptions, the programming model of
 * the spec dialect (generated from the dialect's catalog, so it cannot drift
 * from what the interpreter accepts), k worked examples (description, the
 * example task's possibly buggy code, the oracle spec) and the question.
 *
 * Examples never include the target's own handler, nor a handler that shares
 * logic with it: one whose oracle uses the same `_shared` spec helper, or
 * whose C code runs the same error-returning kernel helper (the
 * alloc_page_table_page, map_page or send_recv families). The choice is
 * deterministic and recorded in the prompt's metadata. A prompt variant
 * (variants.ts) adds its sections after the examples. In a renaming
 * (docs/rename.md) every message is renamed forward last, so everything the
 * model reads is in the renamed world. Output is plain data: the same task,
 * shots, variant, renaming and tasks give the same bytes. The repair
 * round's prompt is in repair.ts.
 */
import { KERNEL, type KernelContent, contentEntry, oracleSpec } from '../../kernel/content.ts';
import { type HandlerInfo, HANDLERS, findHandler, requireHandler } from '../../kernel/handlers.ts';
import type { ChatMessage } from '../../llm/types.ts';
import { type CatalogEntry, dialectCatalog } from '../../dialect/catalog.ts';
import { rng } from '../../rng.ts';
import type { BuiltPrompt } from '../run/runner.ts';
import type { RenameChoice } from '../../rename/choice.ts';
import { lensFor } from '../../rename/lens.ts';
import type { ShapeChoice } from '../../shape/choice.ts';
import { shapedTask } from '../../shape/task.ts';
import type { Task } from '../../tasks/task.ts';
import { type PromptVariant, promptVariant } from './variants.ts';

export { buildRepairPrompt } from './repair.ts';

/** Bumped whenever the prompt text changes, so stored prompts can be told apart. */
const PROMPT_VERSION = 1;

/** The few-shot settings the benchmark uses. */
export const SHOT_COUNTS = [0, 1, 3, 5, 7, 9] as const;

export const SYSTEM_MESSAGE = [
  'You are an expert in the formal verification of operating-system kernels.',
  'Your job is to write the functional specification of one system call of a small verified kernel, as a state-machine transition in a restricted Python dialect over the z3 library.',
  'A mechanical verifier checks your specification against the kernel with an SMT solver, so it must be exact: every condition and every state change matters.',
  'Reply with exactly one fenced code block tagged python that holds the complete specification module (imports, any helper functions, the entry function). Write nothing before or after the block.',
].join(' ');

// ------------------------------------------------------------------ part 2: the setting

const ASSUMPTIONS = `## 1. The verification setting

The kernel is modelled as a state machine. A state holds every table the kernel keeps (processes, pages, files, devices, interrupt vectors, I/O ports, interrupt-remapping entries) plus a few scalars such as \`current\`, the running process. Each system call is one atomic transition from an old state to a new state.

A specification of a system call is a Python function that receives the old state and the call's arguments and returns a pair \`(cond, new_state)\`:
- \`cond\` is a z3 Bool that holds exactly when the call succeeds, i.e. when the C implementation returns 0;
- \`new_state\` is the state after the call. When \`cond\` is false the call must leave the state unchanged, so a specification returns \`util.If(cond, new, old)\` where \`new\` is a modified copy of \`old\`.

The verifier runs the C implementation symbolically from an arbitrary state that satisfies the kernel's representation invariants, runs your specification on the abstract view of the same state with the same symbolic arguments, and proves with Z3:
1. the implementation returns 0 if and only if \`cond\` holds;
2. after the call, every field of your new state equals the corresponding field of the implementation's state, at every index (ghost fields, marked below, exist only in the specification and are not compared);
3. the implementation itself is safe (no failed assertion, no out-of-bounds index).

What you may assume, and what you must respect:
- Arguments are arbitrary bit-vectors of their declared sorts. Nothing about them is known: a pid may be 0, negative or larger than the table; an index may be out of range. Every range and validity check the call needs must appear in \`cond\`.
- The old state satisfies the kernel's invariants: for example \`current\` is a valid pid in state RUNNING, a page that is not free has a valid owner, an open descriptor holds a valid file number, and every reference count matches what its owner owns. You do not need to restate invariants in \`cond\`.
- The call runs to completion without interruption; there is no concurrency.
- The exact error code of a failing call does not matter, only whether the call succeeds. The order of checks does not matter either: \`cond\` is their conjunction.
- Hardware effects count as state. A call that changes a process's page tables must record a TLB flush of exactly that process with \`new.flush_tlb(pid)\`; a call that changes IOMMU tables or device roots must record \`new.flush_iotlb()\`. Flushing too much or too little is a mismatch.
- Resources are accounted with reference counts (\`nr_pages\`, \`nr_fds\`, \`nr_children\`, ..., and \`files[fn].refcnt\`). Whenever the call gives an object to an owner or takes it away, the owner's count moves by exactly one in the same direction, naming the object.
- Fields that the call does not change must keep their old values; writing a field with the value it already has is harmless.
- The C code of the system call is shown for reference. It may contain mistakes. Where the code and the functional description disagree, the description is authoritative: specify the intended behaviour, not the bugs.`;

// ------------------------------------------------------------------ part 3: the programming model

const MODEL_INTRO = `## 2. The specification language

A specification is a Python module written in a small, fixed part of Python: imports of the modules below, function definitions, assignments (also \`+=\` and \`-=\`), \`return\`, \`assert\`, \`pass\`, and \`if\` on plain Python values; in expressions, tuples, lists and list comprehensions, \`lambda\`, conditional expressions, arithmetic, bitwise and comparison operators, attribute access, indexing, and calls to the functions listed below. There are no loop statements, classes, exceptions or other libraries. Python's \`if\`, \`and\`, \`or\` and \`not\` cannot test a z3 term: every choice that depends on a symbolic value goes through \`util.If\` (or \`z3.If\` on terms).

A module normally starts with these imports (all of them are accepted; unused ones are harmless):

\`\`\`python
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid, is_dmapn_valid, is_fn_valid, is_fd_valid, is_intremap_valid, is_pcipn_valid
\`\`\`

and defines the entry function, named after the system call, whose first parameter is the old state:

\`\`\`python
def sys_example(old, arg1, arg2):
    cond = z3.And(...)        # when the call succeeds
    new = old.copy()          # a private copy to modify
    new.some_table[arg1].some_field = ...
    return cond, util.If(cond, new, old)
\`\`\`

Several calls share one specification under two names (their hv6 aliases): for example the verifier asks for \`clone_proc\`, and a specification may define \`sys_clone\` and add the line \`clone_proc = sys_clone\`. Defining the requested name directly also works.

### Reading the state
- \`old.current\` is a scalar field. \`old.procs[pid].state\` reads the field \`state\` of process \`pid\`; every field of a record is read this way.
- A field with a second index is read with a call: \`old.procs[pid].ofile(fd)\`, \`old.pages[pn].data(idx)\`. Writing \`old.procs[pid].ofile[fd]\` does not read: it names the slot (for writing).
- A reference count is read by calling it with no argument: \`old.procs[pid].nr_pages()\` is how many pages \`pid\` owns; \`old.files[fn].refcnt()\` is how many descriptor slots refer to \`fn\`.
- Reads return z3 terms. Compare them with \`==\`, \`!=\` and the z3 functions; combine conditions with \`z3.And\`, \`z3.Or\`, \`z3.Not\` (never Python's \`and\`, \`or\`, \`not\`).
- \`<\`, \`<=\`, \`>\`, \`>=\`, \`/\`, \`%\` and \`>>\` on bit-vectors are signed; use \`z3.ULT\`, \`z3.ULE\`, \`z3.UGT\`, \`z3.UGE\`, \`z3.UDiv\`, \`z3.URem\` and \`z3.LShR\` for unsigned arithmetic.
- Operands must have the same width: widen with \`z3.ZeroExt\` / \`z3.SignExt\`, narrow with \`z3.Extract\`. A Python int next to a bit-vector takes its width.

### Writing the new state
- \`new = old.copy()\` makes an independent copy; change \`new\` only.
- \`new.current = pid\` sets a scalar; \`new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\` sets one field of one record; \`new.procs[pid].ofile[fd] = fn\` sets one slot of a two-index field.
- Assigning a single value with only the first index given sets the field for every second index: \`new.pages[pn].data = z3.BitVecVal(0, dt.uint64_t)\` clears a whole page.
- A whole field can be replaced by a function of all its indices: \`new.pages.data = lambda pn, idx, oldfn: z3.If(pn == to, oldfn(frm, idx), oldfn(pn, idx))\` copies page \`frm\` over page \`to\`; \`oldfn\` is the field's previous contents.
- Write z3 terms of the field's sort (\`z3.BitVecVal(0, dt.pid_t)\`, \`util.i64(0)\`, \`z3.BoolVal(True)\`), not bare Python numbers or booleans.
- Reads of \`new\` see earlier writes to \`new\`; reads of \`old\` never change.
- \`new.flush_tlb(pid)\` and \`new.flush_iotlb()\` record the hardware flushes described in section 1.

### Reference counts
A reference count (\`Refcnt\`) belongs to an owner and counts the objects it owns. It changes only by one, naming the object:
- \`new.procs[owner].nr_pages[pn] += 1\` when \`owner\` gains page \`pn\`, \`new.procs[owner].nr_pages[pn] -= 1\` when it loses it; likewise \`nr_children[child]\`, \`nr_fds[fd]\`, \`nr_dmapages[dmapn]\`, \`nr_devs[devid]\`, \`nr_ports[port]\`, \`nr_vectors[vector]\`, \`nr_intremaps[index]\`.
- A file's count is indexed by the descriptor slot that refers to it, a (pid, fd) pair: \`new.files[fn].refcnt[(pid, fd)] += 1\`.
- Read the owner you decrement from the old state when the call also changes the owner field (for example a page's owner becomes 0).

### Conditional states
\`util.If(c, a, b)\` takes a z3 Bool and two values of the same kind (terms, or whole states) and denotes \`a\` where \`c\` holds and \`b\` elsewhere. It works on whole states, field by field, so \`util.If(cond, new, old)\` is the usual result, and a call whose effect depends on a further condition can build two candidate states and choose: \`util.If(cond, util.If(c2, new2, new1), old)\`.`;

function bullet(e: CatalogEntry): string {
  return `- \`${e.detail}\`: ${e.doc}`;
}

/** Part 3 of the prompt, from the dialect's catalog (fields, sorts, constants, enums, helpers, z3, util, methods). */
function programmingModel(catalog: readonly CatalogEntry[] = dialectCatalog()): string {
  const out: string[] = [MODEL_INTRO];
  const fields = catalog.filter((e) => e.kind === 'field');
  const records = fields.filter((e) => /^\w+\[\w+\] : \w+$/.test(e.detail));
  const scalars = fields.filter((e) => !e.detail.includes('[') && !records.includes(e));
  out.push('### The state\n\nScalar fields of the state:');
  out.push(scalars.map(bullet).join('\n'));
  for (const r of records) {
    const name = r.detail.split('[')[0];
    const members = fields.filter((e) => !records.includes(e) && e.detail.startsWith(`${name}[`));
    out.push(`Records \`${r.detail}\`: ${r.doc}\n${members.map(bullet).join('\n')}`);
  }
  const group = (title: string, kind: CatalogEntry['kind'], intro: string) => {
    const es = catalog.filter((e) => e.kind === kind);
    if (es.length) out.push(`### ${title}\n\n${intro}\n${es.map(bullet).join('\n')}`);
  };
  group('Sorts', 'sort', 'Bit-vector sorts, used to build constants (`z3.BitVecVal(v, dt.pid_t)`) and in widths:');
  group('Constants', 'constant', 'Constants of the `dt` module (Python ints can be used in arithmetic with terms; BitVec constants are 64-bit terms):');
  const enums = catalog.filter((e) => e.kind === 'enum');
  const heads = enums.filter((e) => e.detail.includes(': enum of'));
  if (heads.length) {
    const lines = heads.map((h) => {
      const members = enums.filter((e) => e.detail.startsWith(`dt.${h.label}.`)).map((e) => e.detail.replace(/ : \w+$/, '').replace(`dt.${h.label}.`, ''));
      return `- \`dt.${h.label}\` (${h.detail.split(': ')[1]}): ${members.join(', ')}`;
    });
    out.push(`### Enumerations\n\nMembers are read as \`dt.<enum>.<MEMBER>\`:\n${lines.join('\n')}`);
  }
  group('Helper predicates and functions', 'helper', 'Validity predicates (import them from `hv6py.kernel.spec.helpers`) and `dt` helpers:');
  group('z3 functions', 'z3', 'Available as `z3.<name>`:');
  group('util functions', 'util', 'Available as `util.<name>`:');
  group('State methods', 'method', 'Methods of a state object:');
  return out.join('\n\n');
}

// ------------------------------------------------------------------ part 4: examples

/** The `_shared` spec helpers an oracle spec pulls in with `# uses:`. */
export function sharedHelpersOf(handler: string, kernel: KernelContent = KERNEL): string[] {
  const text = contentEntry(kernel.specs, handler) ?? '';
  const out: string[] = [];
  for (const m of text.matchAll(/^#\s*uses:\s*(.+)$/gm)) for (const n of m[1].split(/[,\s]+/)) if (n) out.push(n);
  return out;
}

/**
 * The kernel helpers that carry a whole check-and-update sequence of a
 * handler: functions it reaches (through its shown code) that return an
 * error code and are not handlers themselves.
 */
function familyHelpers(task: Task | undefined): string[] {
  if (!task) return [];
  const names = [...task.code.matchAll(/^(?:static\s+)?(?:inline\s+)?int\s+(\w+)\s*\(/gm)].map((m) => m[1]);
  return names.filter((n) => n !== task.handler && !findHandler(n));
}

/**
 * Handlers that must not serve as examples for `handler`: itself, handlers
 * whose oracle shares a `_shared` helper with it, and handlers whose code
 * runs one of its error-returning helpers.
 */
export function siblingsOf(handler: string, tasks: readonly Task[], kernel: KernelContent = KERNEL): string[] {
  const correct = (h: string) => tasks.find((t) => t.handler === h && t.bug_count === 0) ?? tasks.find((t) => t.handler === h);
  const myShared = new Set(sharedHelpersOf(handler, kernel));
  const myFamily = new Set(familyHelpers(correct(handler)));
  return HANDLERS.filter((h) => h.inBenchmark)
    .map((h) => h.name)
    .filter((h) => h === handler || sharedHelpersOf(h, kernel).some((s) => myShared.has(s)) || familyHelpers(correct(h)).some((f) => myFamily.has(f)));
}

export interface ExampleChoice {
  /** The example tasks, in prompt order. */
  readonly examples: readonly Task[];
  /** Handlers left out as the target or its siblings. */
  readonly excluded: readonly string[];
}

/**
 * The k example tasks for `target`: handlers outside the target's family,
 * in an order fixed by the target's id, each shown as one of its variants
 * (also fixed by the target's id, so some examples show buggy code).
 */
function chooseExamples(target: Task, shots: number, tasks: readonly Task[], kernel: KernelContent = KERNEL): ExampleChoice {
  const excluded = siblingsOf(target.handler, tasks, kernel);
  // In the handlers' table order, whatever the order of `tasks`.
  const present = new Set(tasks.map((t) => t.handler));
  const pool = HANDLERS.map((h) => h.name).filter((h) => present.has(h) && !excluded.includes(h) && oracleSpec(h, kernel) !== undefined);
  const r = rng(`examples/${target.id}`);
  const order = pool.map((h) => ({ h, k: r() })).sort((a, b) => a.k - b.k).map((x) => x.h);
  const examples = order.slice(0, shots).map((h) => {
    const variants = tasks.filter((t) => t.handler === h).sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
    return variants[Math.floor(r() * variants.length)];
  });
  if (examples.length < shots) throw new Error(`only ${examples.length} example handlers are available for ${target.id}, ${shots} asked`);
  return { examples, excluded };
}

/** A description without its title line (the prompt gives its own headings). */
function descriptionBody(text: string): string {
  return text.replace(/^# [^\n]*\n+/, '').trim();
}

function signature(h: HandlerInfo): string {
  return h.args.map((a) => `\`${a.name}\` (${a.sort}, ${a.width}-bit)`).join(', ') || 'none';
}

function entryLine(h: HandlerInfo): string {
  const params = ['old', ...h.args.map((a) => a.name)].join(', ');
  if (!h.alias) return `\`def ${h.name}(${params})\``;
  return `\`def ${h.alias}(${params})\` together with \`${h.name} = ${h.alias}\` (the verifier asks for \`${h.name}\`; \`${h.alias}\` is its hv6 name)`;
}

function example(i: number, t: Task, kernel: KernelContent): string {
  const h = findHandler(t.handler)!;
  const buggy = t.bug_count > 0
    ? ` The code below is a variant with ${t.bug_count} deliberate bug${t.bug_count > 1 ? 's' : ''}; the specification follows the description, not the bugs.`
    : '';
  return [
    `### Example ${i}: \`${t.handler}\``,
    '',
    `Arguments: ${signature(h)}. Entry: ${entryLine(h)}.`,
    '',
    '#### Description',
    '',
    descriptionBody(t.description),
    '',
    `#### Implementation${buggy}`,
    '',
    '```c',
    t.code.trimEnd(),
    '```',
    '',
    '#### Specification',
    '',
    '```python',
    oracleSpec(t.handler, kernel)!.trimEnd(),
    '```',
  ].join('\n');
}

// ------------------------------------------------------------------ the prompt

export type PromptMeta = {
  readonly promptVersion: number;
  readonly taskId: string;
  readonly shots: number;
  /** The prompt variant's id (variants.ts). */
  readonly variant: string;
  /** Example task ids, in prompt order. */
  readonly examples: readonly string[];
  /** Handlers kept out of the examples: the target and its siblings. */
  readonly excluded: readonly string[];
  /** The renaming the messages are in (absent: hv6's own names). */
  readonly rename?: RenameChoice;
  /** The shape the shown code is in (absent: the kernel's own order; docs/shape.md). */
  readonly shape?: ShapeChoice;
  /** Characters of all messages. */
  readonly chars: number;
};

export interface PromptOptions {
  readonly kernel?: KernelContent;
  /** The variant, or its id (default `standard`). */
  readonly variant?: PromptVariant | string;
  /** The renaming the model is shown (default: hv6's own names). */
  readonly rename?: RenameChoice;
  /** The shape of the shown code (default: the kernel's own order). */
  readonly shape?: ShapeChoice;
}

/** A numbered section heading: `## N. Title`. */
function section(n: number, title: string, body: string): string {
  return `## ${n}. ${title}\n\n${body}`;
}

/**
 * The prompt for `task` with `shots` worked examples drawn from `tasks`
 * (the whole task set), in the given variant. Deterministic.
 */
export function buildPrompt(original: Task, shots: number, tasks: readonly Task[], options: PromptOptions = {}): BuiltPrompt & { meta: PromptMeta } {
  if (!Number.isInteger(shots) || shots < 0) throw new Error(`shots must be a non-negative integer, got ${shots}`);
  const kernel = options.kernel ?? KERNEL;
  const variant = typeof options.variant === 'object' ? options.variant : promptVariant(options.variant);
  const h = requireHandler(original.handler);
  const chosen = chooseExamples(original, shots, tasks, kernel);
  // In a shape (docs/shape.md) every task shows its code shaped; examples are chosen from the code as the kernel has it.
  const shape = options.shape;
  const task = shape ? shapedTask(original, shape) : original;
  const { examples, excluded } = shape ? { ...chosen, examples: chosen.examples.map((t) => shapedTask(t, shape)) } : chosen;
  const parts: string[] = [ASSUMPTIONS, programmingModel()];
  if (examples.length) {
    parts.push(
      section(
        parts.length + 1,
        'Worked examples',
        [
          examples.length === 1
            ? 'The following example shows another system call of the same kernel with its functional description, its C code and a specification the verifier accepts.'
            : `The following ${examples.length} examples show other system calls of the same kernel with their functional description, their C code and a specification the verifier accepts.`,
          '',
          examples.map((t, i) => example(i + 1, t, kernel)).join('\n\n'),
        ].join('\n'),
      ),
    );
  }
  for (const s of variant.sections) parts.push(section(parts.length + 1, s.heading, s.body));
  parts.push(
    section(
      parts.length + 1,
      `Your task: \`${task.handler}\``,
      [
        `Write the specification of \`${task.handler}\`, declared in C as \`${task.declaration}\`.`,
        '',
        `Arguments: ${signature(h)}. Entry: ${entryLine(h)}.`,
        '',
        '#### Description',
        '',
        descriptionBody(task.description),
        '',
        '#### Implementation',
        '',
        '```c',
        task.code.trimEnd(),
        '```',
        '',
        'Answer with one ```python block holding the complete module: the imports, any helpers you need, and the entry function returning `(cond, util.If(cond, new, old))` (or an equivalent state).',
      ].join('\n'),
    ),
  );
  const plain: ChatMessage[] = [
    { role: 'system', content: SYSTEM_MESSAGE },
    { role: 'user', content: `${parts.join('\n\n')}\n` },
  ];
  const lens = options.rename ? lensFor(options.rename, kernel) : undefined;
  const messages = lens ? plain.map((m) => ({ ...m, content: lens.forward.markdown(m.content) })) : plain;
  const meta: PromptMeta = {
    promptVersion: PROMPT_VERSION,
    taskId: task.id,
    shots,
    variant: variant.id,
    examples: examples.map((t) => t.id),
    excluded,
    ...(options.rename ? { rename: options.rename } : {}),
    ...(shape ? { shape } : {}),
    chars: messages.reduce((n, m) => n + m.content.length, 0),
  };
  return { messages, meta };
}

/** The runner's `buildPrompt(task, shots)` over a fixed task set, in one variant. */
export function promptBuilder(tasks: readonly Task[], options: PromptOptions = {}): (task: Task, shots: number) => BuiltPrompt {
  // Resolved once, so an unknown variant fails before the first request.
  const variant = typeof options.variant === 'object' ? options.variant : promptVariant(options.variant);
  return (task, shots) => buildPrompt(task, shots, tasks, { ...options, variant });
}
