# expect: error SPEC023 10:12 comparing these values visits more than 200000 items of nested lists and tuples
# mistake: two lists nested in themselves forty times over; == would compare 2^40 items.
import z3
def nest(n):
    if n == 0:
        return [1]
    t = nest(n - 1)
    return [t, t]
def sys_kill(old, pid):
    same = nest(40) == nest(40)
    return z3.BoolVal(False), old
