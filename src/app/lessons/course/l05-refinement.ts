import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'refinement',
  body: `
<p>"Verified" means a precise theorem, called <strong>refinement</strong>. Take any start state in which the C
kernel's own invariants hold (its tables are consistent: a page is in use exactly when its owner is a valid
pid, an unused process slot owns nothing, the current process is valid and running, and so on) and any
arguments. Run the C implementation, and run the spec. Then:</p>
<ol>
  <li>the C code returns 0 exactly when the spec's <code>cond</code> holds (the obligation called
  <code>cond</code>);</li>
  <li>every field of the abstract state after the C code equals the spec's state after the call (one
  obligation per field, named like <code>procs.state</code> or <code>files.refcnt</code>);</li>
  <li>the C code itself never does anything undefined (<code>safety</code>) and leaves its invariants in place
  (<code>impl-invariants</code>). These two do not depend on your spec at all.</li>
</ol>
<p>The solver does not test examples: it proves each obligation for all states at once, or finds one state
where it fails. That state is the <strong>counterexample</strong>: the arguments, the facts of the start state
that matter, and a table with one row per relevant cell, giving its old value, the spec's new value and the
implementation's new value. The cells where the two new values differ are highlighted, and the editor points
at the spec line that wrote the field.</p>
<p>A counterexample does not say who is wrong. Refinement is a relation between <em>one</em> spec and
<em>one</em> implementation. Against the correct kernel, a counterexample means your spec is wrong. Against a
buggy kernel and the reference spec, it shows the bug: the state in which the kernel does something the
spec forbids. The OSVBench-style tasks in this app use exactly that: each buggy variant of a handler is
refuted by the reference spec, and a good spec has to be refuted by it too.</p>
<p>The last exercise turns this around: describe a buggy implementation so faithfully that it verifies, and
see that the correct kernel then refutes your spec.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'wrong-field-bug',
      title: 'A bug, seen by the reference spec',
      handler: 'sys_kill',
      prompt:
        'Here is the reference spec of sys_kill, run against sys_kill-v3, a buggy kernel. Which field does the counterexample blame (pick one the verifier names)?',
      spec: oracle('sys_kill'),
      impl: 'sys_kill-v3',
      choices: ['cond', 'procs.state', 'procs.ppid', 'procs.use_io_bitmap'],
      solution: 'procs.use_io_bitmap',
      hints: [
        'Run the verifier and look at the highlighted rows.',
        'v3 sets a flag on the process, but not the one the spec says.',
      ],
    },
    {
      kind: 'field',
      id: 'missing-count',
      title: 'A count that does not move',
      handler: 'sys_reparent',
      prompt: 'The reference spec of sys_reparent against sys_reparent-v2. Which field does the verifier name?',
      spec: oracle('sys_reparent'),
      impl: 'sys_reparent-v2',
      choices: ['cond', 'procs.ppid', 'procs.nr_children', 'procs.state'],
      solution: 'procs.nr_children',
      hints: ['Run it and read the table.', 'Init adopts the child in both versions; look at what init counts.'],
    },
    {
      kind: 'spec',
      id: 'describe-the-bug',
      title: 'Refinement is relative',
      handler: 'sys_set_runnable',
      prompt:
        'sys_set_runnable-v3 forgot a check. Change the reference spec below so that v3 is verified against it, and the correct kernel refutes it.',
      starter: oracle('sys_set_runnable'),
      verifyOn: 'sys_set_runnable-v3',
      refuteOn: [''],
      hints: [
        'Check first: the counterexample against v3 shows a call that v3 accepts and the spec refuses. Who is calling?',
        'v3 does not check that the caller is the parent.',
        'Remove the old.procs[pid].ppid == old.current conjunct.',
      ],
      solution: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`),
    },
  ],
};
export default lesson;
