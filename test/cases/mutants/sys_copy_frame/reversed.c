// expect: refuted pages.data
// The copy goes the wrong way: the target frame overwrites the source.
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
    if (!is_current_or_embryo(pid))
        return -EACCES;
    memcpy(get_page(from), get_page(to), PAGE_SIZE);
    return 0;
}
