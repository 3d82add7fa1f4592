# expect: refuted cond
# mistake: an empty name is rejected
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_set_proc_name(old, name0, name1):
    # Process names are debugging aids outside the abstract state: nothing
    # modelled changes and the call always succeeds.
    return name0 != util.i64(0), old
