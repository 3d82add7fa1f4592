import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const RECLAIM_VECTOR_LOOSE = spec(`
def sys_reclaim_vector(old, vector):
    owner = old.vectors[vector].owner
    cond = z3.And(
        is_pid_valid(owner),
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.vectors[vector].owner = z3.BitVecVal(0, dt.pid_t)
    new.procs[owner].nr_vectors[vector] -= 1
    return cond, util.If(cond, new, old)
`);

const lesson: Lesson = {
  id: 'conditions',
  body: `
<p>A spec is evaluated <em>symbolically</em>: <code>pid</code> is not a number, so a Python <code>if</code>
cannot look at it. Conditions are built as formulas instead:</p>
<ul>
  <li><code>z3.And(a, b, ...)</code>, <code>z3.Or(a, b)</code>, <code>z3.Not(a)</code> combine them;</li>
  <li><code>==</code> and <code>!=</code> compare values and give a formula;</li>
  <li><code>util.If(c, x, y)</code> picks <code>x</code> where <code>c</code> holds and <code>y</code> elsewhere,
  for single values as well as whole states.</li>
</ul>
<p>Python's <code>and</code>, <code>or</code>, <code>not</code> and <code>if</code> are rejected on such terms:
they would silently decide on the Python truth of an object rather than on the formula.</p>
<h4>Errno order</h4>
<p>In C, a handler is a list of checks, each returning its own error code, and the first failing check wins:
<code>sys_reclaim_vector</code> returns <code>-EACCES</code> when the owner is not a zombie and
<code>-EBUSY</code> when the zombie still has remapping entries. The verifier, like hv6's, proves only
<em>"the call returns 0 exactly when cond holds"</em>. So in the spec the checks become one conjunction and
their order does not matter to the proof. What matters is that <em>every</em> check is there, and nothing
more: a missing conjunct lets the spec accept a call the kernel refuses; an extra one refuses a call the
kernel accepts. Both show up as a failed <code>cond</code> obligation, with the implementation's return value
next to the spec's condition. Keeping the conjuncts in the kernel's order still helps the reader, and it is
how the descriptions in the task browser list them.</p>
<p>Conditions read the <em>old</em> state. A check such as "the owner is a zombie" looks at
<code>old.procs[owner].state</code>, before anything changes.</p>
<p>Three calls here. <code>sys_reclaim_vector(vector)</code> takes a vector back from a dead owner, which must
have no remapping entries left (read the count with <code>old.procs[owner].nr_intremaps()</code>).
<code>sys_kill(pid)</code> fails on an invalid pid, an unused slot and a process that is already a zombie.
<code>sys_reparent(pid)</code> hands an orphan to init (pid 1) when its parent has died, provided init is
alive: runnable <em>or</em> running.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'missing-check-shows-as',
      title: 'What a missing check looks like',
      handler: 'sys_reclaim_vector',
      prompt: 'This spec of sys_reclaim_vector lacks one of the kernel\u2019s checks. Run it and choose the obligation the verifier says fails.',
      spec: RECLAIM_VECTOR_LOOSE,
      choices: ['cond', 'vectors.owner', 'procs.nr_vectors', 'procs.nr_intremaps'],
      solution: 'cond',
      hints: [
        'Look at the line above the table: the spec\u2019s condition and the implementation\u2019s return value.',
        'The spec says the call succeeds; the kernel returns an error. Which obligation is about success?',
      ],
    },
    {
      kind: 'spec',
      id: 'add-the-check',
      title: 'Add the third check',
      handler: 'sys_reclaim_vector',
      prompt: 'Now fix it: add the check that makes the kernel return -EBUSY.',
      starter: RECLAIM_VECTOR_LOOSE,
      hints: [
        'In the counterexample, look at the owner\u2019s nr_intremaps count.',
        'A Refcnt is read by calling it: old.procs[owner].nr_intremaps().',
        'Add old.procs[owner].nr_intremaps() == z3.BitVecVal(0, dt.size_t).',
      ],
      solution: oracle('sys_reclaim_vector'),
    },
    {
      kind: 'spec',
      id: 'kill-a-zombie',
      title: 'Killing the dead',
      handler: 'sys_kill',
      prompt: 'One failure case of sys_kill is missing from this condition. Add it.',
      starter: spec(`
def sys_kill(old, pid):
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)
    return cond, util.If(cond, new, old)
`),
      hints: [
        'In the counterexample, what is the old state of the process?',
        'A process that is already dead cannot be killed again.',
        'Add old.procs[pid].state != dt.proc_state.PROC_ZOMBIE.',
      ],
      solution: oracle('sys_kill'),
    },
    {
      kind: 'spec',
      id: 'either-state',
      title: 'Runnable or running',
      handler: 'sys_reparent',
      prompt: 'This spec asks too much of init. The kernel accepts init in either of two states. Use z3.Or.',
      starter: spec(`
def sys_reparent(old, pid):
    parent = old.procs[pid].ppid
    init = dt.INITPID
    cond = z3.And(
        is_pid_valid(pid),
        is_pid_valid(parent),
        old.procs[parent].state == dt.proc_state.PROC_ZOMBIE,
        old.procs[init].state == dt.proc_state.PROC_RUNNABLE,
    )
    new = old.copy()
    new.procs[init].nr_children[pid] += 1
    new.procs[parent].nr_children[pid] -= 1
    new.procs[pid].ppid = init
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Here the spec refuses a call the kernel accepts: look at the return value in the counterexample and at init\u2019s state.',
        'Init may be the process making the call.',
        'z3.Or(old.procs[init].state == dt.proc_state.PROC_RUNNABLE, old.procs[init].state == dt.proc_state.PROC_RUNNING)',
      ],
      solution: oracle('sys_reparent'),
    },
  ],
};
export default lesson;
