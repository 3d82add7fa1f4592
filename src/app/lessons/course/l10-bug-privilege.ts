import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bug-privilege',
  body: `
<p>hv6 has no superuser. Who may do what is decided, call by call, by ownership: a process may change its
own resources, those of an embryo child it is still setting up, and reclaim those of a zombie. The checks
that enforce this are the ones that return <code>-EACCES</code> (and, for "already taken", <code>-EBUSY</code>):
<code>is_current_or_embryo(pid)</code>, "the page's owner is the caller", "the vector is free", "the caller is
the parent".</p>
<p>An <strong>incorrect privilege</strong> bug drops or inverts one of them. The kernel then lets a process
act on something it does not own: steal a vector another process holds, copy into a stranger's page, start a
child that is not its own. Nothing crashes and every table stays consistent, which is what makes these bugs
dangerous; only a spec that states who may call notices.</p>
<p>In the spec, privilege is part of <code>cond</code>: the success condition must contain the ownership
check. A bug-following spec simply leaves it out (or writes it upside down). The counterexample then shows a
state in which the two disagree on <code>cond</code>, and the context lines tell you who owns what: the
caller, the target, their parent links.</p>
<p>When you write a condition, list the subjects of the call (the caller, each pid argument) and the objects
(each page, fd, vector, port), and ask for each object: whose must it be?</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'steal-a-vector',
      title: 'Taking what is taken',
      handler: 'sys_alloc_vector',
      prompt: 'This spec follows sys_alloc_vector-v2, which hands out a vector even when another process owns it. Add the missing check.',
      starter: spec(`
def sys_alloc_vector(old, vector):
    cur = old.current
    cond = z3.BoolVal(True)
    new = old.copy()
    new.vectors[vector].owner = cur
    new.procs[cur].nr_vectors[vector] += 1
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_alloc_vector-v2'],
      hints: ['In the counterexample, who owns the vector before the call?', 'Only a free vector (owner 0) can be allocated.', 'cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)'],
      solution: oracle('sys_alloc_vector'),
    },
    {
      kind: 'spec',
      id: 'copy-into-a-stranger',
      title: 'Copying into a stranger',
      handler: 'sys_copy_frame',
      prompt:
        'This spec follows sys_copy_frame-v2: any process may be the target. The kernel allows only the caller itself or an embryo child of the caller. Add that.',
      starter: spec(`
def sys_copy_frame(old, frm, pid, to):
    cur = old.current
    cond = z3.And(
        is_pn_valid(frm),
        old.pages[frm].type == dt.page_type.PAGE_TYPE_FRAME,
        old.pages[frm].owner == cur,
        is_pid_valid(pid),
        is_pn_valid(to),
        old.pages[to].type == dt.page_type.PAGE_TYPE_FRAME,
        old.pages[to].owner == pid,
    )
    new = old.copy()
    new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), oldfn(p, i))
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_copy_frame-v2'],
      hints: [
        'Look at pid and the caller in the counterexample: how are they related?',
        'Either pid == cur, or pid is an embryo whose parent is cur.',
        'z3.Or(pid == cur, z3.And(old.procs[pid].ppid == cur, old.procs[pid].state == dt.proc_state.PROC_EMBRYO))',
      ],
      solution: oracle('sys_copy_frame'),
    },
    {
      kind: 'spec',
      id: 'upside-down',
      title: 'Upside down',
      handler: 'sys_set_runnable',
      prompt: 'This spec follows sys_set_runnable-v1, whose parent check is inverted: everyone but the parent may start the child. Fix it.',
      starter: spec(`
def sys_set_runnable(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].ppid != old.current,
        old.procs[pid].state == dt.proc_state.PROC_EMBRYO,
    )
    new = old.copy()
    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_set_runnable-v1'],
      hints: ['One comparison has the wrong sense.', 'old.procs[pid].ppid == old.current'],
      solution: oracle('sys_set_runnable'),
    },
  ],
};
export default lesson;
