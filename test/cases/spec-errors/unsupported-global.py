# expect: error SPEC003 8:5 'global' declarations are not supported in specs
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
counter = 0
def sys_kill(old, pid):
    global counter
    return z3.BoolVal(True), old
