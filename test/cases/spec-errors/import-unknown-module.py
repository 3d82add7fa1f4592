# expect: error SPEC004 3:8 unknown module 'numpy'
import z3
import numpy as np
