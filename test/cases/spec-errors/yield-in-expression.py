# expect: error SPEC003 4:26 a 'yield' inside an expression is not supported in specs
# mistake: a yield inside a call; the dialect runs yield only as a statement or an assignment's value.
def checks(pid):
    z3.And(is_pid_valid((yield pid)))
def sys_kill(old, pid):
    return z3.BoolVal(False), old
