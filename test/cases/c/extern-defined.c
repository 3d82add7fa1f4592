// An extern declaration defined in the same program links; one that is never
// used needs no definition at all.
// expect: safety f div-zero 12:12 division by zero: d may be 0 in defined_later / d
// expect: safety f div-overflow 12:12 signed division overflow: defined_later / d may be the most negative 32-bit value / -1
// gcc: accept
#include "types.h"
extern int nowhere;
extern int defined_later;
int defined_later;
int f(int d)
{
    return defined_later / d;
}
