// expect: error C037 5:12 converting an integer to a pointer is not supported
#include "types.h"
uint64_t *f(void)
{
    return (uint64_t *)4096;
}
