# expect: error SPEC005 7:19 local variable 'cond' referenced before assignment
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = z3.And(cond, is_pid_valid(pid))
    return cond, old
