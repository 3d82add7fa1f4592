# expect: error SPEC003 5:13 true division of ints ('/' under from __future__ import division) gives a float, and floats are not supported in specs
# mistake: under true division 4096 / 8 is the float 512.0, which the dialect does not have; write 4096 // 8.
from __future__ import division
def sys_kill(old, pid):
    words = 4096 / 8
    return z3.BoolVal(False), old
