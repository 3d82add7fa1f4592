# expect: error SPEC023 5:9 this would build a string of more than 100000 characters
# mistake: a precision given by *, a billion: the same bound as a width given by *.
import z3
def sys_kill(old, pid):
    s = "%.*d" % (10 ** 9, 1)
    return z3.BoolVal(False), old
