# expect: error SPEC005 7:12 name 'is_pid_vaild' is not defined; did you mean 'is_pid_valid'?
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = is_pid_vaild(pid)
    return cond, old
