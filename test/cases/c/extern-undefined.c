// expect: error C047 7:12 undefined reference to 'nowhere': it is declared extern (at extern-undefined.c:4:12) and no unit defines it, so the program does not link
// mistake: gcc -c compiles this, but the link fails: nothing defines nowhere.
#include "types.h"
extern int nowhere;
int f(void)
{
    return nowhere + 1;
}
