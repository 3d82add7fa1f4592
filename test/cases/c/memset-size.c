// expect: exec-error f C054 6:12 memset must cover the whole array: pages[pn] does not designate an object of 100 bytes
#include "hooks.h"
uint64_t pages[4][512];
void f(uint64_t pn)
{
    memset(pages[pn], 0, 100);
}
