# expect: error SPEC032 7:21 StopIteration: the generator has no more items
# mistake: the generator yields one condition and next() asks for a second; Python 2 raises StopIteration.
def conditions(old, pid):
    yield is_pid_valid(pid)
def sys_kill(old, pid):
    g = conditions(old, pid)
    return next(g), next(g)
