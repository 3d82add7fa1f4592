# expect: warning SPEC201 5:8 procs.nr_fds is an Accessor, not a value: '<' compares Python objects and gives False (as upstream)
# upstream: Python 2 orders a number below any other object, so an Accessor (here nr_fds without its call) is never < 0 and the branch is skipped.
# expect: verified
def sys_kill(old, pid):
    if old.procs[pid].nr_fds < 0:
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
