// expect: error C042 8:12 'add' takes 2 arguments, got 1
static int add(int a, int b)
{
    return a + b;
}
int f(int x)
{
    return add(x);
}
