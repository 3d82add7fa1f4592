# expect: error SPEC008 7:12 too few indices for procs.ofile: it takes 2, got 1
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    return old.procs.ofile(pid) == 0, old
