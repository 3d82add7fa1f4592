// expect: exec-error f C053 5:5 the loop ran more than 20000 iterations (a loop that does not end?)
int f(void)
{
    int s = 0;
    for (;;)
        s++;
    return s;
}
