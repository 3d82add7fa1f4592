# expect: error SPEC001 3:14 unknown Unicode character name 'DASH'
# mistake: Unicode names it EN DASH or EM DASH; Python 2 refuses the literal.
NAME = u'pid \N{DASH}'
