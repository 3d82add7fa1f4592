# expect: refuted cond
# mistake: the reply page need not be a frame
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_pn_valid, is_fd_valid, is_fn_valid


def send_recv(old, pid, val, inpn, size, infd, outpn, outfd):
    cur = old.current

    cond = z3.And(
        # the receiver is a real process-table slot
        is_pid_valid(pid),
        # which is blocked waiting for a message
        old.procs[pid].state == dt.proc_state.PROC_SLEEPING,
        # the page to send from is a RAM page number
        is_pn_valid(inpn),
        # owned by the caller (any type)
        old.pages[inpn].owner == cur,
        # the message is at most one page
        z3.ULE(size, dt.PAGE_SIZE),
        # a descriptor to pass along, if any, is open in the caller
        z3.Implies(is_fd_valid(infd), is_fn_valid(old.procs[cur].ofile(infd))),
        # the page to receive the reply in is a RAM page number
        is_pn_valid(outpn),
        # owned by the caller
        old.pages[outpn].owner == cur,
        # the descriptor slot for a received descriptor, if any, is empty
        z3.Implies(is_fd_valid(outfd), z3.Not(is_fn_valid(old.procs[cur].ofile(outfd)))),
        # the receiver accepts messages from anyone, or from the caller
        z3.Implies(old.procs[pid].ipc_from != z3.BitVecVal(0, dt.pid_t),
                   old.procs[pid].ipc_from == cur),
    )

    new = old.copy()

    # Where the caller will receive the reply.
    new.procs[cur].ipc_page = outpn
    new.procs[cur].ipc_fd = outfd

    # Deliver the message.
    new.procs[pid].ipc_from = cur
    new.procs[pid].ipc_val = val
    dst = old.procs[pid].ipc_page
    new.pages.data = lambda p, i, oldfn: util.If(z3.And(p == dst, z3.ULT(i, size)),
                                                 oldfn(inpn, i), oldfn(p, i))
    new.procs[pid].ipc_size = size

    # Pass a descriptor when both sides asked for one.
    fn = old.procs[cur].ofile(infd)
    slot = old.procs[pid].ipc_fd
    passed = new.copy()
    passed.procs[pid].ofile[slot] = fn
    passed.procs[pid].nr_fds[slot] += 1
    passed.files[fn].refcnt[(pid, slot)] += 1
    new = util.If(z3.And(is_fd_valid(infd), is_fd_valid(slot)), passed, new)

    # The caller blocks, the receiver runs.
    new.procs[cur].state = dt.proc_state.PROC_SLEEPING
    new.procs[pid].state = dt.proc_state.PROC_RUNNING

    return cond, util.If(cond, new, old)



def sys_call(old, pid, val, inpn, size, outpn, outfd):
    # Send a request to pid and wait for its reply: no descriptor is sent
    # (infd is -1).
    cond, sent = send_recv(old, pid, val, inpn, size, z3.BitVecVal(-1, dt.fd_t),
                           outpn, outfd)

    # Work on a copy so that the pre-state is never modified in place.
    new = sent.copy()
    # Only the server may answer.
    new.procs[old.current].ipc_from = pid
    new.current = pid

    return cond, util.If(cond, new, old)


call_proc = sys_call
