# expect: error SPEC001 3:11 unexpected character '$'
def sys_kill(old, pid):
    x = 1 $ 2
    return z3.BoolVal(True), old
