# expect: refuted cond
# mistake: anyone may write any process's frames
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def sys_copy_frame(old, frm, pid, to):
    cur = old.current

    cond = z3.And(
        # the source is a RAM page number
        is_pn_valid(frm),
        # holding a frame
        old.pages[frm].type == dt.page_type.PAGE_TYPE_FRAME,
        # of the caller
        old.pages[frm].owner == cur,
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the destination is a RAM page number
        is_pn_valid(to),
        # holding a frame
        old.pages[to].type == dt.page_type.PAGE_TYPE_FRAME,
        # of the target process
        old.pages[to].owner == pid,
    )

    new = old.copy()

    # Page `to` becomes a word-for-word copy of page `frm`.
    new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), oldfn(p, i))

    return cond, util.If(cond, new, old)
