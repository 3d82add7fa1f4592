# expect: warning SPEC203 8:8 a z3 equality used as a Python bool in 'if' is False here (z3py compares the two expressions structurally, not their values)
# upstream: new.procs[pid].state is If(..., ZOMBIE, ...) and the == builds eq(If(...), ZOMBIE): an equality of two different ASTs, so bool() is False (OSVLab folds the comparison into the If's condition but still treats it as the equality z3py sees).
# expect: verified
def sys_kill(old, pid):
    cond = z3.And(is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED, old.procs[pid].state != dt.proc_state.PROC_ZOMBIE)
    new = old.copy()
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING, dt.proc_state.PROC_ZOMBIE, dt.proc_state.PROC_RUNNING)
    if new.procs[pid].state == dt.proc_state.PROC_ZOMBIE:
        return z3.BoolVal(False), old
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING, dt.proc_state.PROC_ZOMBIE, old.procs[pid].state)
    new.procs[pid].killed = z3.BoolVal(True)
    return cond, util.If(cond, new, old)
