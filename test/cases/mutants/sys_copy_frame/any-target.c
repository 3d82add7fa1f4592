// expect: refuted cond pages.data
// Any process's frames can be overwritten, not only current's or its embryo's.
#include "kernel.h"

int sys_copy_frame(pn_t from, pid_t pid, pn_t to)
{
    if (!is_page_type(from, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_page_type(to, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(to, pid))
        return -EACCES;
    memcpy(get_page(to), get_page(from), PAGE_SIZE);
    return 0;
}
