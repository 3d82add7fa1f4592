# expect: error SPEC014 1:1 no entry function for clone_proc: define 'clone_proc' or 'sys_clone'
# handler: clone_proc
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_clone_proc(old, pid, pml4, stack, hvm):
    return z3.BoolVal(True), old
