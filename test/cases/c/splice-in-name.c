// A backslash-newline vanishes before C sees tokens, even inside a name.
// expect: safety f div-zero 9:12 division by zero: d may be 0 in counter / d
// gcc: accept
#include "types.h"
uint64_t coun\
ter;
uint64_t f(uint64_t d)
{
    return cou\
nter / d;
}
