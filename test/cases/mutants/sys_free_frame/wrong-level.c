// expect: refuted cond
// The freed page is expected to be a PT rather than a FRAME.
#include "kernel.h"

int sys_free_frame(pn_t from, size_t index, pn_t to)
{
    return free_page_table_page(from, index, to, PAGE_TYPE_X86_PT, PAGE_TYPE_X86_PT);
}
