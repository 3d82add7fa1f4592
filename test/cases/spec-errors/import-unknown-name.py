# expect: error SPEC004 3:53 cannot import name 'is_fn_vaild' from 'hv6py.kernel.spec.helpers'; did you mean 'is_fn_valid'?
import z3
from hv6py.kernel.spec.helpers import is_pid_valid, is_fn_vaild
