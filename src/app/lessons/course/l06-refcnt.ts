import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'refcnt',
  body: `
<p>A process that exits cannot be reaped while it still owns anything: pages, descriptors, ports,
vectors, devices, remapping entries, children. So the kernel keeps a <strong>counter</strong> per process and
per kind of resource (<code>nr_pages</code>, <code>nr_fds</code>, <code>nr_ports</code>,
<code>nr_vectors</code>, <code>nr_children</code>, ...) and one per file, <code>refcnt</code>, counting the
descriptors that point to it. <code>sys_reap</code> insists that all of a zombie's counters are zero.</p>
<p>In the spec these counters are of kind <strong>Refcnt</strong>. Read the count by calling it:
<code>old.procs[pid].nr_ports()</code> is a 64-bit <code>size_t</code>. Change it by naming <em>which</em>
object changes hands:</p>
<pre><code>new.procs[owner].nr_ports[port] -= 1      # owner gives up port
new.procs[cur].nr_vectors[vector] += 1    # cur takes vector
new.files[fn].refcnt[(pid, fd)] += 1      # one more descriptor (pid, fd) points to fn</code></pre>
<p>Only the count is compared with the C code. Behind it the spec keeps <em>ghost</em> state: an ordering of
the owned objects, in which the objects a process owns fill the first <code>count</code> positions. The
ghost is never compared with C; it lets the proof say "the count equals the number of objects owned" without
ever counting. That is why the object in the brackets matters even though refinement alone would accept
another: lesson 8 shows the check that notices.</p>
<p>Whenever a call moves ownership, two things change together: the owner field of the object
(<code>io[port].owner</code>, <code>vectors[vector].owner</code>, <code>procs[pid].ppid</code>,
<code>procs[pid].ofile(fd)</code>) and the counters on both sides. A spec that updates one without the
other is refuted on the count.</p>
<p>The calls here: <code>sys_reclaim_port(port)</code> and <code>sys_alloc_vector(vector)</code> from earlier
lessons; <code>sys_reparent(pid)</code>, where the dead parent loses a child and init gains one; and
<code>sys_dup(oldfd, pid, newfd)</code>, which makes descriptor <code>newfd</code> of process <code>pid</code>
point at the caller's file <code>oldfd</code>: one more descriptor for <code>pid</code>, one more reference
to the file.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'give-back-a-port',
      title: 'Give the port back',
      handler: 'sys_reclaim_port',
      prompt: 'This spec frees the port but forgets the dead owner\u2019s count. Fix it.',
      starter: spec(`
def sys_reclaim_port(old, port):
    owner = old.io[port].owner
    cond = z3.And(
        is_pid_valid(owner),
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)
    return cond, util.If(cond, new, old)
`),
      hints: [
        'The counterexample names procs.nr_ports: compare the owner\u2019s count before and after.',
        'The owner gives up the port, so its count goes down, naming the port.',
        'new.procs[owner].nr_ports[port] -= 1',
      ],
      solution: oracle('sys_reclaim_port'),
    },
    {
      kind: 'spec',
      id: 'count-up',
      title: 'Up, not down',
      handler: 'sys_alloc_vector',
      prompt: 'The caller gains a vector, but this spec counts the wrong way. Fix it.',
      starter: spec(`
def sys_alloc_vector(old, vector):
    cur = old.current
    cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)
    new = old.copy()
    new.vectors[vector].owner = cur
    new.procs[cur].nr_vectors[vector] -= 1
    return cond, util.If(cond, new, old)
`),
      hints: ['Compare the old and new nr_vectors of the caller in the table.', 'Taking a vector adds one: += 1.'],
      solution: oracle('sys_alloc_vector'),
    },
    {
      kind: 'spec',
      id: 'adoption',
      title: 'Adoption moves a child',
      handler: 'sys_reparent',
      prompt: 'This spec changes the orphan\u2019s parent but neither parent\u2019s count of children. Add both.',
      starter: spec(`
def sys_reparent(old, pid):
    parent = old.procs[pid].ppid
    init = dt.INITPID
    cond = z3.And(
        is_pid_valid(pid),
        is_pid_valid(parent),
        old.procs[parent].state == dt.proc_state.PROC_ZOMBIE,
        z3.Or(old.procs[init].state == dt.proc_state.PROC_RUNNABLE,
              old.procs[init].state == dt.proc_state.PROC_RUNNING),
    )
    new = old.copy()
    new.procs[pid].ppid = init
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Two counts change: the table shows nr_children for two different pids.',
        'The object that changes hands is the child, pid.',
        'new.procs[init].nr_children[pid] += 1 and new.procs[parent].nr_children[pid] -= 1',
      ],
      solution: oracle('sys_reparent'),
    },
    {
      kind: 'spec',
      id: 'one-more-reference',
      title: 'One more reference to the file',
      handler: 'sys_dup',
      prompt: 'This spec installs the descriptor and counts it for the process, but the file does not know. Add the file\u2019s reference.',
      starter: spec(`
def sys_dup(old, oldfd, pid, newfd):
    cur = old.current
    fn = old.procs[cur].ofile(oldfd)
    cond = z3.And(
        is_pid_valid(pid),
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
        is_fd_valid(oldfd),
        is_fn_valid(fn),
        is_fd_valid(newfd),
        z3.Not(is_fn_valid(old.procs[pid].ofile(newfd))),
    )
    new = old.copy()
    new.procs[pid].ofile[newfd] = fn
    new.procs[pid].nr_fds[newfd] += 1
    return cond, util.If(cond, new, old)
`),
      hints: [
        'The failed obligation is files.refcnt.',
        'A file\u2019s refcnt owns pairs (pid, fd): the descriptors that point to it.',
        'new.files[fn].refcnt[(pid, newfd)] += 1',
      ],
      solution: oracle('sys_dup'),
    },
  ],
};
export default lesson;
