// expect: error C034 5:12 static declaration of 'helper' follows a non-static declaration at static-after-extern.c:4:12
// gcc: reject static declaration of 'helper' follows non-static declaration
// mistake: extern gives helper external linkage; a later static cannot take it back.
extern int helper(int x);
static int helper(int x)
{
    return x + 1;
}
int f(int x)
{
    return helper(x);
}
