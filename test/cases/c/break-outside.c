// expect: error C022 4:5 'break' outside a loop is not supported
void f(void)
{
    break;
}
