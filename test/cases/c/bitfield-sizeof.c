// expect: error C033 7:12 'sizeof' cannot apply to the bit-field 'perm': a bit-field has no address or size of its own
// gcc: reject 'sizeof' applied to a bit-field
#include "types.h"
struct entry { uint64_t perm : 64; };
struct entry table[4];
uint64_t f(void) {
    return sizeof(table[0].perm);
}
