# expect: error SPEC003 4:12 the builtin eval() is not supported in specs
# mistake: eval runs text as code; a spec is the code itself.
def sys_kill(old, pid):
    cond = eval('is_pid_valid(pid)')
    return cond, old
