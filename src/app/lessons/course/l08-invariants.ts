import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const WRONG_GHOST = spec(`
def sys_reclaim_port(old, port):
    owner = old.io[port].owner
    cond = z3.And(
        is_pid_valid(owner),
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[owner].nr_ports[port + 1] -= 1
    new.io[port].owner = z3.BitVecVal(0, dt.pid_t)
    return cond, util.If(cond, new, old)
`);

const lesson: Lesson = {
  id: 'invariants',
  body: `
<p>Refinement compares the spec with the C code. A second family of checks looks at the spec
<em>alone</em>, and asks whether the state machine it describes keeps the properties that make the kernel
safe. OSVLab calls them the <strong>strict</strong> checks (the Strict box in the playground, <code>osvlab
verify --strict</code> on the command line).</p>
<h4>Invariants</h4>
<p>A <em>spec invariant</em> is a fact about a single state that every call must preserve: if it holds
before, it holds after. Examples: the current process is valid and running, and no other process is running; a
page is in use exactly when its owner is a valid pid; a sleeping process's IPC page is a frame it owns. The strict check proves, for your spec and every
start state satisfying all invariants, that the state after the call satisfies them too.</p>
<h4>Isolation lemmas</h4>
<p>On top of the invariants sit the <em>lemmas</em>, the properties a reader actually cares about. The
isolation lemma says that a process can reach, through its page tables, only pages it owns. The counting
lemmas (<code>nr_ports_refcnt</code>, <code>nr_vectors_refcnt</code>, <code>files_refcnt</code>, ...) say that
each counter and its ghost ordering agree with the owner fields: the objects a process owns fill exactly the
first <em>count</em> positions of its ordering, so the count is the number of objects it owns. Each is checked the same
way: preserved by your spec, for all states.</p>
<p>Why is this not implied by refinement? Because of ghost state. The count is compared with C, but which
object a <code>-= 1</code> names lives only in the spec's ghost ordering. A spec that decrements the right
owner's count but names the wrong object is refined by the kernel, and yet it describes a machine in which
"the count equals what you own" breaks. The lemma catches it; the failure names the lemma (and the part of
it, such as <code>nr_ports_refcnt</code>).</p>
<p>Strict checks take longer than refinement, several seconds even for small calls. Use them once a spec
verifies.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'which-lemma',
      title: 'Verified, but not strict',
      handler: 'sys_reclaim_port',
      prompt:
        'This spec of sys_reclaim_port is verified by refinement. Run it with the strict checks and choose what fails. (This takes several seconds.)',
      spec: WRONG_GHOST,
      strict: true,
      choices: ['procs.nr_ports', 'io.owner', 'nr_ports_refcnt', 'isolation'],
      solution: 'nr_ports_refcnt',
      hints: ['Look at the list of failed checks under the verdict.', 'The count is right; the object named in the brackets is not the port that was freed.'],
    },
    {
      kind: 'spec',
      id: 'name-the-port',
      title: 'Name the object you give back',
      handler: 'sys_reclaim_port',
      prompt: 'Fix the spec so that it passes the strict checks too.',
      starter: WRONG_GHOST,
      strict: true,
      hints: [
        'The refinement part already passes; the nr_ports_refcnt lemma fails.',
        'The object that changes hands is port itself.',
        'new.procs[owner].nr_ports[port] -= 1',
      ],
      solution: oracle('sys_reclaim_port'),
    },
    {
      kind: 'spec',
      id: 'whose-count',
      title: 'Whose count?',
      handler: 'sys_alloc_vector',
      prompt: 'This spec counts the new vector for the wrong process. Find the one that gains it.',
      starter: spec(`
def sys_alloc_vector(old, vector):
    owner = old.vectors[vector].owner
    cond = owner == z3.BitVecVal(0, dt.pid_t)
    new = old.copy()
    new.vectors[vector].owner = old.current
    new.procs[owner].nr_vectors[vector] += 1
    return cond, util.If(cond, new, old)
`),
      hints: [
        'When the call succeeds, what is owner? Look at the pid in the nr_vectors row.',
        'The old owner is 0, the free marker. The new owner is the caller.',
        'new.procs[old.current].nr_vectors[vector] += 1',
      ],
      solution: oracle('sys_alloc_vector'),
    },
  ],
};
export default lesson;
