// Pointers into one global order by their place in it, whatever the
// global's address. Every assert below but the last holds, so only the
// last (with the bounds check of its t[i]) is a safety condition.
// expect: safety f bounds 19:5 index i out of bounds of t[8]
// expect: safety f assert 19:5 assertion &t[i] < &t[0] may fail
#include "hooks.h"
struct item { unsigned long a; unsigned long b[4]; };
struct item t[8];
int f(unsigned long i)
{
    struct item *p = &t[2];
    assert(&t[1] > &t[0]);
    assert(&t[0] < &t[7]);
    assert(&t[0] <= &t[0]);
    assert(&p->b[1] < &p->b[3]);
    assert(&t[0].b[3] < &t[1].a);
    assert(&t[1].a >= &t[0].b[3]);
    assert(!(&t[3] < &t[2]));
    assert(&t[i] < &t[0]);
    return 0;
}
