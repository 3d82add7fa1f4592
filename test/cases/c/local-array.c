// expect: error C037 4:9 a local variable of type int[4] (locals are scalars or pointers) is not supported
int f(void)
{
    int a[4];
    return 0;
}
