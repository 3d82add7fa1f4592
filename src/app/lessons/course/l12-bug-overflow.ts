import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bug-overflow',
  body: `
<p>A <strong>buffer overflow</strong> bug makes the kernel touch memory next to the object it means: one
element past the end of a table, or the neighbour of the right element. The operators that make them turn
<code>x &lt; N</code> into <code>x &lt;= N</code>, index <code>a[i + 1]</code> for <code>a[i]</code>, shrink a
divisor so that a word index grows (<code>x / 64</code> becomes <code>x / 32</code>), or drop an upper-bound
check against a table's size.</p>
<p>The verifier sees these bugs in two ways. When the index can run off the end of a C array, the
implementation-only obligation <code>safety</code> fails: the C code can read or write out of bounds, and no
spec can make it verify. When the index stays inside the array but names the neighbour, it is a state
change at the wrong place, and the counterexample shows two rows: the cell that should have changed and did
not, and the one that changed and should not have.</p>
<p>The spec's side of this is to say exactly which element changes, with the widths and divisions of
lesson 4. In <code>sys_ack_intr</code> a vector lives in word <code>v / 64</code>: 256 bits are four 64-bit
words. A spec that follows a buggy <code>v / 32</code> talks about words 4 to 7, which a process does not
have.</p>
<p>Off-by-one mistakes at the top of a range are the spec writer's classic too: valid pids are 1 to 63,
valid file numbers 1 to 127, descriptors 0 to 15. The helpers <code>is_pid_valid</code>,
<code>is_fn_valid</code> and <code>is_fd_valid</code> say it once, correctly.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'next-door',
      title: 'The vector next door',
      handler: 'sys_alloc_vector',
      prompt: 'sys_alloc_vector-v1 writes one slot too far. Run the reference spec against it and pick a field the verifier names.',
      spec: oracle('sys_alloc_vector'),
      impl: 'sys_alloc_vector-v1',
      choices: ['procs.state', 'vectors.owner', 'io.owner', 'current'],
      solution: 'vectors.owner',
      hints: ['Run it; look at the two vector indices in the table.', 'The owner is written at vector + 1.'],
    },
    {
      kind: 'spec',
      id: 'sixty-four',
      title: 'Sixty-four bits per word',
      handler: 'sys_ack_intr',
      prompt: 'This spec follows sys_ack_intr-v2, which divides by 32. Fix the word and the bit.',
      starter: spec(`
def sys_ack_intr(old, vector):
    cur = old.current
    v = z3.ZeroExt(56, vector)
    word = z3.UDiv(v, util.i64(32))
    mask = util.i64(1) << z3.URem(v, util.i64(32))
    new = old.copy()
    new.procs[cur].intr[word] = old.procs[cur].intr(word) & ~mask
    return z3.BoolVal(True), new
`),
      refuteOn: ['sys_ack_intr-v2'],
      hints: ['How many bits does one intr word hold?', 'Use util.i64(64) in both the division and the remainder.'],
      solution: oracle('sys_ack_intr'),
    },
    {
      kind: 'spec',
      id: 'neighbour-process',
      title: 'The neighbour\u2019s descriptors',
      handler: 'sys_lseek',
      prompt: 'This spec follows sys_lseek-v2, which reads the process-table slot after the caller\u2019s. Fix it.',
      starter: spec(`
def sys_lseek(old, fd, offset):
    fn = old.procs[old.current + 1].ofile(fd)
    cond = z3.And(
        is_fd_valid(fd),
        is_fn_valid(fn),
        old.files[fn].type == dt.file_type.FD_INODE,
        offset >= z3.BitVecVal(0, dt.off_t),
    )
    new = old.copy()
    new.files[fn].offset = offset
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_lseek-v2'],
      hints: ['Whose descriptor table is it?', 'fn = old.procs[old.current].ofile(fd)'],
      solution: oracle('sys_lseek'),
    },
  ],
};
export default lesson;
