# expect: error SPEC001 4:1 unindent does not match any outer indentation level
def sys_kill(old, pid):
        x = 1
    return x
