# expect: error SPEC018 7:12 step limit of 200000 exceeded
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def grow(n):
    return 0 if n == 0 else grow(n - 1) + grow(n - 1)

def sys_kill(old, pid):
    x = grow(40)
    return z3.BoolVal(True), old
