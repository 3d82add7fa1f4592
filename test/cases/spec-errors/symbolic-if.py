# expect: error SPEC012 9:8 a symbolic expression cannot be used as a Python bool in 'if'
# upstream: z3py's __nonzero__ on a comparison that is not an equality (here ULT) raises "Symbolic expressions cannot be cast to concrete Boolean values".
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    if z3.ULT(old.procs[pid].state, dt.proc_state.PROC_RUNNING):
        new.procs[pid].killed = z3.BoolVal(True)
    return z3.BoolVal(True), new
