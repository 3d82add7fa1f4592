# expect: error SPEC013 9:5 Can not ite object of type int
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = is_pid_valid(pid)
    new = old.copy()
    new.procs[pid].state = 5
    return cond, util.If(cond, new, old)
