/**
 * The Learn track: short lessons, each ending in an exercise the verifier
 * grades in the browser. Text is our own; bodies are trusted HTML written here.
 */

export interface Exercise {
  readonly handler: string;
  /** What to do, one paragraph of HTML. */
  readonly task: string;
  readonly starter: string;
  readonly hint: string;
  /**
   * When present, the answer must also be *refuted* against this replacement
   * implementation (C function definitions that replace the kernel's): the
   * spec has to catch the injected bug.
   */
  readonly injectedBug?: { readonly description: string; readonly implSource: string };
}

export interface Lesson {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly body: string;
  readonly exercise: Exercise;
}

const HEADER = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
`;

export const LESSONS: readonly Lesson[] = [
  {
    id: 'reading-a-spec',
    title: '1. Reading a spec',
    summary: 'What a state-machine spec says, line by line.',
    body: `
<p>A system call's spec is a Python function. It receives the kernel state before the call,
<code>old</code>, and the call's arguments as bit-vectors, and it returns a pair:</p>
<ul>
  <li><code>cond</code>, a Boolean formula: exactly when the call succeeds (the kernel returns 0);</li>
  <li>the state after the call.</li>
</ul>
<p>The body usually copies the old state, <code>new = old.copy()</code>, changes a few fields of the copy,
and returns <code>util.If(cond, new, old)</code>: the new state when the call succeeds, the old one when it fails.
A failing system call must change nothing.</p>
<p>Fields are reached through the state: <code>old.procs[pid].state</code> is the state of process
<code>pid</code>; <code>old.current</code> is the pid that made the call. Constants live in <code>dt</code>,
for example <code>dt.proc_state.PROC_EMBRYO</code>.</p>
<p><code>sys_set_runnable(pid)</code> lets a parent start a child it has just created: the child must be a valid
pid, be the caller's child, and still be an embryo; it then becomes runnable.</p>`,
    exercise: {
      handler: 'sys_set_runnable',
      task: 'This spec reads almost right, but one line says the wrong thing about the new state. Find it, fix it, and check.',
      starter: `${HEADER}

def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    return cond, util.If(cond, new, old)
`,
      hint: 'Starting a child does not run it yet: it joins the ready queue. Which proc_state means "ready to run"?',
    },
  },
  {
    id: 'conditions-and-if',
    title: '2. Conditions and util.If',
    summary: 'Success conditions, z3.And, and why Python if is not allowed.',
    body: `
<p>The spec is evaluated <em>symbolically</em>: <code>pid</code> is not a number but a 64-bit unknown. A Python
<code>if</code> cannot branch on an unknown, so specs build formulas instead:</p>
<ul>
  <li><code>z3.And(a, b, ...)</code>, <code>z3.Or</code>, <code>z3.Not</code> combine conditions;</li>
  <li><code>util.If(c, a, b)</code> is the value <code>a</code> where <code>c</code> holds and <code>b</code> elsewhere.
  It works on single values and on whole states.</li>
</ul>
<p><code>sys_kill(pid)</code> kills a live process. It fails on an invalid pid, on an unused slot and on a
process that is already a zombie. On success the process is marked <code>killed</code>; if it is not the running
process it becomes a zombie at once, while the running process keeps running until it switches away.</p>`,
    exercise: {
      handler: 'sys_kill',
      task: 'Complete the success condition (one case is missing) and describe the new state with util.If, so the running process stays running.',
      starter: `${HEADER}

def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = dt.proc_state.PROC_ZOMBIE
    return cond, util.If(cond, new, old)
`,
      hint: 'Killing a zombie fails. And the new state of the process is util.If(old state != PROC_RUNNING, PROC_ZOMBIE, old state).',
    },
  },
  {
    id: 'refinement-and-counterexamples',
    title: '3. Refinement and reading a counterexample',
    summary: 'What "verified" means, and how to read a refutation.',
    body: `
<p>Verifying a spec proves <em>refinement</em>: for every start state that satisfies the kernel's invariants and
every argument, the C implementation returns 0 exactly when <code>cond</code> holds, and it leaves every field
the spec describes with the same value as the spec's new state.</p>
<p>When this fails, the verifier shows a counterexample: the arguments, then a table of the fields that matter,
with the old value, the spec's new value and the implementation's new value. The cells where spec and
implementation disagree are highlighted. If the condition disagrees, you see the spec's <code>cond</code> next to
the return value.</p>
<p>Bit-vectors have no sign; operations do. In the dialect, <code>&lt;</code> and <code>&gt;=</code> on bit-vectors
are <strong>signed</strong>, while <code>z3.ULT</code>, <code>z3.UGE</code> are unsigned. <code>sys_lseek(fd, offset)</code>
sets a file's position and refuses a negative offset (<code>off_t</code> is signed).</p>`,
    exercise: {
      handler: 'sys_lseek',
      task: 'Verify this spec, read the counterexample (look at offset), then fix the comparison.',
      starter: `${HEADER}

def sys_lseek(old, fd, offset):
    fn = old.procs[old.current].ofile(fd)
    cond = z3.And(
        is_fd_valid(fd),
        is_fn_valid(fn),
        old.files[fn].type == dt.file_type.FD_INODE,
        z3.UGE(offset, z3.BitVecVal(0, dt.off_t)),
    )
    new = old.copy()
    new.files[fn].offset = offset
    return cond, util.If(cond, new, old)
`,
      hint: 'Every bit-vector is unsigned-greater-or-equal to 0, so the spec accepts offset 0x8000000000000000. Use the signed offset >= 0.',
    },
  },
  {
    id: 'refcounts-and-ghost-state',
    title: '4. Refcounts and ghost state',
    summary: 'Counting what a process owns, and state only the proof sees.',
    body: `
<p>The kernel counts what each process owns (pages, file descriptors, ports, vectors, children) so it can tell
when a zombie has given everything back. In the spec such a counter is a <em>Refcnt</em>: read it with
<code>old.procs[pid].nr_ports()</code>, change it with <code>new.procs[pid].nr_ports[port] += 1</code> or
<code>-= 1</code>, naming the object that changes hands.</p>
<p>Behind the count the spec keeps <em>ghost state</em>, a permutation of the owned objects that the C code does not
have. It is never compared with the implementation, but it lets the proof state "the count equals the number of
objects owned" without counting.</p>
<p><code>sys_reclaim_port(port)</code> takes an I/O port back from a process that has exited: the owner must be a
valid pid in the zombie state. The port becomes free and the owner owns one port fewer.</p>`,
    exercise: {
      handler: 'sys_reclaim_port',
      task: 'This spec frees the port but forgets the owner\u2019s count. Verify it, find the field in the counterexample, and fix it.',
      starter: `${HEADER}

def sys_reclaim_port(old, port):
    owner = old.io[port].owner
    cond = z3.And(
        is_pid_valid(owner),
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)
    return cond, util.If(cond, new, old)
`,
      hint: 'Add new.procs[owner].nr_ports[port] -= 1.',
    },
  },
  {
    id: 'catch-the-bug',
    title: '5. Writing a spec that catches a bug',
    summary: 'A spec is a test of every input at once.',
    body: `
<p>A verified spec pins the implementation down: any change to what the kernel does on any input breaks the proof.
That is how a spec catches bugs nobody wrote a test for.</p>
<p><code>sys_alloc_vector(vector)</code> gives an interrupt vector to the calling process. It fails when the vector
is already owned (by a process, or reserved by the kernel with owner -1). On success the caller becomes the owner
and owns one more vector (<code>nr_vectors</code>).</p>
<p>For this exercise a buggy kernel has been prepared: its <code>sys_alloc_vector</code> forgets to check that the
vector is free, so a process can steal another's vector. Your spec passes when it is verified against the real
kernel <em>and</em> refuted against the buggy one.</p>`,
    exercise: {
      handler: 'sys_alloc_vector',
      task: 'Write the whole spec of sys_alloc_vector.',
      starter: `${HEADER}

def sys_alloc_vector(old, vector):
    cond = z3.BoolVal(True)
    new = old.copy()

    return cond, util.If(cond, new, old)
`,
      hint: 'cond: old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t). New state: the owner becomes old.current, and new.procs[old.current].nr_vectors[vector] += 1.',
      injectedBug: {
        description: 'sys_alloc_vector does not check that the vector is free.',
        implSource: `#include "kernel.h"

int sys_alloc_vector(uint8_t vector)
{
    vector_table[vector] = current;
    get_proc(current)->nr_vectors++;
    return 0;
}
`,
      },
    },
  },
];

export function lesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
