# expect: error SPEC011 7:12 sort mismatch in '+': 32-bit bit-vector and 64-bit bit-vector
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    cond = old.procs[pid].ipc_fd + pid == 0
    return cond, old
