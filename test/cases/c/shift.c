// expect: safety f shift 4:12 shift amount n may not be below 64 in x << n
unsigned long f(unsigned long x, int n)
{
    return x << n;
}
