# expect: error SPEC023 8:9 this would build a string of more than 100000 characters
# mistake: three lists of a thousand items, each shared: str() of c would be ten billion characters.
import z3
a = [1] * 1000
b = [a] * 1000
c = [b] * 1000
def sys_kill(old, pid):
    s = str(c)
    return z3.BoolVal(False), old
