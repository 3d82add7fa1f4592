// expect: refuted cond
// The call always fails, though naming oneself is always allowed.
#include "kernel.h"

int sys_set_proc_name(uint64_t name0, uint64_t name1)
{
    struct proc *cur = get_proc(current);

    cur->name[0] = name0;
    cur->name[1] = name1;
    return -EINVAL;
}
