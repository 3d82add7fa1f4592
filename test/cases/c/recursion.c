// expect: exec-error f C051 6:16 recursive call of 'f'; the executor inlines calls, so recursion is not supported
int f(int n)
{
    if (n == 0)
        return 0;
    return 1 + f(n - 1);
}
