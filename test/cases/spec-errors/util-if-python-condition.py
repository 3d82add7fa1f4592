# expect: error SPEC020 7:38 util.If condition must be a z3 Bool, got a Python bool
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    return z3.BoolVal(True), util.If(True, old.copy(), old)
