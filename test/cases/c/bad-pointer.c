// expect: exec-error f C056 7:12 read of uint32_t through a pointer to uint64_t
#include "types.h"
uint64_t words[8];
uint32_t f(void)
{
    uint32_t *p = (uint32_t *)&words[2];
    return *p;
}
