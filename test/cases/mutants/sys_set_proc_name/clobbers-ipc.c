// expect: refuted procs.ipc_val
// The second half of the name lands in ipc_val.
#include "kernel.h"

int sys_set_proc_name(uint64_t name0, uint64_t name1)
{
    struct proc *cur = get_proc(current);

    cur->name[0] = name0;
    cur->ipc_val = name1;
    return 0;
}
