# expect: error SPEC014 1:1 no entry function for sys_kill: define 'sys_kill'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kil(old, pid):
    return z3.BoolVal(True), old
