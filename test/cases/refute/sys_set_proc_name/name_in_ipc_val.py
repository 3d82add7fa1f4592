# expect: refuted procs.ipc_val
# mistake: the name is stored in a modelled field
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_set_proc_name(old, name0, name1):
    # Process names are debugging aids outside the abstract state: nothing
    # modelled changes and the call always succeeds.
    new = old.copy()
    new.procs[old.current].ipc_val = name0
    return z3.BoolVal(True), new
