// expect: error C033 5:5 an assignment needs an assignable lvalue
int g(void);
void f(void)
{
    g() = 1;
}
