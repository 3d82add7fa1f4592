import type { Lesson } from '../lesson.ts';
import { oracle, spec } from '../spec-text.ts';

const COND = `    cond = z3.And(
        is_pn_valid(frm),
        old.pages[frm].type == dt.page_type.PAGE_TYPE_FRAME,
        old.pages[frm].owner == cur,
        is_pid_valid(pid),
        is_pn_valid(to),
        old.pages[to].type == dt.page_type.PAGE_TYPE_FRAME,
        old.pages[to].owner == pid,
        z3.Or(pid == cur,
              z3.And(old.procs[pid].ppid == cur,
                     old.procs[pid].state == dt.proc_state.PROC_EMBRYO)),
    )`;

const lesson: Lesson = {
  id: 'lambdas',
  body: `
<p>Most effects change one cell: <code>new.procs[pid].state = ...</code>. Some change a whole region at once.
<code>sys_copy_frame(frm, pid, to)</code> copies all 512 words of page <code>frm</code> into page
<code>to</code>. Writing 512 assignments would work for one page, but the spec must say it for a symbolic
page number, and say that every <em>other</em> page stays as it was.</p>
<p>For this a spec assigns a whole map, written as a Python <strong>lambda</strong>. The lambda receives the
map's indices and, as its last argument, the map before the assignment, and returns the value at those
indices afterwards:</p>
<pre><code>new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), oldfn(p, i))</code></pre>
<p>Read it as: "after the call, word <code>i</code> of page <code>p</code> is word <code>i</code> of
<code>frm</code> if <code>p</code> is <code>to</code>, and what it was otherwise". The lambda is not run
once; it <em>is</em> the new map, a formula in <code>p</code> and <code>i</code>. Two points matter:</p>
<ul>
  <li>always fall back to <code>oldfn(p, i)</code>: a lambda that returns something else for other pages
  claims that the call overwrote them;</li>
  <li>read through <code>oldfn</code>, not through <code>new</code>: <code>oldfn</code> is the map just before
  this assignment, so a chain of lambda writes (as in <code>clone_proc</code>, which copies two pages) composes
  in order.</li>
</ul>
<p>A field with one index can be assigned a whole value too: <code>new.procs[pid].ofile = z3.BitVecVal(0,
dt.fn_t)</code> empties all of a process's descriptors at once.</p>
<p>The condition of <code>sys_copy_frame</code> is long but plain: both pages must be frames, the source the
caller's, the destination <code>pid</code>'s, and <code>pid</code> must be the caller or an embryo child of
it. It is given in every exercise.</p>`,
  exercises: [
    {
      kind: 'spec',
      id: 'write-the-copy',
      title: 'Write the copy',
      handler: 'sys_copy_frame',
      prompt: 'The condition is complete; the effect is missing. Describe the copy with one lambda assignment to new.pages.data.',
      starter: spec(`
def sys_copy_frame(old, frm, pid, to):
    cur = old.current
${COND}
    new = old.copy()
    # the copy goes here
    return cond, util.If(cond, new, old)
`),
      hints: [
        'The counterexample names pages.data: a word of page to differs.',
        'Assign new.pages.data = lambda p, i, oldfn: ...; for p == to it is oldfn(frm, i).',
        'new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), oldfn(p, i))',
      ],
      solution: oracle('sys_copy_frame'),
    },
    {
      kind: 'spec',
      id: 'direction',
      title: 'Which way does it copy?',
      handler: 'sys_copy_frame',
      prompt: 'This lambda copies, but in the wrong direction. Fix it.',
      starter: spec(`
def sys_copy_frame(old, frm, pid, to):
    cur = old.current
${COND}
    new = old.copy()
    new.pages.data = lambda p, i, oldfn: util.If(p == frm, oldfn(to, i), oldfn(p, i))
    return cond, util.If(cond, new, old)
`),
      hints: ['Which page changes in the counterexample, and which one in the spec?', 'Page to receives the words of page frm.'],
      solution: oracle('sys_copy_frame'),
    },
    {
      kind: 'spec',
      id: 'leave-the-rest',
      title: 'Leave the other pages alone',
      handler: 'sys_copy_frame',
      prompt: 'This lambda copies the right page but says something false about every other page. Fix the fallback.',
      starter: spec(`
def sys_copy_frame(old, frm, pid, to):
    cur = old.current
${COND}
    new = old.copy()
    new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), util.i64(0))
    return cond, util.If(cond, new, old)
`),
      hints: [
        'Look at the page named in the counterexample: is it to?',
        'For every page other than to, the word after the call is the word before it.',
        'Use oldfn(p, i) as the else branch.',
      ],
      solution: oracle('sys_copy_frame'),
    },
  ],
};
export default lesson;
