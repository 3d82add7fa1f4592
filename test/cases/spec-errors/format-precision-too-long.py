# expect: error SPEC023 5:9 this would build a string of more than 100000 characters
# mistake: a precision of a billion pads the number with a billion zeros (bounded like a width).
import z3
def sys_kill(old, pid):
    s = "%.999999999x" % 255
    return z3.BoolVal(False), old
