# expect: warning SPEC202 6:5 assigning to the struct 'procs' has no effect (as upstream: reads of procs still see the struct)
# upstream: Struct.__setattr__ accepts 'procs' (it is in _meta) and stores it in the instance dict, but __getattribute__ answers sub-struct names from _structs, so every later read of new.procs still sees the struct: no effect.
# expect: verified
def sys_kill(old, pid):
    new = old.copy()
    new.procs = z3.BitVecVal(0, 64)
    cond = z3.And(
        is_pid_valid(pid),
        old.procs[pid].state != dt.proc_state.PROC_UNUSED,
        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,
    )
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE,
                                   old.procs[pid].state)
    return cond, util.If(cond, new, old)
