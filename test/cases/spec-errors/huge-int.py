# expect: error SPEC028 6:8 integer too large (more than 4096 bits)
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
MASK = 1 << 10 ** 9
