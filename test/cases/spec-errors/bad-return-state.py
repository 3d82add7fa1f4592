# expect: error SPEC016 7:5 sys_kill must return a pair (cond, state) but returned (cond, a Proc struct): the state must be a KernelState
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    return is_pid_valid(pid), old.procs
