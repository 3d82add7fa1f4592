import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bit-vectors',
  body: `
<p>Every number in a spec is a <strong>bit-vector</strong>: a fixed number of bits, with arithmetic that
wraps around modulo 2<sup>width</sup>. The sorts are in <code>dt</code>: <code>dt.pid_t</code>,
<code>dt.fn_t</code>, <code>dt.size_t</code> and <code>dt.off_t</code> are 64 bits, <code>dt.fd_t</code> is 32,
a port 16 and a vector 8. Constants are written <code>z3.BitVecVal(0, dt.size_t)</code> or, for 64 bits,
<code>util.i64(0)</code>. A plain Python integer next to a bit-vector takes that bit-vector's width.</p>
<h4>Signs live in the operations</h4>
<p>A bit-vector has no sign; the operation decides. As in z3py, <code>&lt;</code>, <code>&lt;=</code>,
<code>&gt;</code>, <code>&gt;=</code>, <code>/</code> and <code>&gt;&gt;</code> are the <em>signed</em>
operations, while <code>z3.ULT</code>, <code>z3.ULE</code>, <code>z3.UGT</code>, <code>z3.UGE</code>,
<code>z3.UDiv</code>, <code>z3.URem</code> and <code>z3.LShR</code> are unsigned. With 64 bits,
0x8000000000000000 is a huge unsigned number and the most negative signed one. So
<code>z3.UGE(x, 0)</code> holds for every <code>x</code>: it checks nothing.</p>
<h4>Widths must match</h4>
<p>Two bit-vectors of different widths cannot be added or compared. <code>z3.ZeroExt(n, x)</code> adds
<code>n</code> zero bits on the left, <code>z3.SignExt</code> copies the sign bit, and
<code>z3.Extract(hi, lo, x)</code> keeps bits <code>hi</code> down to <code>lo</code>. A map index must have the
index's sort: the pending-interrupt words <code>procs[pid].intr(word)</code> take a 64-bit word number.</p>
<h4>Bits of a word</h4>
<p>Each process has 256 pending-interrupt bits, kept as four 64-bit words. Vector <code>v</code> is bit
<code>v mod 64</code> of word <code>v / 64</code>. <code>sys_ack_intr(vector)</code> clears that bit for the
caller and always succeeds. Setting a bit is <code>w | mask</code>, clearing it is <code>w &amp; ~mask</code>,
where <code>mask = util.i64(1) &lt;&lt; bit</code>.</p>
<p><code>sys_lseek(fd, offset)</code> refuses a negative offset: <code>off_t</code> is signed in C.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'signed-offset',
      title: 'A negative offset',
      handler: 'sys_lseek',
      prompt: 'Check this spec, look at the offset in the counterexample, then fix the comparison.',
      starter: spec(`
def sys_lseek(old, fd, offset):
    fn = old.procs[old.current].ofile(fd)
    cond = z3.And(
        is_fd_valid(fd),
        is_fn_valid(fn),
        old.files[fn].type == dt.file_type.FD_INODE,
        z3.UGE(offset, z3.BitVecVal(0, dt.off_t)),
    )
    new = old.copy()
    new.files[fn].offset = offset
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Which value does the counterexample pick for offset? Read it as a signed number.',
        'z3.UGE(x, 0) is true for every x. The kernel compares offset with 0 as a signed number.',
        'Write offset >= z3.BitVecVal(0, dt.off_t) (the >= operator is signed).',
      ],
      solution: oracle('sys_lseek'),
    },
    {
      kind: 'spec',
      id: 'widen-the-vector',
      title: 'Eight bits into sixty-four',
      handler: 'sys_ack_intr',
      prompt: 'This spec does not even run: the word number has the wrong width. Widen the vector before dividing.',
      starter: spec(`
def sys_ack_intr(old, vector):
    cur = old.current
    word = z3.UDiv(vector, 64)
    mask = util.i64(1) << z3.ZeroExt(56, z3.URem(vector, 64))
    new = old.copy()
    new.procs[cur].intr[word] = old.procs[cur].intr(word) & ~mask
    return z3.BoolVal(True), new
`),
      hints: [
        'Read the error message: which index has the wrong sort?',
        'vector is 8 bits wide; the intr map wants a 64-bit word number. z3.ZeroExt(56, vector) is the same number in 64 bits.',
        'v = z3.ZeroExt(56, vector); word = z3.UDiv(v, util.i64(64)); mask = util.i64(1) << z3.URem(v, util.i64(64))',
      ],
      solution: oracle('sys_ack_intr'),
    },
    {
      kind: 'spec',
      id: 'clear-one-bit',
      title: 'Clear one bit, keep the rest',
      handler: 'sys_ack_intr',
      prompt: 'This spec computes the right word and mask, but the new word is wrong. Clear only the acknowledged bit.',
      starter: spec(`
def sys_ack_intr(old, vector):
    cur = old.current
    v = z3.ZeroExt(56, vector)
    word = z3.UDiv(v, util.i64(64))
    mask = util.i64(1) << z3.URem(v, util.i64(64))
    new = old.copy()
    new.procs[cur].intr[word] = old.procs[cur].intr(word) & mask
    return z3.BoolVal(True), new
`),
      hints: [
        'Compare the old and new values of procs.intr in the counterexample, bit by bit.',
        'w & mask keeps only the acknowledged bit. You want every bit but that one.',
        'old.procs[cur].intr(word) & ~mask',
      ],
      solution: oracle('sys_ack_intr'),
    },
  ],
};
export default lesson;
