# expect: error SPEC016 8:5 sys_kill must return a pair (cond, state) but returned a Bool term
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = is_pid_valid(pid)
    return cond
