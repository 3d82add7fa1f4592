# expect: error SPEC002 7:5 cannot assign to function call
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    f(pid) = 1
    return z3.BoolVal(True), old
