# expect: error SPEC012 7:12 a symbolic expression cannot be used as a Python bool in 'and'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = is_pid_valid(pid) and old.procs[pid].state != dt.proc_state.PROC_UNUSED
    return cond, old
