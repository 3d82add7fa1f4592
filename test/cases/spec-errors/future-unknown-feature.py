# expect: error SPEC026 3:24 future feature annotations is not defined
# mistake: annotations is a feature of Python 3.7; Python 2.7 has no such future feature.
from __future__ import annotations
def sys_kill(old, pid):
    return z3.BoolVal(False), old
