# expect: error SPEC003 8:5 'for' loops are not supported in specs
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    new = old.copy()
    for fd in range(16):
        new.procs[pid].ofile[fd] = z3.BitVecVal(0, 64)
    return z3.BoolVal(True), new
