// expect: error C043 6:9 cannot take the address of local 'x'; pointers may only point into globals
void set(int *p);
int f(void)
{
    int x = 1;
    set(&x);
    return x;
}
