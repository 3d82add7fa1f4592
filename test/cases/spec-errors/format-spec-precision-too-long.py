# expect: error SPEC023 5:9 this would build a string of more than 100000 characters
# mistake: format() with a precision of a billion digits after the point.
import z3
def sys_kill(old, pid):
    s = format(1, ".999999999f")
    return z3.BoolVal(False), old
