# expect: error SPEC012 4:8 a symbolic expression cannot be used as a Python bool in 'if'
# upstream: a != b is z3's distinct, and z3py's __nonzero__ decides only equalities structurally: on distinct it raises "Symbolic expressions cannot be cast to concrete Boolean values".
def sys_kill(old, pid):
    if pid != 0:
        return z3.BoolVal(False), old
    return z3.BoolVal(True), old
