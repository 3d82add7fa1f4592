// expect: safety f panic 6:9 panic("negative") is reachable
#include "hooks.h"
int f(int x)
{
    if (x < 0)
        panic("negative");
    return x;
}
