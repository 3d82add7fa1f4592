# expect: error SPEC019 7:12 maximum recursion depth of 100 exceeded
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def spin(x):
    return spin(x)

def sys_kill(old, pid):
    return spin(pid), old
