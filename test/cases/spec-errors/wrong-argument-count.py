# expect: error SPEC010 10:12 alive() missing 1 required positional argument: 'pid'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def alive(old, pid):
    return old.procs[pid].state != dt.proc_state.PROC_UNUSED

def sys_kill(old, pid):
    cond = alive(pid)
    return cond, old
