# -*- coding: utf-8 -*-
# expect: error SPEC023 5:13 'ascii' codec can't decode byte 0xc3 in position 0: ordinal not in range(128)
# mistake: a byte string with UTF-8 bytes (é) joined to a unicode; Python 2 decodes the bytes as ASCII and fails.
def sys_kill(old, pid):
    label = u'process ' + 'é'
    return z3.BoolVal(False), old
