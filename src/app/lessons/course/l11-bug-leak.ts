import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const lesson: Lesson = {
  id: 'bug-leak',
  body: `
<p>A <strong>memory leak</strong> in hv6 is broader than forgotten memory: it is any resource that stays
accounted to someone after it should have been given back, or any state that stays set when it should have
been cleared. The operators that make these bugs drop a release (<code>free_page</code>,
<code>clear_fd</code>), drop or flip an increment or decrement of a counter, drop a store that resets a field
to 0 or FREE, or turn a bit-clear into a bit-set.</p>
<p>Leaks matter because of how hv6 is built: a zombie can only be reaped when every counter is zero. A
missing decrement means the process can never be reaped; a missing increment lets a count reach zero while
something is still owned, so a later reap frees what is in use.</p>
<p>In the spec, leaks are caught by two habits:</p>
<ul>
  <li>every change of ownership updates the owner field <em>and</em> both counters (lesson 6);</li>
  <li>every field that the call resets is written, even when "it is probably 0 already". <code>sys_create</code>
  resets the new file's offset to 0; the spec must say so, or it allows an old position to survive.</li>
</ul>
<p>Order of writes matters when a write reads a field another write changes. <code>sys_reclaim_page(pn)</code>
takes a page from its dead owner: the spec must take the count from the <em>old</em> owner. After
<code>new.pages[pn].owner = 0</code>, <code>new.pages[pn].owner</code> is 0, and a decrement through it would
charge pid 0.</p>`,
  exercises: [
    {
      kind: 'field',
      id: 'uncounted',
      title: 'An uncounted descriptor',
      handler: 'sys_dup',
      prompt: 'The reference spec of sys_dup against sys_dup-v1. Which field does the verifier name?',
      spec: oracle('sys_dup'),
      impl: 'sys_dup-v1',
      choices: ['cond', 'procs.ofile', 'procs.nr_fds', 'files.type'],
      solution: 'procs.nr_fds',
      hints: ['Run it and read the highlighted row.', 'The descriptor is installed; is it counted?'],
    },
    {
      kind: 'spec',
      id: 'fresh-offset',
      title: 'A fresh file starts at 0',
      handler: 'sys_create',
      prompt: 'This spec follows sys_create-v1, which keeps the old position of the file-table entry. Reset it.',
      starter: spec(`
def sys_create(old, fd, fn, type, value, omode):
    cur = old.current
    cond = z3.And(
        type != dt.file_type.FD_NONE,
        is_fd_valid(fd),
        z3.Not(is_fn_valid(old.procs[cur].ofile(fd))),
        is_fn_valid(fn),
        old.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t),
    )
    new = old.copy()
    new.files[fn].type = type
    new.files[fn].value = value
    new.files[fn].omode = omode
    new.procs[cur].ofile[fd] = fn
    new.procs[cur].nr_fds[fd] += 1
    new.files[fn].refcnt[(cur, fd)] += 1
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_create-v1'],
      hints: ['Which field of the file keeps its old value in the counterexample?', 'new.files[fn].offset = z3.BitVecVal(0, dt.off_t)'],
      solution: oracle('sys_create'),
    },
    {
      kind: 'spec',
      id: 'read-before-clear',
      title: 'Read the owner before clearing it',
      handler: 'sys_reclaim_page',
      prompt:
        'This spec frees the page, but charges the wrong process. Fix the order of the writes. It must also catch sys_reclaim_page-v3, which forgets to free the page.',
      starter: spec(`
def sys_reclaim_page(old, pn):
    owner = old.pages[pn].owner
    cond = z3.And(
        is_pn_valid(pn),
        old.pages[pn].type != dt.page_type.PAGE_TYPE_FREE,
        is_pid_valid(owner),
        old.procs[owner].state == dt.proc_state.PROC_ZOMBIE,
        old.procs[owner].nr_devs() == z3.BitVecVal(0, dt.size_t),
    )
    new = old.copy()
    new.pages[pn].type = dt.page_type.PAGE_TYPE_FREE
    new.pages[pn].owner = z3.BitVecVal(0, dt.pid_t)
    new.procs[new.pages[pn].owner].nr_pages[pn] -= 1
    return cond, util.If(cond, new, old)
`),
      refuteOn: ['sys_reclaim_page-v3'],
      hints: [
        'Whose nr_pages changes in the spec? Look at the pid in that row.',
        'By the last line, new.pages[pn].owner is already 0.',
        'Decrement new.procs[owner].nr_pages[pn] (owner was read from old), or move the line first.',
      ],
      solution: oracle('sys_reclaim_page'),
    },
  ],
};
export default lesson;
