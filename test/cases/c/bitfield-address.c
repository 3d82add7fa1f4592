// expect: error C033 9:12 '&' cannot apply to the bit-field 'perm': a bit-field has no address or size of its own
// gcc: reject cannot take address of bit-field
// mistake: a bit-field has no address, even a 64-bit one.
#include "types.h"
struct entry { uint64_t perm : 64; uint64_t pfn; };
struct entry table[4];
uint64_t *f(void)
{
    return &table[1].perm;
}
