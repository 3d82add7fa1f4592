# expect: error SPEC007 7:27 Proc has no field 'stat'; did you mean 'state'?
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = old.procs[pid].stat == dt.proc_state.PROC_RUNNING
    return cond, old
