// expect: error C012 6:12 bad character literal '\777': octal escape sequence out of range
// gcc: reject octal escape sequence out of range
// mistake: an escape names one byte; 0777 is 511.
int f(void)
{
    return '\777';
}
