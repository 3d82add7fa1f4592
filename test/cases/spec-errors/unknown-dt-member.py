# expect: error SPEC006 7:39 module 'dt' has no attribute 'PROC_RUNNING'; did you mean dt.proc_state.PROC_RUNNING?
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = old.procs[pid].state == dt.PROC_RUNNING
    return cond, old
