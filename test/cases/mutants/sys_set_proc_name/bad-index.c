// expect: refuted safety
// The name slot is chosen from the argument and can be past the array.
#include "kernel.h"

int sys_set_proc_name(uint64_t name0, uint64_t name1)
{
    struct proc *cur = get_proc(current);

    cur->name[name0 % 3] = name1;
    return 0;
}
