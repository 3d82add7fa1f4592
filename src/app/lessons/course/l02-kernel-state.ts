import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'kernel-state',
  body: `
<p>The state a spec talks about is an <em>abstract</em> picture of the kernel. The C code keeps arrays such as
<code>proc_table</code>, <code>file_table</code> and <code>vector_table</code>; the spec sees them as
<strong>maps</strong>, total functions from an index to a value, grouped by what they describe:</p>
<ul>
  <li><code>old.procs</code>, indexed by a pid: <code>state</code>, <code>ppid</code>, <code>killed</code>,
  the descriptor table <code>ofile</code> (indexed by pid <em>and</em> descriptor number), the pending-interrupt
  words <code>intr</code>, and the counters <code>nr_fds</code>, <code>nr_ports</code>, <code>nr_vectors</code>, ...;</li>
  <li><code>old.files</code>, indexed by a file number <code>fn</code> (1 to 127): <code>type</code>,
  <code>offset</code>, <code>value</code>, <code>omode</code>, <code>refcnt</code>;</li>
  <li><code>old.pages</code>, indexed by a page number: <code>type</code>, <code>owner</code>, <code>data</code>;</li>
  <li><code>old.vectors</code>, <code>old.io</code>, <code>old.pci</code>: one <code>owner</code> per interrupt
  vector, I/O port and PCI device (0 means free, -1 reserved by the kernel);</li>
  <li><code>old.intremaps</code>: the interrupt-remapping table (<code>state</code>, <code>devid</code>,
  <code>vector</code>);</li>
  <li>and one scalar, <code>old.current</code>, the pid of the process that made the call.</li>
</ul>
<p>Reading and writing look different on purpose. A one-index field is read and written with brackets,
<code>old.procs[pid].state</code> and <code>new.procs[pid].state = ...</code>. A field with a second index is
<em>read</em> by calling it, <code>old.procs[pid].ofile(fd)</code>, and <em>written</em> with a second pair
of brackets, <code>new.procs[pid].ofile[fd] = fn</code>.</p>
<p>Indices carry a sort: a pid is 64 bits wide, a descriptor number 32, a vector 8, a port 16. Using a
descriptor where the file table wants a file number is a spec error, not a silent mistake; the editor marks it
as you type.</p>
<p>Every field the spec does not write keeps its old value, and the verifier compares <em>all</em> of them with
the C code's. When a spec forgets an effect, the counterexample table names the field that the kernel changed
and the spec did not. In this lesson you read such a table and then fix specs that reach for the wrong part
of the state.</p>
<p><code>sys_lseek(fd, offset)</code> moves the position of an open inode; the descriptor is the caller's, so
the file number is <code>old.procs[old.current].ofile(fd)</code>. <code>sys_alloc_vector(vector)</code> hands a
free interrupt vector to the caller and adds one to the caller's <code>nr_vectors</code>.
<code>sys_alloc_intremap(index, devid, vector)</code> fills a free remapping entry so that device
<code>devid</code>'s interrupts arrive on <code>vector</code>; the caller must own both.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'which-field',
      title: 'Read the table',
      handler: 'sys_alloc_vector',
      prompt:
        'This spec of sys_alloc_vector forgets one effect of the call. Run it against the kernel, read the counterexample, and choose the field it names.',
      spec: spec(`
def sys_alloc_vector(old, vector):
    cond = old.vectors[vector].owner == z3.BitVecVal(0, dt.pid_t)
    new = old.copy()
    new.vectors[vector].owner = old.current
    return cond, util.If(cond, new, old)
`),
      choices: ['cond', 'vectors.owner', 'procs.nr_vectors', 'current'],
      solution: 'procs.nr_vectors',
      hints: [
        'Press "Run the verifier" and look for the highlighted row: spec and implementation disagree there.',
        'The owner is written by the spec. What else does the kernel count when a process gets a vector?',
      ],
    },
    {
      kind: 'spec',
      id: 'whose-descriptor',
      title: 'Whose descriptor?',
      handler: 'sys_lseek',
      prompt: 'This spec looks the descriptor up in the wrong process. Make it use the caller\u2019s descriptor table.',
      starter: spec(`
def sys_lseek(old, fd, offset):
    fn = old.procs[dt.INITPID].ofile(fd)
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
      hints: [
        'Descriptors are per process. Which process made the call?',
        'The caller is old.current, not init (pid 1).',
        'fn = old.procs[old.current].ofile(fd)',
      ],
      solution: oracle('sys_lseek'),
    },
    {
      kind: 'spec',
      id: 'all-three-fields',
      title: 'Every field of the entry',
      handler: 'sys_alloc_intremap',
      prompt: 'The kernel fills three fields of the remapping entry and counts it for the caller. This spec misses one field. Find it and add it.',
      starter: spec(`
def sys_alloc_intremap(old, index, devid, vector):
    cur = old.current
    cond = z3.And(
        is_intremap_valid(index),
        old.intremaps[index].state == dt.intremap_state.IR_FREE,
        old.pci[devid].owner == cur,
        old.vectors[vector].owner == cur,
    )
    new = old.copy()
    new.intremaps[index].state = dt.intremap_state.IR_ACTIVE
    new.intremaps[index].devid = devid
    new.procs[cur].nr_intremaps[index] += 1
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Check and read which intremaps field differs.',
        'The entry records where the interrupt goes.',
        'new.intremaps[index].vector = vector',
      ],
      solution: oracle('sys_alloc_intremap'),
    },
  ],
};
export default lesson;
