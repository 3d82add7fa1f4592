// expect: error C040 7:14 pointer arithmetic is not supported; index an array instead
#include "types.h"
uint64_t words[8];
uint64_t f(void)
{
    uint64_t *p = words;
    return *(p + 1);
}
