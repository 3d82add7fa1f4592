# -*- coding: foobar -*-
# expect: error SPEC001 1:15 encoding problem: foobar (Python 2 knows no such coding)
# mistake: the coding line names a coding Python 2.7 does not know; it refuses the file.
def sys_kill(old, pid):
    return z3.BoolVal(False), old
