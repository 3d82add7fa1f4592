# expect: error SPEC012 7:16 a symbolic expression cannot be used as a Python bool in 'not'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = not is_pid_valid(pid)
    return cond, old
