# expect: error SPEC027 6:1 assertion failed: unexpected table size
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
assert dt.NPROC == 128, 'unexpected table size'
