# expect: refuted cond
# mistake: an open slot may be named for a received descriptor
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid


def sys_recv(old, pid, pn, fd):
    cur = old.current

    cond = z3.And(
        # the process to run next is a real process-table slot
        is_pid_valid(pid),
        # which is ready to run
        old.procs[pid].state == dt.proc_state.PROC_RUNNABLE,
        # the page to receive into is a RAM page number
        is_pn_valid(pn),
        # owned by the caller
        old.pages[pn].owner == cur,
        # and a frame
        old.pages[pn].type == dt.page_type.PAGE_TYPE_FRAME,
    )

    new = old.copy()

    # Record where the message goes, accept it from anyone, and block.
    new.procs[cur].ipc_from = z3.BitVecVal(0, dt.pid_t)
    new.procs[cur].ipc_page = pn
    new.procs[cur].ipc_size = z3.BitVecVal(0, dt.size_t)
    new.procs[cur].ipc_fd = fd
    new.procs[cur].state = dt.proc_state.PROC_SLEEPING

    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    new.current = pid

    return cond, util.If(cond, new, old)


recv_proc = sys_recv
