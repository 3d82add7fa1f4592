# expect: warning SPEC201 5:13 procs.ofile indexed with [] is an Accessor, not a value: '!=' compares Python objects and gives True (as upstream)
# upstream: Python 2's default != on objects without __ne__ is the negation of identity: True, so 'not' gives False and nothing changes.
# expect: verified
def sys_kill(old, pid):
    if not (old.procs[pid].ofile[0] != None):
        return z3.BoolVal(False), old
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)
    return cond, util.If(cond, new, old)
