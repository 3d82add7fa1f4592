# expect: error SPEC008 7:12 too many indices for procs.nr_pages(): it takes 1, got 2
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    return old.procs[pid].nr_pages(pid) == 0, old
