# expect: error SPEC022 9:5 the object owned through files.refcnt must be a tuple (pid, fd), got a 32-bit bit-vector
# handler: sys_create
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_create(old, fd, fn, type, value, omode):
    new = old.copy()
    new.files[fn].refcnt[fd] += 1
    return z3.BoolVal(True), new
