# expect: error SPEC001 4:12 non-ASCII character U+2014 but no encoding declared (Python 2 reads source as ASCII unless a coding line on line 1 or 2 names the encoding, PEP 263)
# mistake: Python 2 refuses a file with a non-ASCII character (here in a comment) unless line 1 or 2 declares its encoding (PEP 263); hv6 writes the spec into a file without one.
def sys_kill(old, pid):
    # kill — the process
    return z3.BoolVal(False), old
