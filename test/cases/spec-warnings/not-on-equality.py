# expect: warning SPEC203 5:12 a z3 equality used as a Python bool in 'not' is False here (z3py compares the two expressions structurally, not their values)
# upstream: 'not e' calls e.__nonzero__(); for the equality pid == 0 that is False (different ASTs), so 'not' gives True and the early return never happens.
# expect: verified
def sys_kill(old, pid):
    if not pid == 0:
        pass
    else:
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
