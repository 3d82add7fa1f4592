# expect: error SPEC021 8:5 cannot assign to the Refcnt field procs.nr_pages
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].nr_pages = z3.BitVecVal(0, 64)
    return z3.BoolVal(True), new
