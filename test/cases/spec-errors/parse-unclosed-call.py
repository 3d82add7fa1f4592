# expect: error SPEC002 9:5 expected ',' or ')' but found keyword 'return'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = z3.And(is_pid_valid(pid),
        pid != 1
    return cond, old
