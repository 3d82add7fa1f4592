# expect: refuted pages.data
# mistake: the message body is not copied
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid, is_fd_valid, is_fn_valid


def sys_send(old, pid, val, pn, size, fd):
    cur = old.current

    cond = z3.And(
        # the receiver is a real process-table slot
        is_pid_valid(pid),
        # which is blocked waiting for a message
        old.procs[pid].state == dt.proc_state.PROC_SLEEPING,
        # the page to send from is a RAM page number
        is_pn_valid(pn),
        # owned by the caller (any type)
        old.pages[pn].owner == cur,
        # the message is at most one page
        z3.ULE(size, dt.PAGE_SIZE),
        # a descriptor to pass along, if any, is open in the caller
        z3.Implies(is_fd_valid(fd), is_fn_valid(old.procs[cur].ofile(fd))),
    )

    new = old.copy()

    # Deliver the message.
    new.procs[pid].ipc_from = cur
    new.procs[pid].ipc_val = val
    new.procs[pid].ipc_size = size
    dst = old.procs[pid].ipc_page

    # Pass a descriptor when both sides asked for one.
    fn = old.procs[cur].ofile(fd)
    slot = old.procs[pid].ipc_fd
    passed = new.copy()
    passed.procs[pid].ofile[slot] = fn
    passed.procs[pid].nr_fds[slot] += 1
    passed.files[fn].refcnt[(pid, slot)] += 1
    new = util.If(z3.And(is_fd_valid(fd), is_fd_valid(slot)), passed, new)

    # Hand the CPU to the receiver.
    new.procs[pid].state = dt.proc_state.PROC_RUNNING
    new.procs[cur].state = dt.proc_state.PROC_RUNNABLE
    new.current = pid

    return cond, util.If(cond, new, old)


send_proc = sys_send
