# expect: error SPEC026 5:1 from __future__ imports must occur at the beginning of the file
# mistake: a future statement after another statement; Python 2 refuses the file
# (upstream, below hv6's specs.py header, every one is).
import z3
from __future__ import division
def sys_kill(old, pid):
    return z3.BoolVal(False), old
