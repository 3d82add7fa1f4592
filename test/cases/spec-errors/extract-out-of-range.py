# expect: error SPEC023 7:12 Extract(70, 0) does not fit a 64-bit value
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    return z3.Extract(70, 0, pid) == 0, old
