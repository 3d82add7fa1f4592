# expect: error SPEC010 9:22 the function assigned to pages.data must take the keyword argument oldfn: lambda pn, idx, oldfn: ...
# handler: sys_copy_frame
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    new.pages.data = lambda pn, idx: old.pages.data(frm, idx)
    return z3.BoolVal(True), new
