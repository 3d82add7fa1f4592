# expect: error SPEC011 8:5 procs.ipc_fd holds 32-bit bit-vector values but a 64-bit bit-vector was written
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].ipc_fd = pid
    return z3.BoolVal(True), new
