# expect: warning SPEC203 5:8 a z3 equality used as a Python bool in 'in' is False here (z3py compares the two expressions structurally, not their values)
# upstream: Python's list.__contains__ tests each item with == and bool(); on z3 terms that is structural identity, so pid (a symbol) is in no list of constants and the branch is skipped.
# expect: verified
def sys_kill(old, pid):
    if pid in [1, 2]:
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
