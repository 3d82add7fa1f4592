# expect: error SPEC029 8:24 procs.ofile indexed with [] is an accessor, not a value
# handler: sys_close
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_close(old, pid, fd):
    cond = is_fn_valid(old.procs[pid].ofile[fd])
    return cond, old
