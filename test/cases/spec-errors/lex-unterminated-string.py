# expect: error SPEC001 3:8 unterminated string literal
import z3
name = 'sys_kill
