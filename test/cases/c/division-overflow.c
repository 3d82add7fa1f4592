// The quotient of the most negative signed value by -1 does not fit its type:
// x86's idiv traps (SIGFPE), for / and % alike, whatever -fwrapv says of + - *.
// Unsigned division and a constant divisor other than -1 need no such condition.
// expect: safety f div-zero 14:12 division by zero: b may be 0 in a / b
// expect: safety f div-overflow 14:12 signed division overflow: a / b may be the most negative 32-bit value / -1
// expect: safety f div-zero 14:20 remainder by zero: (b - 2) may be 0 in a % (b - 2)
// expect: safety f div-overflow 14:20 signed remainder overflow: a % (b - 2) may be the most negative 32-bit value % -1
// expect: safety f div-zero 14:40 division by zero: (c | 1) may be 0 in c / (c | 1)
// expect: safety f div-overflow 14:40 signed division overflow: c / (c | 1) may be the most negative 64-bit value / -1
// expect: safety f div-zero 14:61 division by zero: u may be 0 in u / u
// gcc: accept
int f(int a, int b, long c, unsigned u)
{
    return a / b + a % (b - 2) + (int)(c / (c | 1)) + (int)(u / u) + a / 7;
}
