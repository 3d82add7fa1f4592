// expect: error C030 4:12 'y' is not declared
int f(int x)
{
    return y + x;
}
