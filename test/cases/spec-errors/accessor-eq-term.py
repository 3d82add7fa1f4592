# expect: error SPEC029 5:12 procs.ofile indexed with [] is an accessor, not a value
# handler: sys_close
# upstream: comparing an Accessor with a z3 term reaches z3py's __eq__, which tries to turn the Accessor into a z3 value and raises "Python value cannot be used as a Z3 integer".
def sys_close(old, pid, fd):
    cond = old.procs[pid].ofile[fd] == z3.BitVecVal(0, dt.fn_t)
    return cond, old
