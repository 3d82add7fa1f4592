import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'full-spec',
  body: `
<p>Now the whole job, as the benchmark asks it: a functional description in, a spec out. A method that
works:</p>
<ol>
  <li><strong>Name things.</strong> Give every value the description keeps referring to a local name:
  <code>cur = old.current</code>, <code>owner = old.vectors[vector].owner</code>,
  <code>fn = old.procs[pid].ofile(fd)</code>. Always read them from <code>old</code>.</li>
  <li><strong>Write the condition as a list.</strong> One conjunct per check of the description, in its
  order, each a formula about <code>old</code>. Use the helpers for ranges.</li>
  <li><strong>Write the effects.</strong> One assignment per change, on <code>new = old.copy()</code>. For every
  owner field that changes, the counters on both sides (lesson 6). For every field the call resets, the
  reset.</li>
  <li><strong>Cases inside success.</strong> When the effect depends on the state (the running process is not
  made a zombie; the last close frees the file), use <code>util.If</code> on a value or on a whole state.</li>
  <li><strong>Close with</strong> <code>return cond, util.If(cond, new, old)</code>, and check.</li>
</ol>
<p>Then read the verdict as lessons 3 and 5 taught: <code>cond</code> means a check is missing or extra;
a field name means an effect is missing, extra or wrong.</p>
<p>The three descriptions below are short versions of those in the task browser.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'alloc-vector',
      title: 'sys_alloc_vector from its description',
      handler: 'sys_alloc_vector',
      prompt:
        'sys_alloc_vector(vector) gives interrupt vector <code>vector</code> to the caller. It succeeds exactly when the vector is free: its owner is 0 (neither owned by a process nor reserved by the kernel, -1). On success the caller becomes the owner and owns one more vector. Write the spec.',
      starter: spec(`
def sys_alloc_vector(old, vector):
    cond = z3.BoolVal(True)
    new = old.copy()

    return cond, util.If(cond, new, old)
`),
      hints: [
        'Condition: old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t).',
        'Effects: the owner field, and the caller\u2019s nr_vectors naming the vector.',
        'new.vectors[vector].owner = old.current; new.procs[old.current].nr_vectors[vector] += 1',
      ],
      solution: oracle('sys_alloc_vector'),
    },
    {
      kind: 'spec',
      id: 'reclaim-vector',
      title: 'sys_reclaim_vector from its description',
      handler: 'sys_reclaim_vector',
      prompt:
        'sys_reclaim_vector(vector) takes a vector back from a dead process. Let owner be the vector\u2019s owner. It succeeds exactly when owner is a valid pid, owner is a zombie, and owner has no interrupt-remapping entries left. On success the vector is free (owner 0) and owner owns one vector fewer. Your spec must also catch sys_reclaim_vector-v3.',
      starter: spec(`
def sys_reclaim_vector(old, vector):
    cond = z3.BoolVal(True)
    new = old.copy()

    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_reclaim_vector-v3'],
      hints: [
        'Start with owner = old.vectors[vector].owner.',
        'Three conjuncts: is_pid_valid(owner), its state is PROC_ZOMBIE, and old.procs[owner].nr_intremaps() == z3.BitVecVal(0, dt.size_t).',
        'Effects: new.vectors[vector].owner = z3.BitVecVal(0, dt.pid_t) and new.procs[owner].nr_vectors[vector] -= 1.',
      ],
      solution: oracle('sys_reclaim_vector'),
    },
    {
      kind: 'spec',
      id: 'close',
      title: 'sys_close from its description',
      handler: 'sys_close',
      prompt:
        'sys_close(pid, fd) closes descriptor fd of process pid. Let fn be that descriptor\u2019s file. It succeeds exactly when pid is valid, fd is valid, pid is the caller or a zombie, and fn is a valid file number (the descriptor is open). On success the descriptor becomes 0, pid has one descriptor fewer, and the file one reference fewer (the pair (pid, fd)). If that was the file\u2019s last reference, the file entry is reset: type FD_NONE, value, offset and omode 0.',
      starter: spec(`
def sys_close(old, pid, fd):
    fn = old.procs[pid].ofile(fd)
    cond = z3.BoolVal(True)
    new = old.copy()

    return cond, util.If(cond, new, old)
`),
      hints: [
        'The condition has four conjuncts; "the caller or a zombie" is a z3.Or.',
        'Write the three effects on new. Then make released = new.copy() with the four resets, and test the last reference on new: new.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t).',
        'Return cond, util.If(cond, util.If(last, released, new), old).',
      ],
      solution: oracle('sys_close'),
    },
  ],
};
export default lesson;
