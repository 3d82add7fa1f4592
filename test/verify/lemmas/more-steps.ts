/**
 * More hand-built steps for the Refcnt tests: freeing a page (a Refcnt
 * `-= 1`) and closing an fd (a Refcnt2 `-= 1`), each with an optional
 * mistake in which item or owner the count is taken from.
 */
import * as o from '../../../src/core/smt/ops.ts';
import { type Term, bvConst, variable } from '../../../src/core/smt/term.ts';
import { ENUMS } from '../../../src/core/kernel/constants.ts';
import { isFdValid, isFnValid, isPidValid, isPnValid } from '../../../src/core/kernel/equiv.ts';
import type { AbstractState } from '../../../src/core/kernel/state.ts';
import { Step, u64 } from './steps.ts';

const PT = ENUMS.page_type;

/** The current process frees one of its FRAME pages; `wrongOwner` uncounts it from another process. */
export function freeFrameStep(pre: AbstractState, mistakes: { wrongOwner?: boolean } = {}) {
  const pn = variable('arg.pn', 64);
  const other = variable('arg.other', 64);
  const s0 = new Step(pre);
  const cur = s0.read('current');
  const cond = o.and(
    isPnValid(pn),
    o.eq(s0.read('pages.owner', pn), cur),
    o.eq(s0.read('pages.type', pn), u64(PT.PAGE_TYPE_FRAME)),
    isPidValid(other),
    o.not(o.eq(other, cur)),
    // the other process owns something, so a wrong -= 1 stays in range
    o.not(o.eq(s0.read('procs.nr_pages', other), u64(0))),
  );
  const post = s0
    .set('pages.owner', [pn], u64(0))
    .set('pages.type', [pn], u64(PT.PAGE_TYPE_FREE))
    .dec('procs.nr_pages', mistakes.wrongOwner ? other : cur, [pn])
    .commit(cond, pre);
  return { cond, post };
}

/** The current process closes an fd holding a file; `wrongFd` uncounts another fd's slot from the file. */
export function closeStep(pre: AbstractState, mistakes: { wrongFd?: boolean } = {}) {
  const fd = variable('arg.fd', 32);
  const fd2 = variable('arg.fd2', 32);
  const s0 = new Step(pre);
  const cur = s0.read('current');
  const fn = s0.read('procs.ofile', cur, fd);
  const cond = o.and(isFdValid(fd), isFnValid(fn), isFdValid(fd2), o.not(o.eq(fd, fd2)), isPidValid(cur));
  const post = s0
    .set('procs.ofile', [cur, fd], bvConst(0, 64))
    .dec('files.refcnt', fn, [cur, mistakes.wrongFd ? fd2 : fd])
    .dec('procs.nr_fds', cur, [fd])
    .commit(cond, pre);
  return { cond, post };
}

export type { Term };
