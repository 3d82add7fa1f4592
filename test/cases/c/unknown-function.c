// expect: exec-error f C050 5:12 call of 'external', which has no body and is not a known built-in or hook
int external(int x);
int f(int x)
{
    return external(x) + 1;
}
