// An extern declaration defined in the same program links; one that is never
// used needs no definition at all.
// expect: safety f div-zero 11:12 division by zero: d may be 0 in defined_later / d
// gcc: accept
#include "types.h"
extern int nowhere;
extern int defined_later;
int defined_later;
int f(int d)
{
    return defined_later / d;
}
