/** A symbolic `if` inside a helper: SPEC012 with two notes and a two-call trace (the diagnostic tests' spec). */
export const SPEC_WITH_TRACE = `import z3

def check(pid):
    if z3.UGT(pid, 1):
        return True
    return False

def sys_kill(old, pid):
    ok = check(pid)
    return z3.BoolVal(ok), old
`;
