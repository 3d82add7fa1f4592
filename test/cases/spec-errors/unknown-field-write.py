# expect: error SPEC007 5:5 Proc has no field 'stat'; did you mean 'state'?
# upstream: Struct.__setattr__ on a frozen struct raises AttributeError "No such attribute: 'stat'" for a name that is neither a field nor already set.
def sys_kill(old, pid):
    new = old.copy()
    new.procs[pid].stat = dt.proc_state.PROC_ZOMBIE
    return z3.BoolVal(True), new
