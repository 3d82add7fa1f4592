# expect: error SPEC015 6:5 sys_kill must take 2 parameters (old, pid) but takes 1
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old):
    return z3.BoolVal(True), old
