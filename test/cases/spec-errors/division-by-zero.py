# expect: error SPEC017 6:9 integer division or modulo by zero
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
SLOTS = dt.NPAGE // (dt.NOFILE - 16)
