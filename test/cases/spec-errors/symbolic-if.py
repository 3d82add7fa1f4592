# expect-error: SPEC012 8:8 a symbolic expression cannot be used as a Python bool in 'if'
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    if old.procs[pid].state == dt.proc_state.PROC_RUNNING:
        new.procs[pid].killed = z3.BoolVal(True)
    return z3.BoolVal(True), new
