# expect: error SPEC011 9:45 util.If branches differ in sort: 64-bit bit-vector and 32-bit bit-vector
# handler: sys_copy_frame
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_copy_frame(old, frm, pid, to):
    new = old.copy()
    new.pages.data = lambda pn, idx, oldfn: util.If(pn == to, oldfn(frm, idx), old.procs[pid].ipc_fd)
    return z3.BoolVal(True), new
