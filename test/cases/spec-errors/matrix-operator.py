# expect: error SPEC003 8:13 '@' operators (matrix products, which Python 2 does not have) are not supported in specs
# upstream: Python 2 has no '@' operator, so the file does not parse (a SyntaxError).
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid
def sys_kill(old, pid):
    x = pid @ pid
    return z3.BoolVal(True), old
