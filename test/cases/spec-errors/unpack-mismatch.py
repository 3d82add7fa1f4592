# expect: error SPEC025 7:5 too many values to unpack (expected 2, got 3)
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond, new = z3.BoolVal(True), old, old
    return cond, new
