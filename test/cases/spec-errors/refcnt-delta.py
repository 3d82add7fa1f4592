# expect: error SPEC022 8:5 a Refcnt field changes by exactly 1, not by int 2
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].nr_children[pid] += 2
    return z3.BoolVal(True), new
