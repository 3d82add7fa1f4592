// C that gcc -std=gnu11 -Wall -Werror takes: a typedef declared again as the
// same type, GNU's \e escape, and a division #if never evaluates.
// expect: safety f div-zero 12:12 division by zero: d may be 0 in x / d
// gcc: accept
#include "types.h"
typedef uint64_t word;
typedef uint64_t word;
#if 0 && (1 / 0)
#error not reached
#endif
word f(word d) { word x = '\e';
    return x / d;
}
