// expect: error C022 4:17 the comma operator is not supported
int f(int a, int b)
{
    return a = 1, b;
}
