import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bug-pointer',
  body: `
<p>The benchmark's buggy kernels come in five classes (the task browser lists each task's). The first is the
<strong>incorrect pointer</strong>: the code works on the wrong thing. The operators that make such bugs
replace a target pid with <code>current</code> or the reverse, swap two arguments of the same type
(<code>from</code> and <code>to</code>, <code>oldfd</code> and <code>newfd</code>), pick another global table
with the same element type, or a neighbouring struct field of the same type.</p>
<p>These bugs are easy to miss in review because the code still type-checks and usually looks reasonable:
<code>p-&gt;use_io_bitmap = 1</code> is a fine line, just not in <code>sys_kill</code>. A spec catches them
because it pins every field: if the kernel writes the wrong field, both the right one (unchanged) and the wrong
one (changed) differ from the spec.</p>
<h4>Bug-following</h4>
<p>In the benchmark a model sees the code of the buggy variant and must write the spec of the <em>intended</em>
call. A spec that describes what the buggy code does is called <em>bug-following</em>: it is verified against
the buggy kernel and refuted against the correct one, so it fails. Each exercise below starts from such a
spec. Your answer passes when it is verified against the correct kernel <em>and</em> refuted against the
variant; the second check follows from the first, but seeing both is the point.</p>
<p>A good habit: for each pid, fd or page number in the code, ask which one the call is <em>about</em>. In
<code>sys_set_runnable(pid)</code> everything is about the child <code>pid</code>; the caller only appears in
the parent check.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'wrong-field',
      title: 'The wrong field',
      handler: 'sys_lseek',
      prompt: 'sys_lseek-v1 writes the new position into the wrong field of the file. Run the reference spec against it and pick a field the verifier names.',
      spec: oracle('sys_lseek'),
      impl: 'sys_lseek-v1',
      choices: ['cond', 'files.type', 'files.refcnt', 'procs.ofile'],
      solution: 'files.refcnt',
      hints: ['Run it and read the highlighted rows.', 'Which neighbouring field of struct file changes when it should not?'],
    },
    {
      kind: 'spec',
      id: 'kill-flag',
      title: 'The flag that means killed',
      handler: 'sys_kill',
      prompt: 'This spec follows sys_kill-v3 and sets the wrong flag. Write the intended effect.',
      starter: spec(`
def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].use_io_bitmap = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_kill-v3'],
      hints: ['What does killing record on the process, so that it dies when it next runs?', 'new.procs[pid].killed = z3.BoolVal(True)'],
      solution: oracle('sys_kill'),
    },
    {
      kind: 'spec',
      id: 'child-not-self',
      title: 'The child, not the caller',
      handler: 'sys_set_runnable',
      prompt: 'This spec follows sys_set_runnable-v4, which looks at the caller where it should look at the child. Fix every place.',
      starter: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[old.current].ppid == old.current,
        old.procs[old.current].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[old.current].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_set_runnable-v4'],
      hints: [
        'Which process must be the embryo: the caller or pid?',
        'Three places index procs with old.current; only one comparison should mention old.current.',
        'old.procs[pid].ppid == old.current, old.procs[pid].state == ..., new.procs[pid].state = ...',
      ],
      solution: oracle('sys_set_runnable'),
    },
  ],
};
export default lesson;
