# expect: error SPEC003 7:5 'try' statements are not supported in specs
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    try:
        x = 1
    except Exception:
        x = 2
    return z3.BoolVal(True), old
