// expect: refuted safety
// The third page is not checked to be FREE, so alloc_page's assertion can fail.
#include "kernel.h"

int sys_alloc_io_bitmap(pn_t pn1, pn_t pn2, pn_t pn3)
{
    struct proc *cur;

    if (pn1 + 1 != pn2 || pn2 + 1 != pn3)
        return -EINVAL;
    cur = get_proc(current);
    if (cur->use_io_bitmap)
        return -EEXIST;
    if (!is_page_type(pn1, PAGE_TYPE_FREE))
        return -EINVAL;
    if (!is_page_type(pn2, PAGE_TYPE_FREE))
        return -EINVAL;
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn1);
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn2);
    alloc_page(current, PAGE_TYPE_PROC_DATA, pn3);
    memset(get_page(pn1), 0xff, PAGE_SIZE);
    memset(get_page(pn2), 0xff, PAGE_SIZE);
    memset(get_page(pn3), 0xff, PAGE_SIZE);
    hvm_set_io_bitmap(get_page(cur->hvm), get_page(pn1));
    cur->io_bitmap_a = pn1;
    cur->io_bitmap_b = pn2;
    cur->use_io_bitmap = 1;
    return 0;
}
