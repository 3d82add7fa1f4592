# expect: warning SPEC203 5:8 a z3 equality used as a Python bool in 'if' is False here (z3py compares the two expressions structurally, not their values)
# upstream: z3py's BoolRef.__nonzero__ on an equality returns a.eq(b), structural identity of the two ASTs; state(pid) and PROC_RUNNING differ, so the branch is never taken and the spec verifies.
# expect: verified
def sys_kill(old, pid):
    if old.procs[pid].state == dt.proc_state.PROC_RUNNING:
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
