# expect: error SPEC001 3:14 illegal Unicode character \U00110000 (past U+10FFFF)
# mistake: past the last code point; Python 2 refuses the literal (in a plain '' string it would be ten characters).
NAME = u'pid \U00110000'
