// expect: safety f assert 5:5 assertion x > 0 may fail
#include "hooks.h"
int f(int x)
{
    assert(x > 0);
    return x;
}
