// expect: safety f div-zero 5:12 division by zero: b may be 0 in a / b
// expect: safety f div-zero 5:20 remainder by zero: (b + 1) may be 0 in a % (b + 1)
int f(int a, int b)
{
    return a / b + a % (b + 1);
}
