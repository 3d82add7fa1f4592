// expect: safety f div-zero 7:12 division by zero: b may be 0 in a / b
// expect: safety f div-overflow 7:12 signed division overflow: a / b may be the most negative 32-bit value / -1
// expect: safety f div-zero 7:20 remainder by zero: (b + 1) may be 0 in a % (b + 1)
// expect: safety f div-overflow 7:20 signed remainder overflow: a % (b + 1) may be the most negative 32-bit value % -1
int f(int a, int b)
{
    return a / b + a % (b + 1);
}
