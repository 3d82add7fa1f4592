// expect: exec-error f C056 9:12 &a[0] < &b[0] orders pointers into different objects (a and b), which C leaves undefined
// mistake: C orders pointers into one object only; a and b are two globals.
#include "types.h"
uint64_t a[4];
uint64_t b[4];
int f(void)
{
    uint64_t *p = &a[0];
    return &a[0] < &b[0];
}
