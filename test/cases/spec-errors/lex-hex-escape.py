# expect: error SPEC001 3:12 invalid \x escape (\x takes two hex digits)
# mistake: Python 2 refuses a \x escape with one hex digit.
NAME = 'pid\x4'
