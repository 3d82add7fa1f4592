# expect: error SPEC024 8:12 list index out of range
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    va = dt.FreshVA()
    return va[4] == pid, old
