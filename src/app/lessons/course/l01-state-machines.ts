import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'state-machines',
  body: `
<p>Think of the whole kernel as a machine with one big state: the process table, the page descriptors, the
file table, the interrupt vectors, and so on. A system call is one <em>step</em> of that machine. Its
specification says, for every possible state and every possible argument, two things:</p>
<ol>
  <li><strong>whether the call succeeds</strong>: a Boolean formula, by convention called <code>cond</code>.
  The kernel must return 0 exactly when <code>cond</code> holds, and an error otherwise;</li>
  <li><strong>what the state is afterwards</strong>.</li>
</ol>
<p>In OSVLab's dialect (the one hv6 uses) a spec is a Python function. It gets the state before the call,
named <code>old</code> by habit, and the arguments, and returns the pair <code>(cond, state_after)</code>.
Nothing in it runs on real numbers: <code>pid</code> is a 64-bit unknown, and the function builds formulas
about it. That is what lets one spec speak about all 2<sup>64</sup> pids at once.</p>
<p>Almost every spec has the same skeleton:</p>
<pre><code>def sys_something(old, arg):
    cond = z3.And(check1, check2, ...)
    new = old.copy()
    new.some.field[index] = value      # the effect of success
    return cond, util.If(cond, new, old)</code></pre>
<p><code>old.copy()</code> gives an independent copy to change. The last line is the rule every hv6 call
follows: <em>a failing call changes nothing</em>. <code>util.If(cond, new, old)</code> is the state that is
<code>new</code> wherever <code>cond</code> holds and <code>old</code> wherever it does not.</p>
<p>The first call we look at is <code>sys_set_runnable(pid)</code>. A parent creates a child in the
<code>PROC_EMBRYO</code> state (see <code>dt.proc_state</code>), fills it in, and then calls
<code>sys_set_runnable</code> to hand it to the scheduler. It works only on a valid pid (1 to 63), only for
the caller's own child (<code>old.procs[pid].ppid == old.current</code>; <code>old.current</code> is the pid
of the process making the call), and only while the child is still an embryo. Afterwards the child is
<code>PROC_RUNNABLE</code>: ready, but not yet running.</p>
<p>Each exercise below is graded by the real verifier, here in your browser. Press <em>Check my answer</em> (or
Ctrl+Enter in the editor). Hints open one at a time; the solution opens after your first attempt.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'fix-state',
      title: 'One wrong word',
      handler: 'sys_set_runnable',
      prompt: 'The condition is right, but the new state says something the kernel does not do. Fix that one line.',
      starter: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Check first and read the table: which field has a different value in the spec and in the implementation?',
        'The child is handed to the scheduler; it is not running yet. Which member of dt.proc_state means "ready to run"?',
        'Write dt.proc_state.PROC_RUNNABLE.',
      ],
      solution: oracle('sys_set_runnable'),
    },
    {
      kind: 'spec',
      id: 'failure-changes-nothing',
      title: 'A failing call changes nothing',
      handler: 'sys_set_runnable',
      prompt: 'This spec returns the new state unconditionally. Make the state after the call depend on cond.',
      starter: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid == old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, new
`),
      hints: [
        'The counterexample shows a state where cond is False: what does the kernel do to procs.state then, and what does this spec say?',
        'On failure the state after the call must be old.',
        'Return cond, util.If(cond, new, old).',
      ],
      solution: oracle('sys_set_runnable'),
    },
    {
      kind: 'spec',
      id: 'only-your-child',
      title: 'Only your own child',
      handler: 'sys_set_runnable',
      prompt:
        'This condition forgets who may call. Add the missing check. Your spec must also be refuted against sys_set_runnable-v3, a kernel with exactly that check removed.',
      starter: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_set_runnable-v3'],
      hints: [
        'The verdict says "cond": the spec allows a call the kernel refuses. Which processes may start an embryo?',
        'Only its parent: the embryo\u2019s ppid field must name the caller.',
        'Add old.procs[pid].ppid == old.current to the z3.And.',
      ],
      solution: oracle('sys_set_runnable'),
    },
  ],
};
export default lesson;
