// A function with a value whose last path has no return: gcc -c -Wall -Werror
// refuses it at the closing brace ("control reaches end of non-void function";
// not with -fsyntax-only, which the gcc: header uses, so there is none), and
// the value would be undefined, so it is an error here too, never the value
// of another path (it read as "returns -22").
// expect: exec-error f C064 13:1 control reaches the end of 'f', which returns int, without a return statement: give every path a return (gcc -Wall -Werror refuses it; the value would be undefined)
int f(int x)
{
    if (x > 3)
        return -22;
    if (x < 0)
        return 0;
}
