# expect: warning SPEC201 5:8 procs.ofile indexed with [] is an Accessor, not a value: '==' compares Python objects and gives False (as upstream)
# upstream: hv6's Accessor defines no __eq__, so Python 2 compares the Accessor object with the int by identity: False, and the branch is never taken.
# expect: verified
def sys_kill(old, pid):
    if old.procs[pid].ofile[0] == 0:
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
