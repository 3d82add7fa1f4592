# expect: error SPEC009 7:12 a BitVec(64) term is not callable
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = old.procs[pid].state() == dt.proc_state.PROC_RUNNING
    return cond, old
