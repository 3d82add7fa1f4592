import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bug-bounds',
  body: `
<p>The last class, <strong>bounds checking</strong>, is about checks on the <em>input</em>: is this pid a
process-table slot, this fd a descriptor number, this page of the right type, this process in the right state,
this offset non-negative? The operators drop such a check, drop one half of a range test (<code>pid &gt; 0
&amp;&amp; pid &lt; NPROC</code> loses <code>pid &gt; 0</code>), or loosen a lower bound (<code>fn &gt; 0</code>
becomes <code>fn &gt;= 0</code>).</p>
<p>They differ from privilege bugs in what goes wrong: not "the wrong process may do this", but "this should
not be possible at all". The effects vary. A dropped state check lets a call run in a state it was never
meant for (reparenting a child whose parent is still alive). A loosened range admits a sentinel: file number 0
means "no file", and a kernel that creates file 0 makes every empty descriptor point at a real file.</p>
<p>For spec writers the lesson is to use the helpers rather than retyping ranges, and to read the
description's list of conditions one by one. Each becomes one conjunct; checking off the list against your
<code>z3.And</code> finds the missing one faster than the counterexample does.</p>
<p>Remember lesson 4 too: a hand-written <code>pid &lt; dt.NPROC</code> is a <em>signed</em> comparison, so
it admits every negative pid as well as 0.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'parent-still-alive',
      title: 'The parent is still alive',
      handler: 'sys_reparent',
      prompt: 'This spec follows sys_reparent-v1, which reparents even when the parent has not exited. Add the check.',
      starter: spec(`
def sys_reparent(old, pid):
    parent = old.procs[pid].ppid
    init = dt.INITPID
    cond = z3.And(
        is_pid_valid(pid),
        is_pid_valid(parent),
        z3.Or(old.procs[init].state == dt.proc_state.PROC_RUNNABLE,
              old.procs[init].state == dt.proc_state.PROC_RUNNING),
    )
    new = old.copy()
    new.procs[init].nr_children[pid] += 1
    new.procs[parent].nr_children[pid] -= 1
    new.procs[pid].ppid = init
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_reparent-v1'],
      hints: ['What state must the parent be in before its child is handed to init?', 'old.procs[parent].state == dt.proc_state.PROC_ZOMBIE'],
      solution: oracle('sys_reparent'),
    },
    {
      kind: 'spec',
      id: 'file-zero',
      title: 'File number 0',
      handler: 'sys_create',
      prompt: 'This spec follows sys_create-v4 and accepts file number 0. Use the right range.',
      starter: spec(`
def sys_create(old, fd, fn, type, value, omode):
    cur = old.current
    cond = z3.And(
        type != dt.file_type.FD_NONE,
        is_fd_valid(fd),
        z3.Not(is_fn_valid(old.procs[cur].ofile(fd))),
        fn >= 0,
        fn < dt.NFILE,
        old.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t),
    )
    new = old.copy()
    new.files[fn].type = type
    new.files[fn].value = value
    new.files[fn].omode = omode
    new.files[fn].offset = z3.BitVecVal(0, dt.off_t)
    new.procs[cur].ofile[fd] = fn
    new.procs[cur].nr_fds[fd] += 1
    new.files[fn].refcnt[(cur, fd)] += 1
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_create-v4'],
      hints: ['Which value of fn does the counterexample use?', 'Valid file numbers start at 1: is_fn_valid(fn).'],
      solution: oracle('sys_create'),
    },
    {
      kind: 'spec',
      id: 'pid-zero',
      title: 'Half a range',
      handler: 'sys_kill',
      prompt: 'This spec follows sys_kill-v1, whose pid check lost its lower half. Fix the range.',
      starter: spec(`
def sys_kill(old, pid):
    cond = z3.And(
        pid < dt.NPROC,
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_kill-v1'],
      hints: ['Read pid in the counterexample as a signed number.', 'is_pid_valid(pid) means 0 < pid < NPROC.'],
      solution: oracle('sys_kill'),
    },
  ],
};
export default lesson;
