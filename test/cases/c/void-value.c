// expect: error C046 5:13 a void value is used
void g(void);
int f(void)
{
    int x = g();
    return x;
}
